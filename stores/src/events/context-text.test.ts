import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import type { EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents, openStoreBefore, type StoreBefore } from './testing.ts'
import { contextText } from '@fl0/query'

/**
 * clickhouse/0012_context_text.sql on chDB: events stored with a JSON context
 * keep it, as JSON text, through the upgrade; new events store theirs as sent;
 * a context that is not an object is refused, as the JSON column refused it.
 * And 0013_context_places.sql after it: the places of the events stored
 * before, in their parts; and 0014_user_key.sql: their user keys.
 */
let at: StoreBefore
let store: EventStore

beforeAll(async () => {
  at = await openStoreBefore('0012', 'context_text')
  store = at.store
})
afterAll(() => at?.close())

const contexts = async () => {
  const r = await store.client.query({
    query: `SELECT message_id, context, toTypeName(context) AS type, JSONExtractString(context, 'location', 'city') AS city
            FROM events ORDER BY message_id`,
    format: 'JSONEachRow',
  })
  return (await r.json<{ message_id: string; context: string; type: string; city: string }>()).map((row) => ({ ...row, context: JSON.parse(row.context) }))
}

describe('events.context as text', () => {
  it('keeps the contexts stored before it, and stores new ones as sent', async () => {
    await at.migrateBefore()
    const old = { location: { city: 'Lyon', country: 'France' }, puid: 42, page: { url: 'https://a.test/x?y=1', title: 'Ünïcode “quotes”' }, timezone: 'Europe/Paris' }
    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'm1', context: old, user_id: 'u1' }), eventRow({ org_id: 'a', message_id: 'm2', context: {}, user_id: '' })])
    expect(await migrateEvents(store)).toEqual(['0012_context_text', '0013_context_places', '0014_user_key', '0015_event_keys_memtable', '0016_activity_spans', '0017_network_rules'])

    await insertEvents(store, [eventRow({ org_id: 'a', message_id: 'm3', context: { location: { city: 'Oslo' }, library: { name: 'analytics.js', version: '2.0' } }, user_id: 'u3' })])
    expect(await contexts()).toEqual([
      { message_id: 'm1', context: old, type: 'String', city: 'Lyon' },
      { message_id: 'm2', context: {}, type: 'String', city: '' },
      { message_id: 'm3', context: { location: { city: 'Oslo' }, library: { name: 'analytics.js', version: '2.0' } }, type: 'String', city: 'Oslo' },
    ])
    // 0013: the places of the events stored before it, written into their parts by the migration; a new row's from its context.
    const places = await store.client.query({
      query: `SELECT message_id, context_city, context_region, context_country, context_timezone FROM events ORDER BY message_id`,
      format: 'JSONEachRow',
    })
    expect(await places.json()).toEqual([
      { message_id: 'm1', context_city: 'Lyon', context_region: '', context_country: 'France', context_timezone: 'Europe/Paris' },
      { message_id: 'm2', context_city: '', context_region: '', context_country: '', context_timezone: '' },
      { message_id: 'm3', context_city: 'Oslo', context_region: '', context_country: '', context_timezone: '' },
    ])
    const parts = await store.client.query({
      query: `SELECT uniqExact(name) AS parts, uniqExactIf(name, column = 'context_timezone') AS with_places
              FROM system.parts_columns WHERE database = currentDatabase() AND table = 'events' AND active`,
      format: 'JSONEachRow',
    })
    const [{ parts: n, with_places }] = await parts.json<{ parts: string; with_places: string }>()
    expect(Number(n)).toBeGreaterThan(0)
    expect(with_places).toBe(n)

    // 0014: the user id's key, in the parts stored before it as in new ones; 0 for a row without a user id. SELECT * leaves it out.
    const keys = await store.client.query({
      query: `SELECT message_id, toString(events.user_key) AS key, events.user_key = cityHash64(user_id) AS hashed FROM events ORDER BY message_id`,
      format: 'JSONEachRow',
    })
    expect(await keys.json()).toEqual([
      { message_id: 'm1', key: expect.stringMatching(/^[1-9]\d*$/), hashed: 1 },
      { message_id: 'm2', key: '0', hashed: 0 },
      { message_id: 'm3', key: expect.stringMatching(/^[1-9]\d*$/), hashed: 1 },
    ])
    const keyed = await store.client.query({
      query: `SELECT uniqExact(name) AS parts, uniqExactIf(name, column = 'user_key') AS with_key
              FROM system.parts_columns WHERE database = currentDatabase() AND table = 'events' AND active`,
      format: 'JSONEachRow',
    })
    const [{ parts: all, with_key }] = await keyed.json<{ parts: string; with_key: string }>()
    expect(with_key).toBe(all)
    const star = await store.client.query({ query: `SELECT * FROM events LIMIT 1`, format: 'JSONEachRow' })
    expect(Object.keys((await star.json<Record<string, unknown>>())[0]!)).not.toContain('user_key')
  })

  it("reads a field as the JSON column did: text as it is, a number or boolean as written, '' when null or absent", async () => {
    await insertEvents(store, [
      eventRow({ org_id: 'fields', message_id: 'f1', context: { location: { city: 'Oslo' }, puid: 42, timezone: null, n: true } }),
      eventRow({ org_id: 'fields', message_id: 'f2', context: { location: { city: null } } }),
    ])
    const r = await store.client.query({
      query: `SELECT message_id, ${contextText('location', 'city')} AS city, ${contextText('puid')} AS puid, ${contextText('timezone')} AS tz, ${contextText('n')} AS n
              FROM events WHERE org_id = 'fields' ORDER BY message_id`,
      format: 'JSONEachRow',
    })
    expect(await r.json()).toEqual([
      { message_id: 'f1', city: 'Oslo', puid: '42', tz: '', n: 'true' },
      { message_id: 'f2', city: '', puid: '', tz: '', n: '' },
    ])
  })

  it('refuses a context that is not an object, so the writer sets that record aside', async () => {
    const line = JSON.stringify({ ...eventRow({ org_id: 'a', message_id: 'bad' }), context: [1] })
    const insert = store.client.exec({ query: 'INSERT INTO events FORMAT JSONEachRow', values: Readable.from([Buffer.from(line)], { objectMode: false }) })
    await expect(insert.then((r) => new Promise((resolve, reject) => r.stream.on('end', resolve).on('error', reject).resume()))).rejects.toThrow(/context_is_object/)
    expect((await contexts()).map((r) => r.message_id)).not.toContain('bad')
  })
})
