import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readdirSync } from 'node:fs'
import type { EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents, openStoreBefore, type StoreBefore } from './testing.ts'

/**
 * clickhouse/0008_event_keys.sql on chDB: the keys of events stored before it
 * are backfilled, the view keeps the keys of events inserted after it, a key
 * written twice is there once, and event_ids is gone; after 0015, an insert's
 * keys go to RocksDB's log and memory, not to a file of their own. And the store refuses
 * clickhouse_settings, which chDB would leave set on its session for every later query.
 */
let at: StoreBefore
let store: EventStore

const keys = () =>
  store.client
    .query({ query: 'SELECT key FROM event_keys ORDER BY key', format: 'JSONCompactEachRow' })
    .then((r) => r.json<[string]>())
    .then((rows) => rows.map(([key]) => key.replace('\u0000', ' ')))

beforeAll(async () => {
  at = await openStoreBefore('0008', 'event_keys')
  store = at.store
})
afterAll(() => at?.close())

describe('event_keys', () => {
  it('backfills the keys of events stored before it, then follows every insert, once per key; event_ids goes', async () => {
    await at.migrateBefore()
    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'old-1' }), eventRow({ org_id: 'a', message_id: 'old-2' }), eventRow({ org_id: 'b', message_id: 'old-1' })])
    expect((await migrateEvents(store))[0]).toBe('0008_event_keys')
    expect(await keys()).toEqual(['a old-1', 'a old-2', 'b old-1'])

    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'new-1', timestamp: '2299-12-31 23:59:59.999' })])
    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'new-1', timestamp: '1900-01-01 00:00:00.000' })])
    expect(await keys()).toEqual(['a new-1', 'a old-1', 'a old-2', 'b old-1'])
    const tables = await store.client.query({ query: "SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'event_ids%'", format: 'JSONEachRow' })
    expect(await tables.json()).toEqual([])
  })

  it('takes an insert\'s keys into its log and memory (0015), not into a file of their own to compact with the stored keys', async () => {
    // With optimize_for_bulk_insert (EmbeddedRocksDB's default) each insert became a file of its own, overlapping every
    // stored key, and RocksDB compacted them with the whole table: at ten million events, 108 MB written in 50 s.
    const dir = await store.client
      .query({ query: "SELECT data_paths[1] AS dir FROM system.tables WHERE database = currentDatabase() AND name = 'event_keys'", format: 'JSONEachRow' })
      .then((r) => r.json<{ dir: string }>())
      .then((rows) => rows[0]!.dir)
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.sst')).sort()
    const stored = files()
    expect(stored.length).toBeGreaterThan(0) // the backfill's file: the directory is the table's
    for (let batch = 0; batch < 12; batch++) {
      await insertEvents(store, Array.from({ length: 50 }, (_, i) => eventRow({ org_id: 'c', message_id: `m-${batch}-${i}` })))
    }
    expect(files()).toEqual(stored)
    const found = await store.client.query({ query: "SELECT count() AS n FROM event_keys WHERE key IN {keys:Array(String)}", query_params: { keys: ['c\u0000m-0-0', 'c\u0000m-11-49', 'a\u0000old-1', 'c\u0000m-12-0'] }, format: 'JSONEachRow' })
    expect(await found.json()).toEqual([{ n: 3 }])
    expect(await keys()).toHaveLength(4 + 12 * 50)
  })

  it('refuses clickhouse_settings on chDB, so that none can stick to the session', async () => {
    expect(() => store.client.query({ query: 'SELECT 1', clickhouse_settings: { input_format_allow_errors_ratio: 1 } })).toThrow(/put SETTINGS in the statement/)
    const r = await store.client.query({ query: "SELECT value FROM system.settings WHERE name = 'input_format_allow_errors_ratio'", format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ value: '0' }])
  })
})
