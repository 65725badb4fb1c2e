import { startFl0, type Config, type Logger } from '@fl0/server'
import type { EventStore } from '@fl0/stores'
import { Worker } from 'node:worker_threads'
import { createDemo, type Demo, type DemoOptions } from './generator/index.ts'
import { ensureDemoOrganisation } from './provision.ts'
import type { SendProgress, SendResult } from './send.ts'
import type { SendWorkerInput, SendWorkerMessage } from './send-worker.ts'

/**
 * `npm run demo`, as a function: starts fl0 embedded on the configured data
 * directory (PGlite and chDB allow one process per directory, so the demo
 * cannot talk to a separate fl0 on the same data), provisions the demo
 * organisation, sends the generated traffic through the real HTTP ingest, waits
 * until the event writer has stored all of it, and stops fl0.
 *
 * Reruns: message ids are `demo-<runId>-<day>-<session>-<call>`, where runId
 * names the data set (seed, sizes, rule, UTC day of the end). The same data set
 * sent again is stored once (the writer drops message ids it already holds), and
 * when the store already holds all of it nothing is sent at all.
 */
export interface RunDemoInput {
  config: Config
  logger: Logger
  demo: DemoOptions
  /** Progress lines for a human (the CLI writes them to stderr). */
  log?: (line: string) => void
  /** Give up when the stored count has not moved for this long; default 120 s. */
  stallTimeoutMs?: number
  signal?: AbortSignal
}

export interface DemoRunResult {
  url_code: string
  org_id: string
  sources: Array<{ type: 'snippet' | 'segment'; name: string; write_key: string; url: string | null }>
  /** Calls of this data set now in `events`. */
  events: number
  /** Calls this run sent (0 when the store already held them all). */
  sent: number
  /** Every event of the organisation, demo or not. */
  org_events: number
  run_id: string
  window: { start: string; end: string }
}

export async function runDemo(input: RunDemoInput): Promise<DemoRunResult> {
  const log = input.log ?? (() => {})
  const started = Date.now()
  const fl0 = await startFl0({ ...input.config, PORT: 0, HOST: '127.0.0.1' }, input.logger)
  try {
    const { org, snippet, segment, created } = await ensureDemoOrganisation(fl0.stores.metadata!)
    log(created.length ? `created ${created.join(', ')} for organisation '${org.url_code}'` : `reusing organisation '${org.url_code}' and its sources`)
    const demo = createDemo(input.demo)
    log(
      `data set ${demo.runId}: seed ${demo.seed}, ${demo.companies} companies, ${demo.people} people, ${demo.days} days ` +
        `(${demo.window.start.toISOString().slice(0, 10)} to ${demo.window.end.toISOString()})` +
        (demo.scale !== 1 ? `, visit rates ×${demo.scale.toFixed(3)}` : ''),
    )
    const store = fl0.stores.events!
    const prefix = `demo-${demo.runId}-`
    const before = await countStored(store, org.id, prefix)

    let sent: SendResult | undefined
    let expected: number
    const total = before.mine > 0 ? countMessages(demo) : undefined
    if (total !== undefined && before.mine >= total) {
      log(`the store already holds all ${total.toLocaleString('en')} calls of this data set: nothing to send`)
      expected = total
    } else {
      const sendStart = Date.now()
      sent = await sendInWorker(
        {
          // The same data set: the same end, and the scale worked out here (no second calibration).
          demo: { ...input.demo, now: demo.window.end, scale: demo.scale, events: undefined },
          url: fl0.url,
          writeKeys: { snippet: snippet.write_key, segment: segment.write_key },
        },
        (p) => log(`sent ${p.sent.toLocaleString('en')} calls (${rate(p.sent, sendStart)}/s), up to ${p.at?.slice(0, 16)}`),
        input.signal,
      )
      log(`sent ${sent.sent.toLocaleString('en')} calls in ${seconds(sendStart)} s (${rate(sent.sent, sendStart)}/s): ${formatCounts(sent.byType)}`)
      expected = sent.accepted
    }

    const stored = await waitForStored(store, org.id, prefix, expected, input.stallTimeoutMs ?? 120_000, log, input.signal)
    if (sent && sent.failed > 0) {
      throw new Error(`${sent.failed} of ${sent.sent} calls were not accepted by the ingest: ${sent.errors.join('; ')}`)
    }
    log(`done in ${seconds(started)} s: ${stored.mine.toLocaleString('en')} calls of this data set stored, ${stored.all.toLocaleString('en')} events in the organisation`)
    if (stored.all > stored.mine) {
      log(`note: the organisation also holds ${(stored.all - stored.mine).toLocaleString('en')} other events (other seeds, sizes or days); use a fresh FL0_DATA_DIR for one data set alone`)
    }
    return {
      url_code: org.url_code,
      org_id: org.id,
      sources: [snippet, segment].map((s) => ({ type: s.type, name: s.name, write_key: s.write_key, url: s.url })),
      events: stored.mine,
      sent: sent?.sent ?? 0,
      org_events: stored.all,
      run_id: demo.runId,
      window: { start: demo.window.start.toISOString(), end: demo.window.end.toISOString() },
    }
  } finally {
    await fl0.stop()
  }
}

/** Fails when something answering like fl0 listens on `port`: it would hold the same data directory. */
export async function assertNoRunningFl0(port: number, host = '127.0.0.1'): Promise<void> {
  let body: unknown
  try {
    // Healthy (200) or not (503: its bus log stopped), fl0 answers with its roles.
    const response = await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(1_500) })
    body = await response.json().catch(() => undefined)
  } catch {
    return // nothing listening (or not HTTP): fine
  }
  if (Array.isArray((body as { roles?: unknown } | undefined)?.roles)) {
    throw new Error(
      `fl0 is already running on port ${port}. Stop it first (Ctrl-C where npm start runs), then run npm run demo again: ` +
        'the demo starts fl0 itself on the same data directory, and PGlite and chDB allow one process per data directory.',
    )
  }
}

async function countStored(store: EventStore, orgId: string, prefix: string): Promise<{ all: number; mine: number }> {
  const result = await store.client.query({
    query: `SELECT count() AS total, countIf(startsWith(message_id, {prefix:String})) AS mine
            FROM events WHERE org_id = {org:String}`,
    query_params: { org: orgId, prefix },
    format: 'JSONEachRow',
  })
  const [row] = await result.json<{ total: string | number; mine: string | number }>()
  return { all: Number(row?.total ?? 0), mine: Number(row?.mine ?? 0) }
}

async function waitForStored(
  store: EventStore,
  orgId: string,
  prefix: string,
  expected: number,
  stallTimeoutMs: number,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ all: number; mine: number }> {
  let last = -1
  let lastChange = Date.now()
  let lastLog = 0
  for (;;) {
    signal?.throwIfAborted()
    const counts = await countStored(store, orgId, prefix)
    if (counts.mine >= expected) return counts
    if (counts.mine !== last) {
      last = counts.mine
      lastChange = Date.now()
    } else if (Date.now() - lastChange > stallTimeoutMs) {
      throw new Error(`the event writer stored ${counts.mine} of ${expected} calls and has not moved for ${stallTimeoutMs / 1000} s`)
    }
    if (Date.now() - lastLog > 2_000) {
      lastLog = Date.now()
      log(`stored ${counts.mine.toLocaleString('en')} of ${expected.toLocaleString('en')} calls`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

function countMessages(demo: Demo): number {
  let n = 0
  for (const _ of demo.messages()) n++
  return n
}

/** Runs sendMessages on a worker thread (send-worker.ts): the generator and the client get a core of their own. */
function sendInWorker(workerData: SendWorkerInput, onProgress: (p: SendProgress) => void, signal?: AbortSignal): Promise<SendResult> {
  const worker = new Worker(new URL('./send-worker.mjs', import.meta.url), { workerData })
  const onAbort = () => worker.postMessage({ kind: 'abort' })
  signal?.addEventListener('abort', onAbort, { once: true })
  return new Promise<SendResult>((resolve, reject) => {
    worker.on('message', (m: SendWorkerMessage) => {
      if (m.kind === 'progress') onProgress(m.progress)
      else if (m.kind === 'done') resolve(m.result)
      else reject(new Error(`the sending thread failed: ${m.message}`))
    })
    worker.on('error', reject)
    worker.on('exit', (code) => reject(new Error(`the sending thread stopped (exit code ${code})`)))
  }).finally(() => {
    signal?.removeEventListener('abort', onAbort)
    void worker.terminate()
  })
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1)
const rate = (n: number, since: number) => Math.round(n / Math.max(0.001, (Date.now() - since) / 1000)).toLocaleString('en')
const formatCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
    .join(', ')
