import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChdbHttp, type ChdbHttpServer } from './chdb-http.ts'
import { openEventStore, type EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents } from './testing.ts'

/**
 * The cluster's code path to the events store (@clickhouse/client over HTTP,
 * openEventStore kind 'http'), against ClickHouse's engine served over HTTP by
 * chDB: migrations, inserts, bound parameters of several types, and errors.
 */
describe('the events store over HTTP', () => {
  let dir: string
  let server: ChdbHttpServer
  let store: EventStore

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl0-chdb-http-'))
    server = await startChdbHttp({ path: dir })
    store = await openEventStore({ kind: 'http', url: server.url, database: 'over_http' })
  })
  afterAll(async () => {
    await store?.close()
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('migrates, and a second run applies nothing', async () => {
    expect(await migrateEvents(store)).toContain('0001_events')
    expect(await migrateEvents(store)).toEqual([])
  })

  it('binds parameters as the engine does: quotes, tabs and arrays stay data', async () => {
    const awkward = "o'1\t\\x"
    await insertEvents(store, [eventRow({ org_id: awkward, event: 'A' }), eventRow({ org_id: awkward, event: 'B' }), eventRow({ org_id: 'other', event: 'A' })])
    const result = await store.client.query({
      query: 'SELECT event, count() AS n FROM events WHERE org_id = {org:String} AND event IN {events:Array(String)} GROUP BY event ORDER BY event',
      query_params: { org: awkward, events: ['A', 'B'] },
      format: 'JSONEachRow',
    })
    // A server quotes 64-bit integers in JSON by default and chDB does not: callers read counts with Number().
    const rows = await result.json<{ event: string; n: string | number }>()
    expect(rows.map((r) => [r.event, Number(r.n)])).toEqual([
      ['A', 1],
      ['B', 1],
    ])
  })

  it('binds array parameters whose strings hold quotes and backslashes', async () => {
    const names = ["it's", 'back\\slash', 'plain']
    await insertEvents(store, names.map((event) => eventRow({ org_id: 'arrays', event })))
    const result = await store.client.query({
      query: 'SELECT event FROM events WHERE org_id = {org:String} AND event IN {names:Array(String)} ORDER BY event',
      query_params: { org: 'arrays', names },
      format: 'JSONEachRow',
    })
    expect((await result.json<{ event: string }>()).map((r) => r.event)).toEqual([...names].sort())
  })

  it('inserts a body of rows sent after the statement (exec), as the event writer does', async () => {
    await store.client.exec({ query: 'INSERT INTO events FORMAT JSONEachRow', values: Readable.from([`${JSON.stringify(eventRow({ org_id: 'exec', event: 'C' }))}\n`]) })
    const result = await store.client.query({ query: "SELECT count() AS n FROM events WHERE org_id = 'exec'", format: 'JSONEachRow' })
    expect(Number((await result.json<{ n: string | number }>())[0]!.n)).toBe(1)
  })

  it("answers ClickHouse's errors as ClickHouse does", async () => {
    await expect(store.client.query({ query: 'SELECT no_such_column FROM events', format: 'JSONEachRow' })).rejects.toMatchObject({
      type: 'UNKNOWN_IDENTIFIER',
      message: expect.stringContaining('no_such_column'),
    })
  })

  it('streams rows in chunks (streamRows), its parameters bound', async () => {
    let chunks = 0
    const seen: number[] = []
    for await (const rows of store.streamRows<[string, string]>('SELECT number, toString(number) FROM numbers({n:UInt64}) WHERE number % {m:UInt64} = 0', { n: 300_000, m: 3 }, 'JSONCompactEachRow')) {
      chunks++
      for (const [n, s] of rows) {
        expect(String(n)).toBe(s)
        seen.push(Number(n))
      }
    }
    expect(seen).toHaveLength(100_000)
    expect(seen.slice(0, 3)).toEqual([0, 3, 6])
    expect(chunks).toBeGreaterThan(1)
  })
})

/**
 * A migration's backfill on a large server runs for longer than a request may
 * take: the migrations have a client of their own (client.ts), which waits.
 * The store's own client here gives up after half a second; the migration's
 * statement takes two.
 */
describe('migrations over HTTP', () => {
  let dir: string
  let migrations: string
  let server: ChdbHttpServer
  let store: EventStore

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl0-chdb-http-slow-'))
    migrations = mkdtempSync(join(tmpdir(), 'fl0-migrations-slow-'))
    writeFileSync(join(migrations, '0001_slow_backfill.sql'), `${SLOW_BACKFILL};\n`)
    server = await startChdbHttp({ path: dir })
    store = await openEventStore({ kind: 'http', url: server.url, database: 'slow_http', requestTimeoutMs: 500 })
  })
  afterAll(async () => {
    await store?.close()
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(migrations, { recursive: true, force: true })
  })

  it("waits for a backfill longer than the store's request timeout, and records it once done", async () => {
    // The bound is real: the same statement through the store's own client fails.
    await expect(store.client.command({ query: SLOW_BACKFILL.replace('slow_backfill', 'slow_backfill_direct') })).rejects.toThrow(/timeout/i)

    expect(await migrateEvents(store, `${migrations}/`)).toEqual(['0001_slow_backfill'])
    // Read back through the migrations' client too: the store's own gives up after half a second, on a busy machine maybe even here.
    const filled = await store.migrations.query({ query: 'SELECT count() AS n FROM slow_backfill', format: 'JSONEachRow' })
    expect((await filled.json<{ n: string | number }>()).map((r) => Number(r.n))).toEqual([4])
    expect(await migrateEvents(store, `${migrations}/`)).toEqual([])
  })
})

/** Two seconds of work (four rows, half a second each), as a migration's backfill would be hours of it. */
const SLOW_BACKFILL = 'CREATE TABLE IF NOT EXISTS slow_backfill ENGINE = MergeTree ORDER BY n AS SELECT number AS n FROM numbers(4) WHERE NOT ignore(sleepEachRow(0.5))'
