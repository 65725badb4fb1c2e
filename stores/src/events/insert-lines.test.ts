import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { Readable } from 'node:stream'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChdbHttp, type ChdbHttpServer } from './chdb-http.ts'
import { openEventStore, type EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow } from './testing.ts'

/**
 * EventStore.insertLines, the writers' bulk insert: in chDB its raw insert
 * (the lines' bytes handed to the engine), over HTTP the statement with the
 * lines as its body. Both store what they are given, scope their settings to
 * the one insert, and refuse as client.exec refuses, with ClickHouse's error type.
 */
const line = (row: object) => JSON.stringify(row)
// chDB takes one data directory a process: both suites use this one, each its own database.
const dir = mkdtempSync(join(tmpdir(), 'fl0-insert-lines-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function suite(name: string, open: (dir: string) => Promise<{ store: EventStore; close: () => Promise<void> }>) {
  describe(`insertLines ${name}`, () => {
    let store: EventStore
    let close: () => Promise<void>
    const count = async (org: string) => {
      const r = await store.client.query({ query: 'SELECT count() AS n FROM events WHERE org_id = {org:String}', query_params: { org }, format: 'JSONEachRow' })
      return Number((await r.json<{ n: string | number }>())[0]!.n)
    }

    beforeAll(async () => {
      ;({ store, close } = await open(dir))
      await migrateEvents(store)
    })
    afterAll(() => close?.())

    it('stores the lines as sent, text outside ASCII included, from the store and its background alike', async () => {
      const title = 'Ünïcode “quotes” 日本 \u{1F600} \\ "'
      await store.insertLines('events', [line(eventRow({ org_id: 'lines', message_id: 'a', page_title: title })), line(eventRow({ org_id: 'lines', message_id: 'b' }))])
      await store.background.insertLines('events', [line(eventRow({ org_id: 'lines', message_id: 'c' }))])
      await store.insertLines('events', [])
      const r = await store.client.query({ query: "SELECT message_id, page_title FROM events WHERE org_id = 'lines' ORDER BY message_id", format: 'JSONEachRow' })
      expect(await r.json()).toEqual([
        { message_id: 'a', page_title: title },
        { message_id: 'b', page_title: '' },
        { message_id: 'c', page_title: '' },
      ])
    })

    it('stores lines of values alone (JSONCompactEachRow) in the columns named, in their order', async () => {
      const columns = ['org_id', 'message_id', 'type', 'page_title', 'timestamp', 'received_at', 'context']
      const at = '2026-03-01 12:00:00.000'
      await store.background.insertLines('events', [JSON.stringify(['compact', 'm2', 'track', 'Two', at, at, '{}']), JSON.stringify(['compact', 'm1', 'page', 'Ünïcode "one"', at, at, '{}'])], { columns, format: 'JSONCompactEachRow' })
      const r = await store.client.query({ query: "SELECT message_id, type, page_title FROM events WHERE org_id = 'compact' ORDER BY message_id", format: 'JSONEachRow' })
      expect(await r.json()).toEqual([
        { message_id: 'm1', type: 'page', page_title: 'Ünïcode "one"' },
        { message_id: 'm2', type: 'track', page_title: 'Two' },
      ])
    })

    it('stores every line of a batch larger than it encodes in one turn, none lost or doubled at the seams', async () => {
      const ids = Array.from({ length: 4_501 }, (_, i) => `big-${String(i).padStart(5, '0')}`)
      await store.background.insertLines('events', ids.map((id) => line(eventRow({ org_id: 'big', message_id: id }))))
      const r = await store.client.query({ query: "SELECT message_id FROM events WHERE org_id = 'big' ORDER BY message_id", format: 'JSONEachRow' })
      expect((await r.json<{ message_id: string }>()).map((row) => row.message_id)).toEqual(ids)
    })

    it('fills the columns named, and its settings hold for that insert alone', async () => {
      const badTime = (id: string) => line({ ...eventRow({ org_id: 'settings', message_id: id }), timestamp: 'not a time' })
      // Errors allowed for this insert: the bad row is skipped, the good one stored.
      await store.background.insertLines('events', [line(eventRow({ org_id: 'settings', message_id: 's1' })), badTime('s2')], { settings: { input_format_allow_errors_ratio: 1 } })
      expect(await count('settings')).toBe(1)
      // Had the setting stayed on the session, these would be let through too.
      await expect(store.background.insertLines('events', [badTime('s3')])).rejects.toMatchObject({ type: 'CANNOT_PARSE_DATETIME' })
      const viaExec = await store.background.client
        .exec({ query: 'INSERT INTO events FORMAT JSONEachRow', values: Readable.from([badTime('s4')]) })
        .then(
          () => 'stored',
          () => 'refused',
        )
      expect(viaExec).toBe('refused')
      expect(await count('settings')).toBe(1)

      // Only the columns named are filled: a field of another column in the line is left out, and that column takes its default.
      await store.background.client.command({ query: "CREATE TABLE IF NOT EXISTS named_columns (a String, b String DEFAULT 'default', c UInt8) ENGINE = Memory" })
      await store.background.insertLines('named_columns', [line({ a: 'x', b: 'sent', c: 1 })], { columns: ['a', 'c'] })
      await store.background.insertLines('named_columns', [line({ a: 'y', b: 'sent', c: 2 })])
      const r = await store.client.query({ query: 'SELECT a, b, c FROM named_columns ORDER BY a', format: 'JSONEachRow' })
      expect(await r.json()).toEqual([
        { a: 'x', b: 'default', c: 1 },
        { a: 'y', b: 'sent', c: 2 },
      ])
    })

    it("refuses a batch as ClickHouse does, naming the error's type, and stores none of it", async () => {
      const good = line(eventRow({ org_id: 'refused', message_id: 'r1' }))
      const notAnObject = line({ ...eventRow({ org_id: 'refused', message_id: 'r2' }), context: '[1]' })
      await expect(store.background.insertLines('events', [good, notAnObject])).rejects.toMatchObject({ type: 'VIOLATED_CONSTRAINT', message: expect.stringContaining('context_is_object') })
      await expect(store.background.insertLines('no_such_table', [good])).rejects.toMatchObject({ type: 'UNKNOWN_TABLE' })
      expect(await count('refused')).toBe(0)
    })
  })
}

suite('in chDB', async (dir) => {
  const store = await openEventStore({ kind: 'chdb', path: dir, database: 'insert_lines' })
  return { store, close: () => store.close() }
})

suite('over HTTP', async (dir) => {
  const server: ChdbHttpServer = await startChdbHttp({ path: dir })
  const store = await openEventStore({ kind: 'http', url: server.url, database: 'insert_lines_http' })
  return {
    store,
    close: async () => {
      await store.close()
      await server.close()
    },
  }
})
