import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createLogger, loadConfig, startFl0 } from '@fl0/server'
import { listSources } from '@fl0/stores'
import { createDemo, type DemoOptions } from './generator/index.ts'
import { assertNoRunningFl0, runDemo } from './run.ts'

/**
 * `npm run demo` end to end on a fresh data directory: fl0 embedded, the real
 * HTTP ingest, @segment/analytics-node, the event writer, chDB. The demo starts
 * and stops its own fl0; the checks open the same directory afterwards (one
 * data directory per process, one at a time).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'fl0-demo-test-'))
const config = loadConfig({ FL0_DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
const logger = createLogger('silent')
const options: DemoOptions = { seed: 5, companies: 20, people: 100, days: 7, now: new Date() }

afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('runDemo', () => {
  it('stores every generated call once, with its type, source and fields, and adds nothing on a rerun', async () => {
    const demo = createDemo(options)
    const expected = new Map<string, number>()
    let total = 0
    for (const { source, message } of demo.messages()) {
      const key = `${source}:${message.type}`
      expected.set(key, (expected.get(key) ?? 0) + 1)
      total++
    }
    expect(total).toBeGreaterThan(300)

    const first = await runDemo({ config, logger, demo: options })
    expect(first).toMatchObject({ url_code: 'demo', sent: total, events: total, org_events: total, run_id: demo.runId })
    expect(first.sources.map((s) => [s.type, s.name, s.url])).toEqual([
      ['snippet', 'js-snippet', 'demo.fl0.dev'],
      ['segment', 'segment', null],
    ])
    for (const s of first.sources) expect(s.write_key).toMatch(/^[A-Za-z0-9_-]{32}$/)

    const second = await runDemo({ config, logger, demo: options })
    expect(second).toMatchObject({ org_id: first.org_id, sources: first.sources, sent: 0, events: total, org_events: total })

    const fl0 = await startFl0({ ...config, PORT: 0, HOST: '127.0.0.1' }, logger)
    try {
      const query = async <T>(sql: string) => {
        const result = await fl0.stores.events!.client.query({ query: sql, query_params: { org: first.org_id }, format: 'JSONEachRow' })
        return result.json<T>()
      }
      const sources = await listSources(fl0.stores.metadata!, first.org_id)
      const kindOf = new Map(sources.map((s) => [s.id, s.type]))

      const rows = await query<{ type: string; source_id: string; n: string }>(
        'SELECT type, source_id, count() AS n FROM events WHERE org_id = {org:String} GROUP BY type, source_id',
      )
      const stored = new Map(rows.map((r) => [`${kindOf.get(r.source_id)}:${r.type}`, Number(r.n)]))
      expect(stored).toEqual(expected)

      const [{ ids, n }] = await query<{ ids: string; n: string }>('SELECT uniqExact(message_id) AS ids, count() AS n FROM events WHERE org_id = {org:String}')
      expect(Number(ids)).toBe(total)
      expect(Number(n)).toBe(total)

      const generated = new Map([...demo.messages()].map((m) => [m.message.messageId, m.message]))
      const sample = await query<Record<string, string>>(
        `SELECT message_id, type, event, user_id, anonymous_id, group_id, toString(timestamp) AS ts, ip, user_agent, page_url, page_path,
                JSONExtractString(context, 'puid') AS puid, toString(traits.email) AS email, toString(traits.company) AS company, toString(traits.plan) AS plan
         FROM events WHERE org_id = {org:String} ORDER BY message_id LIMIT 300`,
      )
      for (const row of sample) {
        const m = generated.get(row.message_id)!
        expect(m).toBeDefined()
        expect(row.type).toBe(m.type)
        expect(row.user_id).toBe(m.userId ?? '')
        expect(row.anonymous_id).toBe(m.anonymousId ?? '')
        expect(row.ip).toBe(m.context.ip)
        // analytics-node stamps sentAt as it sends; the clock correction keeps the call's time to within the send latency.
        expect(Math.abs(Date.parse(`${row.ts}Z`) - Date.parse(m.timestamp))).toBeLessThan(10_000)
        if (m.type === 'track') expect(row.event).toBe(m.event)
        if (m.type === 'group') expect(row.group_id).toBe(m.groupId)
        if (m.type === 'page') {
          expect(row.page_url).toBe((m.context.page as { url: string }).url)
          expect(row.puid).toBe(m.context.puid)
          expect(row.user_agent).toBe(m.context.userAgent)
        }
        if (m.type === 'identify') expect(row.email).toBe(m.traits!.email)
        if (m.type === 'group') expect(row.plan).toBe(m.traits!.plan)
      }
    } finally {
      await fl0.stop()
    }
  })
})

describe('assertNoRunningFl0', () => {
  const listen = (handler: Parameters<typeof createServer>[1]) =>
    new Promise<Server>((resolve) => {
      const server = createServer(handler)
      server.listen(0, '127.0.0.1', () => resolve(server))
    })
  const portOf = (s: Server) => (s.address() as AddressInfo).port

  it('refuses when fl0 answers /healthz on the port', async () => {
    const server = await listen((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ ok: true, roles: ['ingest', 'workers', 'api'] }))
    })
    try {
      await expect(assertNoRunningFl0(portOf(server))).rejects.toThrow(/already running on port \d+\. Stop it first/)
    } finally {
      server.close()
    }
  })

  it('refuses too when that fl0 answers /healthz with 503, its bus log stopped: it still holds the data directory', async () => {
    const server = await listen((_req, res) => {
      res.statusCode = 503
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ ok: false, roles: ['ingest', 'workers', 'api'], error: 'bus_stopped', message: 'The event bus stopped after a failed write: restart fl0 to recover it' }))
    })
    try {
      await expect(assertNoRunningFl0(portOf(server))).rejects.toThrow(/already running on port \d+\. Stop it first/)
    } finally {
      server.close()
    }
  })

  it('lets the demo run when nothing, or something else, listens there', async () => {
    const other = await listen((_req, res) => {
      res.statusCode = 404
      res.end('not here')
    })
    const port = portOf(other)
    try {
      await expect(assertNoRunningFl0(port)).resolves.toBeUndefined()
    } finally {
      await new Promise((r) => other.close(r))
    }
    await expect(assertNoRunningFl0(port)).resolves.toBeUndefined()
  })
})
