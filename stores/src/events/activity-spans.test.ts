import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents, openStoreBefore, type StoreBefore } from './testing.ts'

/**
 * clickhouse/0016_activity_spans.sql on chDB: the backfill of events stored
 * before it, the view that keeps the spans as events arrive after it, and
 * that visits counted over the spans are the visits counted over the events
 * (a new one after every gap of more than 30 minutes), at the half hours'
 * edges, across 1970, and with every event stored twice.
 */
let at: StoreBefore
let store: EventStore

const rows = <T>(query: string) => store.client.query({ query, format: 'JSONEachRow' }).then((r) => r.json<T>())

beforeAll(async () => {
  at = await openStoreBefore('0016', 'spans')
  store = at.store
})
afterAll(() => at?.close())

const GAP_MS = 30 * 60 * 1000
const call = (type: 'page' | 'track' | 'identify', user_id: string, anonymous_id: string, timestamp: string) =>
  eventRow({ org_id: 'o', type, user_id, anonymous_id, timestamp, ...(type === 'track' ? { event: 'Clicked' } : {}) })

/** Each pair's visits over its events, the rule as identity.ts states it (the list's query before 0016). */
const fromEvents = `
  SELECT user_id, anonymous_id, 1 + arrayCount(d -> d > ${GAP_MS}, arrayDifference(arraySort(groupArray(toUnixTimestamp64Milli(timestamp))))) AS visits
  FROM events WHERE org_id = 'o' AND type IN ('page', 'screen', 'track') GROUP BY user_id, anonymous_id ORDER BY user_id, anonymous_id`
/** The same over the spans' first and last moments, as api/src/people/list.ts counts them. */
const fromSpans = `
  SELECT user_id, anonymous_id, 1 + arrayCount(d -> d > ${GAP_MS}, arrayDifference(arraySort(arrayConcat(
    groupArray(toUnixTimestamp64Milli(first_at)), groupArray(toUnixTimestamp64Milli(last_at)))))) AS visits
  FROM activity_spans WHERE org_id = 'o' GROUP BY user_id, anonymous_id ORDER BY user_id, anonymous_id`

describe('activity_spans', () => {
  it('backfills the events stored before the migration, by half hour', async () => {
    expect(await at.migrateBefore()).not.toContain('0016_activity_spans')
    await insertEvents(store, [
      call('page', 'u1', '', '2026-03-01 08:00:00.000'),
      call('track', 'u1', '', '2026-03-01 08:29:59.999'),
      // 30 minutes to the millisecond after the last: the same visit, in the next half hour.
      call('page', 'u1', '', '2026-03-01 08:59:59.999'),
      // 30 minutes and a millisecond after it: a new visit.
      call('track', 'u1', '', '2026-03-01 09:30:00.000'),
      // An identify says who, not what: it does not join 09:30 to 10:20.
      call('identify', 'u1', '', '2026-03-01 09:55:00.000'),
      call('page', 'u1', '', '2026-03-01 10:20:00.000'),
      // Across 1970-01-01 00:00: 25 minutes apart, one visit.
      call('page', '', 'a-epoch', '1969-12-31 23:45:00.000'),
      call('page', '', 'a-epoch', '1970-01-01 00:10:00.000'),
    ])
    expect((await migrateEvents(store))[0]).toBe('0016_activity_spans')
    expect(await rows("SELECT user_id, anonymous_id, half_hour, min(first_at) AS first_at, max(last_at) AS last_at FROM activity_spans GROUP BY user_id, anonymous_id, half_hour ORDER BY user_id, half_hour")).toEqual([
      { user_id: '', anonymous_id: 'a-epoch', half_hour: -1, first_at: '1969-12-31 23:45:00.000', last_at: '1969-12-31 23:45:00.000' },
      { user_id: '', anonymous_id: 'a-epoch', half_hour: 0, first_at: '1970-01-01 00:10:00.000', last_at: '1970-01-01 00:10:00.000' },
      { user_id: 'u1', anonymous_id: '', half_hour: 984640, first_at: '2026-03-01 08:00:00.000', last_at: '2026-03-01 08:29:59.999' },
      { user_id: 'u1', anonymous_id: '', half_hour: 984641, first_at: '2026-03-01 08:59:59.999', last_at: '2026-03-01 08:59:59.999' },
      { user_id: 'u1', anonymous_id: '', half_hour: 984643, first_at: '2026-03-01 09:30:00.000', last_at: '2026-03-01 09:30:00.000' },
      { user_id: 'u1', anonymous_id: '', half_hour: 984644, first_at: '2026-03-01 10:20:00.000', last_at: '2026-03-01 10:20:00.000' },
    ])
    expect(await rows(fromSpans)).toEqual([
      { user_id: '', anonymous_id: 'a-epoch', visits: 1 },
      { user_id: 'u1', anonymous_id: '', visits: 3 },
    ])
    expect(await rows(fromSpans)).toEqual(await rows(fromEvents))
  })

  it('keeps up with events inserted after it, stored once or twice, and counts what the events count', async () => {
    // A day of a busy visitor: bursts and pauses of every length around 30 minutes, some over half hours' edges.
    const start = Date.UTC(2026, 2, 2, 7, 50)
    const pauses = [1, 29, 30, 31, 5, 45, 29.5, 30.5, 0.5, 60, 12, 30, 2, 90, 17]
    const times: string[] = []
    let at = start
    for (const minutes of pauses) {
      at += minutes * 60_000
      times.push(new Date(at).toISOString().replace('T', ' ').replace('Z', ''))
    }
    const day = times.map((time, i) => call(i % 3 === 0 ? 'track' : 'page', i % 4 === 0 ? 'u2' : '', 'a2', time))
    // A replayed bus stores every event a second time (the writer's filter aside): the spans do not change the count.
    await insertEvents(store, day)
    await insertEvents(store, day)
    await insertEvents(store, [call('page', 'u3', 'a3', '2026-03-02 12:00:00.000')])

    const counted = await rows<{ user_id: string; anonymous_id: string; visits: number }>(fromSpans)
    expect(counted).toEqual(await rows(fromEvents))
    expect(counted.find((r) => r.anonymous_id === 'a3')).toEqual({ user_id: 'u3', anonymous_id: 'a3', visits: 1 })
    // Unmerged parts and merged alike.
    await store.client.command({ query: 'OPTIMIZE TABLE activity_spans FINAL' })
    expect(await rows(fromSpans)).toEqual(counted)
  })
})
