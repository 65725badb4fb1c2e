import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import RudderAnalytics from '@rudderstack/rudder-sdk-node'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * The real server-side libraries of Segment and RudderStack, from their own
 * registries, with their default settings (RudderStack's gzip their batches),
 * send to one running embedded fl0; each event must be stored once, with its
 * fields. Segment's Node library has its own file (segment-node.integration.test.ts).
 *
 * The Python, Go and Java clients run as child processes from the cache that
 * `bash scripts/clients/install.sh` fills (pinned versions in scripts/clients/);
 * RudderStack's Node SDK is a devDependency and runs in this process. A client
 * that is not installed is skipped, unless FL0_CLIENTS=required (as in CI),
 * where it fails. Each client's requests pass through a small recording proxy
 * in front of fl0, so that a refusal names the path, headers and answer, and
 * the tests can check the library used the path and encoding it is known for.
 */
const CACHE_ROOT = process.env.FL0_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'fl0')
const CLIENTS_DIR = process.env.FL0_CLIENTS_DIR ?? join(CACHE_ROOT, 'clients')
const REQUIRED = process.env.FL0_CLIENTS === 'required'
const SCRIPTS = fileURLToPath(new URL('../../scripts/clients/', import.meta.url))

const PYTHON = join(CLIENTS_DIR, 'python/venv/bin/python')
const GO_CLIENT = join(CLIENTS_DIR, 'go/fl0-go-client')
const JAVA_CLASSES = join(CLIENTS_DIR, 'java/classes')
const installed = {
  python: existsSync(join(CLIENTS_DIR, 'python/.stamp')) && existsSync(PYTHON),
  go: existsSync(join(CLIENTS_DIR, 'go/.stamp')) && existsSync(GO_CLIENT),
  java: existsSync(join(CLIENTS_DIR, 'java/.stamp')) && existsSync(join(JAVA_CLASSES, 'Fl0JavaClient.class')),
}

/** A client's run (90 s at most) and the wait for its events, on a loaded 2-core machine. */
const TEST_TIMEOUT = 180_000

/** Skipped when the client is not installed, except under FL0_CLIENTS=required, where the test fails saying so. */
function clientTest(client: keyof typeof installed, name: string, fn: () => Promise<void>) {
  it.skipIf(!installed[client] && !REQUIRED)(
    name,
    async () => {
      if (!installed[client]) throw new Error(`the ${client} client is not installed in ${CLIENTS_DIR}: run bash scripts/clients/install.sh`)
      await fn()
    },
    TEST_TIMEOUT,
  )
}

const WHEN = Date.parse('2026-02-10T09:30:00.000Z')
const TYPES = ['alias', 'group', 'identify', 'page', 'screen', 'track']

let fl0: TestFl0

beforeAll(async () => {
  fl0 = await startTestFl0()
})
afterAll(async () => {
  await fl0?.stop()
})

interface Recorded {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The body as the client sent it, decoded when it said Content-Encoding (for failure messages). */
  body: string
  status: number
  answer: string
}

/** An HTTP proxy in front of fl0 that records each request and fl0's answer, and passes both on unchanged. */
async function startRecorder(target: string) {
  const upstream = new URL(target)
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const back: Buffer[] = []
          answer.on('data', (c: Buffer) => back.push(c))
          answer.on('end', () => {
            const text = Buffer.concat(back)
            requests.push({
              method: req.method ?? '',
              path: req.url ?? '',
              headers: req.headers,
              body: decode(raw, req.headers['content-encoding']),
              status: answer.statusCode ?? 0,
              answer: text.toString('utf8'),
            })
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(text)
          })
        },
      )
      forward.on('error', (error) => {
        res.writeHead(502)
        res.end(String(error))
      })
      forward.end(raw)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function decode(raw: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip') return gunzipSync(raw).toString('utf8')
    if (encoding === 'deflate') return inflateSync(raw).toString('utf8')
    if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8')
  } catch {
    return `<${raw.length} bytes that do not decode as ${encoding}>`
  }
  return raw.toString('utf8')
}

/** One line per request: what a refusal looks like in a failure message. */
function describeRequests(requests: Recorded[]): string {
  return requests
    .map((r) => {
      const headers = ['content-type', 'content-encoding', 'transfer-encoding', 'authorization', 'user-agent']
        .filter((h) => r.headers[h] !== undefined)
        .map((h) => `${h}: ${h === 'authorization' ? String(r.headers[h]).split(' ')[0] : r.headers[h]}`)
      return `${r.method} ${r.path} [${headers.join('; ')}] ${r.body.slice(0, 200)} -> ${r.status} ${r.answer}`
    })
    .join('\n')
}

interface ClientOutput {
  errors: unknown[]
  [key: string]: unknown
}

/** Runs a client to completion and parses the JSON line it prints last. */
function runClient(file: string, args: string[], timeoutMs = 90_000): Promise<ClientOutput> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\nstdout: ${stdout}\nstderr: ${stderr}`))
      const line = stdout.trim().split('\n').pop() ?? ''
      try {
        resolve(JSON.parse(line))
      } catch {
        reject(new Error(`${file} printed no JSON result\nstdout: ${stdout}\nstderr: ${stderr}`))
      }
    })
  })
}

type Row = Record<string, unknown> & { type: string }

/** Waits for the six calls a client sent for `prefix`, then returns them, one row per stored event. */
async function storedCalls(prefix: string): Promise<Row[]> {
  const params = { org: fl0.org.id, user: `${prefix}-user` }
  await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String} AND user_id = {user:String}', params, TYPES.length, 60_000)
  return fl0.query<Row>(
    `SELECT type, message_id, event, name, user_id, anonymous_id, group_id, previous_id, source_id, toString(timestamp) AS ts,
            ip, page_path, page_title, page_url, JSONExtractString(context, 'library', 'name') AS library, JSONExtractString(context, 'library', 'version') AS library_version,
            toJSONString(traits) AS traits, toJSONString(properties) AS properties, context
     FROM events WHERE org_id = {org:String} AND user_id = {user:String} ORDER BY type, message_id`,
    params,
  )
}

/**
 * The checks every client's six calls must pass: each stored once, from the
 * Segment source, at the time the client gave, with the fields it sent.
 */
function expectCalls(
  rows: Row[],
  prefix: string,
  library: { name: string; version?: string },
  opts: { messageIds?: boolean } = {},
) {
  expect(rows.map((r) => r.type)).toEqual(TYPES)
  expect(new Set(rows.map((r) => r.message_id)).size).toBe(TYPES.length)
  const byType = Object.fromEntries(rows.map((r) => [r.type, r]))
  for (const r of rows) {
    if (opts.messageIds !== false) expect(r.message_id).toBe(`${prefix}-${r.type}`)
    expect(r.user_id).toBe(`${prefix}-user`)
    expect(r.source_id).toBe(fl0.segment.id)
    expect(r.ip).toBe('127.0.0.1')
    expect(r.library).toBe(library.name)
    if (library.version) expect(r.library_version).toBe(library.version)
    // The client's sentAt corrects its clock: the event's own time, to within the send latency.
    expect(Math.abs(Date.parse(`${r.ts}Z`) - WHEN), `${r.type} at ${r.ts}`).toBeLessThan(5_000)
  }
  expect(JSON.parse(byType.identify.traits as string)).toEqual({ email: `${prefix}@acme.test`, plan: 'pro', employees: 120 })
  expect(byType.track).toMatchObject({ event: 'Report Created' })
  expect(JSON.parse(byType.track.properties as string)).toEqual({ charts: 3, shared: true, title: 'Q3 \u2603' })
  expect(byType.page).toMatchObject({ name: 'Pricing', page_path: '/pricing', page_title: 'Pricing', page_url: 'https://acme.test/pricing' })
  expect(JSON.parse(byType.page.properties as string)).toMatchObject({ url: 'https://acme.test/pricing', path: '/pricing', title: 'Pricing' })
  expect(byType.screen).toMatchObject({ name: 'Settings' })
  expect(JSON.parse(byType.screen.properties as string)).toMatchObject({ tab: 'billing' })
  expect(byType.group).toMatchObject({ group_id: `${prefix}-acme` })
  expect(JSON.parse(byType.group.traits as string)).toEqual({ name: 'Acme', industry: 'Tools' })
  expect(byType.alias).toMatchObject({ previous_id: `${prefix}-anon` })
}

/** Every request reached fl0's path for the library and was answered 200. */
function expectRequests(requests: Recorded[], path: string, encoding: string | undefined) {
  const summary = describeRequests(requests)
  expect(requests.length, summary).toBeGreaterThan(0)
  for (const r of requests) {
    expect(r.status, summary).toBe(200)
    expect(r.path, summary).toBe(path)
    expect(r.headers['content-encoding'], summary).toBe(encoding)
  }
}

async function recorded<T>(fn: (url: string, requests: Recorded[]) => Promise<T>): Promise<T> {
  const recorder = await startRecorder(fl0.url)
  try {
    return await fn(recorder.url, recorder.requests)
  } finally {
    await recorder.close()
  }
}

describe("Segment's Python library (segment-analytics-python)", () => {
  clientTest('python', 'stores each call once with its fields', async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'segment', url, fl0.segment.write_key, 'py-segment'])
      expect(out.errors, describeRequests(requests)).toEqual([])
      // Segment's Python library sends uncompressed batches, with the key both as Basic auth and writeKey in the body.
      expectRequests(requests, '/v1/batch', undefined)
      expectCalls(await storedCalls('py-segment'), 'py-segment', { name: 'analytics-python', version: out.version as string })
    })
  })

  clientTest('python', "reports fl0's code and message for an unknown write key", async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'segment', url, 'not-a-write-key', 'py-segment-badkey'])
      expect(out.errors, describeRequests(requests)).toEqual([
        { class: 'APIError', status: 401, code: 'unknown_write_key', message: 'Unknown write key', items: TYPES.length },
      ])
      // 401 is final: one request, no retry.
      expect(requests.map((r) => r.status)).toEqual([401])
    })
  })

  clientTest('python', "reports fl0's code and message for an event fl0 cannot store", async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'segment', url, fl0.segment.write_key, 'py-segment-invalid', 'invalid'])
      expect(out.errors, describeRequests(requests)).toEqual([
        { class: 'APIError', status: 400, code: 'invalid_batch', message: 'No valid event in the batch', items: 1 },
      ])
      expect(requests.map((r) => r.status)).toEqual([400])
    })
  })
})

describe("RudderStack's Python SDK (rudder-sdk-python)", () => {
  clientTest('python', "stores each call once with its fields, from gzipped batches, identify's traits from context.traits", async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'rudder', url, fl0.segment.write_key, 'py-rudder'])
      expect(out.errors, describeRequests(requests)).toEqual([])
      expectRequests(requests, '/v1/batch', 'gzip')
      // RudderStack's SDK names itself as Segment's does; the version tells them apart.
      const rows = await storedCalls('py-rudder')
      expectCalls(rows, 'py-rudder', { name: 'analytics-python', version: out.version as string })
      // The SDK sends identify's traits in context.traits only (RudderStack's data plane reads them there).
      const identify = JSON.parse(requests.map((r) => r.body).find((b) => b.includes('"identify"'))!).batch.find((m: { type: string }) => m.type === 'identify')
      expect(identify.traits).toBeUndefined()
      expect(identify.context.traits).toEqual({ email: 'py-rudder@acme.test', plan: 'pro', employees: 120 })
      const stored = rows.find((r) => r.type === 'identify')!
      expect(JSON.parse(stored.context as string).traits).toEqual({ email: 'py-rudder@acme.test', plan: 'pro', employees: 120 })
      // Ingest takes an identify's traits from context.traits too, so the people and traits workers see them.
      expect(JSON.parse(stored.traits as string)).toEqual({ email: 'py-rudder@acme.test', plan: 'pro', employees: 120 })
    })
  })

  clientTest('python', "reports fl0's code and message for an unknown write key", async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'rudder', url, 'not-a-write-key', 'py-rudder-badkey'])
      // Without `code` in the body the SDK raised KeyError, which it retried with back-off for minutes.
      expect(out.errors, describeRequests(requests)).toEqual([
        { class: 'APIError', status: 401, code: 'unknown_write_key', message: 'Unknown write key', items: TYPES.length },
      ])
      expect(requests.map((r) => r.status)).toEqual([401])
    })
  })

  clientTest('python', "reports fl0's code and message for an event fl0 cannot store", async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(PYTHON, [join(SCRIPTS, 'python/send.py'), 'rudder', url, fl0.segment.write_key, 'py-rudder-invalid', 'invalid'])
      expect(out.errors, describeRequests(requests)).toEqual([
        { class: 'APIError', status: 400, code: 'invalid_batch', message: 'No valid event in the batch', items: 1 },
      ])
      expect(requests.map((r) => r.status)).toEqual([400])
    })
  })
})

describe("RudderStack's Node SDK (@rudderstack/rudder-sdk-node)", () => {
  it('stores each call once with its fields, from gzipped batches', async () => {
    await recorded(async (url, requests) => {
      const errors: unknown[] = []
      const client = new RudderAnalytics(fl0.segment.write_key, { dataPlaneUrl: url, errorHandler: (e) => errors.push(e) })
      const prefix = 'node-rudder'
      const userId = `${prefix}-user`
      const timestamp = new Date(WHEN)
      client.identify({ userId, traits: { email: `${prefix}@acme.test`, plan: 'pro', employees: 120 }, timestamp })
      client.track({ userId, event: 'Report Created', properties: { charts: 3, shared: true, title: 'Q3 \u2603' }, timestamp })
      client.page({ userId, name: 'Pricing', properties: { url: 'https://acme.test/pricing', path: '/pricing', title: 'Pricing' }, timestamp })
      client.screen({ userId, name: 'Settings', properties: { tab: 'billing' }, timestamp })
      client.group({ userId, groupId: `${prefix}-acme`, traits: { name: 'Acme', industry: 'Tools' }, timestamp })
      client.alias({ userId, previousId: `${prefix}-anon`, timestamp })
      await client.flush()
      expect(errors, describeRequests(requests)).toEqual([])
      expectRequests(requests, '/v1/batch', 'gzip')
      const { version } = createRequire(import.meta.url)('@rudderstack/rudder-sdk-node/package.json') as { version: string }
      expectCalls(await storedCalls(prefix), prefix, { name: 'analytics-node', version }, { messageIds: false })
    })
  }, TEST_TIMEOUT)
})

describe("RudderStack's Node SDK without a timestamp", () => {
  it("dates an event by the SDK's originalTimestamp", async () => {
    await recorded(async (url, requests) => {
      const errors: unknown[] = []
      const client = new RudderAnalytics(fl0.segment.write_key, { dataPlaneUrl: url, errorHandler: (e) => errors.push(e) })
      const userId = 'node-rudder-clock'
      // The first call is sent at once; the second waits in the queue (up to flushInterval, 10 s by default) until flush.
      client.track({ userId, event: 'First' })
      client.track({ userId, event: 'Queued' })
      await client.flush()
      expect(errors, describeRequests(requests)).toEqual([])
      expectRequests(requests, '/v1/batch', 'gzip')
      // With no timestamp given, the SDK sends the time of the call as originalTimestamp (RudderStack's field), not timestamp.
      const sent = requests.flatMap((r) => JSON.parse(r.body).batch as Array<{ event: string; timestamp?: string; originalTimestamp: string }>)
      expect(sent.map((m) => [m.event, m.timestamp])).toEqual([
        ['First', undefined],
        ['Queued', undefined],
      ])
      await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String} AND user_id = {user:String}', { org: fl0.org.id, user: userId }, 2, 60_000)
      const rows = await fl0.query<{ event: string; original_timestamp: string | null }>(
        `SELECT event, toString(original_timestamp) AS original_timestamp FROM events
         WHERE org_id = {org:String} AND user_id = {user:String} ORDER BY event`,
        { org: fl0.org.id, user: userId },
      )
      // The SDK's originalTimestamp is the client's clock reading: stored as such, not replaced by the receipt time.
      for (const row of rows) {
        const m = sent.find((s) => s.event === row.event)!
        expect(row.original_timestamp === null ? null : Date.parse(`${row.original_timestamp}Z`)).toBe(Date.parse(m.originalTimestamp))
      }
    })
  }, TEST_TIMEOUT)
})

describe("Segment's Go library (github.com/segmentio/analytics-go/v3)", () => {
  clientTest('go', 'stores each call once with its fields', async () => {
    await recorded(async (url, requests) => {
      const out = await runClient(GO_CLIENT, [url, fl0.segment.write_key, 'go-segment'])
      expect(out.errors, describeRequests(requests)).toEqual([])
      expect(out.sent).toBe(TYPES.length)
      expectRequests(requests, '/v1/batch', undefined)
      expectCalls(await storedCalls('go-segment'), 'go-segment', { name: 'analytics-go', version: out.version as string })
    })
  })
})

describe("Segment's Java library (com.segment.analytics.java:analytics)", () => {
  clientTest('java', 'stores each call once with its fields, from /v1/import/ (with the slash)', async () => {
    await recorded(async (url, requests) => {
      const classpath = `${JAVA_CLASSES}:${join(CLIENTS_DIR, 'java/lib/*')}`
      const out = await runClient('java', ['-cp', classpath, 'Fl0JavaClient', url, fl0.segment.write_key, 'java-segment'])
      // The library posts to {endpoint}/v1/import/, with a trailing slash, uncompressed, with the
      // write key only as writeKey in the body (no Authorization header).
      expect(requests.length, describeRequests(requests)).toBeGreaterThan(0)
      for (const r of requests) {
        expect(r.path).toBe('/v1/import/')
        expect(r.headers.authorization).toBeUndefined()
        expect(JSON.parse(r.body).writeKey).toBe(fl0.segment.write_key)
      }
      expect(out.errors, describeRequests(requests)).toEqual([])
      expect(out.sent).toBe(TYPES.length)
      expectRequests(requests, '/v1/import/', undefined)
      expectCalls(await storedCalls('java-segment'), 'java-segment', { name: 'analytics-java', version: '3.5.4' })
    })
  })
})
