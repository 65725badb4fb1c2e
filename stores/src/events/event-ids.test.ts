import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openEventStore, type EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents } from './testing.ts'

/**
 * clickhouse/0005_event_ids.sql on chDB: the ids of events stored before it are
 * backfilled, the view keeps the ids of events inserted after it, and a row
 * inserted twice leaves one id. And the store refuses clickhouse_settings, which
 * chDB would leave set on its session for every later query.
 */
const MIGRATIONS = fileURLToPath(new URL('../../../clickhouse/', import.meta.url))
let store: EventStore
let dataDir: string
let before: string

const ids = (org: string) =>
  store.client
    .query({ query: 'SELECT DISTINCT message_id FROM event_ids WHERE org_id = {org:String} ORDER BY message_id', query_params: { org }, format: 'JSONEachRow' })
    .then((r) => r.json<{ message_id: string }>())
    .then((rows) => rows.map((r) => r.message_id))

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fl0-event-ids-'))
  before = mkdtempSync(join(tmpdir(), 'fl0-migrations-'))
  for (const f of readdirSync(MIGRATIONS).filter((f) => /^\d{4}_/.test(f) && f < '0005')) copyFileSync(join(MIGRATIONS, f), join(before, f))
  store = await openEventStore({ kind: 'chdb', path: dataDir, database: 'event_ids' })
})
afterAll(async () => {
  await store?.close()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(before, { recursive: true, force: true })
})

describe('event_ids', () => {
  it('backfills the ids of events stored before it, then follows every insert, once per id', async () => {
    await migrateEvents(store, `${before}/`)
    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'old-1' }), eventRow({ org_id: 'a', message_id: 'old-2' }), eventRow({ org_id: 'b', message_id: 'old-1' })])
    expect((await migrateEvents(store))[0]).toBe('0005_event_ids')
    expect(await ids('a')).toEqual(['old-1', 'old-2'])
    expect(await ids('b')).toEqual(['old-1'])

    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'new-1', timestamp: '2299-12-31 23:59:59.999' })])
    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'new-1', timestamp: '1900-01-01 00:00:00.000' })])
    expect(await ids('a')).toEqual(['new-1', 'old-1', 'old-2'])
    await store.client.command({ query: 'OPTIMIZE TABLE event_ids FINAL' })
    const r = await store.client.query({ query: "SELECT count() AS n FROM event_ids WHERE org_id = 'a' AND message_id = 'new-1'", format: 'JSONEachRow' })
    expect(Number((await r.json<{ n: string }>())[0].n)).toBe(1)
  })

  it('refuses clickhouse_settings on chDB, so that none can stick to the session', async () => {
    expect(() => store.client.query({ query: 'SELECT 1', clickhouse_settings: { input_format_allow_errors_ratio: 1 } })).toThrow(/put SETTINGS in the statement/)
    const r = await store.client.query({ query: "SELECT value FROM system.settings WHERE name = 'input_format_allow_errors_ratio'", format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ value: '0' }])
  })
})
