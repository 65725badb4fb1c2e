import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'
import { eventRow, insertEvents, openStoreBefore, type StoreBefore } from './testing.ts'

/**
 * clickhouse/0004_identities_and_traits.sql on chDB: the backfill of events
 * stored before it, the views that keep both tables as events arrive after it,
 * and that reading them gives what reading `events` gives.
 */
let at: StoreBefore
let store: EventStore

const rows = <T>(query: string) => store.client.query({ query, format: 'JSONEachRow' }).then((r) => r.json<T>())

beforeAll(async () => {
  at = await openStoreBefore('0004', 'identities')
  store = at.store
})
afterAll(() => at?.close())

const identify = (user_id: string, anonymous_id: string, timestamp: string, traits: Record<string, unknown>) => eventRow({ org_id: 'o', type: 'identify', user_id, anonymous_id, timestamp, traits })
const page = (user_id: string, anonymous_id: string, timestamp: string) => eventRow({ org_id: 'o', type: 'page', user_id, anonymous_id, timestamp })

/** Each user trait's latest non-empty value per pair, read from `events` (the slow way) or from trait_calls. */
const latest = (from: 'events' | 'trait_calls') => `
  SELECT user_id, anonymous_id, argMaxIf(p, timestamp, p != '') AS plan
  FROM (SELECT user_id, anonymous_id, timestamp, toString(traits.plan) AS p FROM ${from} WHERE org_id = 'o' AND type = 'identify')
  GROUP BY user_id, anonymous_id ORDER BY user_id, anonymous_id`

describe('identity_pairs and trait_calls', () => {
  it('backfills the events stored before the migration', async () => {
    expect(await at.migrateBefore()).not.toContain('0004_identities_and_traits')
    await insertEvents(store, [
      page('', 'a1', '2026-03-01 09:00:00.000'),
      identify('u1', 'a1', '2026-03-01 10:00:00.000', { plan: 'free' }),
      page('u1', 'a1', '2026-03-01 11:00:00.000'),
      identify('u1', 'a1', '2026-03-02 10:00:00.000', { plan: 'free' }),
      identify('u1', 'a1', '2026-03-03 10:00:00.000', { plan: 'free' }),
      eventRow({ org_id: 'o', type: 'group', user_id: 'u1', group_id: 'g1', timestamp: '2026-03-01 10:00:00.000', traits: { name: 'Acme' } }),
    ])
    expect((await migrateEvents(store))[0]).toBe('0004_identities_and_traits')
    expect(await rows('SELECT user_id, anonymous_id, min(first_seen) AS first_seen, max(last_active) AS last_active FROM identity_pairs GROUP BY user_id, anonymous_id ORDER BY user_id')).toEqual([
      { user_id: '', anonymous_id: 'a1', first_seen: '2026-03-01 09:00:00.000', last_active: '2026-03-01 09:00:00.000' },
      { user_id: 'u1', anonymous_id: '', first_seen: '2026-03-01 10:00:00.000', last_active: '1970-01-01 00:00:00.000' },
      { user_id: 'u1', anonymous_id: 'a1', first_seen: '2026-03-01 10:00:00.000', last_active: '2026-03-01 11:00:00.000' },
    ])
    // The same traits three times: one row once merged, the latest call's time kept.
    await store.client.command({ query: 'OPTIMIZE TABLE trait_calls FINAL' })
    expect(await rows("SELECT user_id, timestamp, toString(traits.plan) AS plan FROM trait_calls WHERE type = 'identify'")).toEqual([
      { user_id: 'u1', timestamp: '2026-03-03 10:00:00.000', plan: 'free' },
    ])
    expect(await rows(latest('trait_calls'))).toEqual(await rows(latest('events')))
  })

  it('keeps up with events inserted after it, and says what `events` says (a repeat, a change, an empty value)', async () => {
    await insertEvents(store, [
      identify('u1', 'a1', '2026-03-04 10:00:00.000', { plan: 'pro' }),
      identify('u1', 'a1', '2026-03-05 10:00:00.000', { plan: '' }),
      identify('u1', 'a1', '2026-03-06 10:00:00.000', { plan: 'free' }),
      identify('u1', 'a1', '2026-03-07 10:00:00.000', { plan: 'pro' }),
      identify('', 'a2', '2026-03-04 10:00:00.000', { plan: 'trial' }),
      page('u2', '', '2026-03-08 10:00:00.000'),
    ])
    // Unmerged (no FINAL) and merged alike.
    expect(await rows(latest('trait_calls'))).toEqual(await rows(latest('events')))
    expect(await rows<{ plan: string }>(latest('trait_calls'))).toContainEqual({ user_id: 'u1', anonymous_id: 'a1', plan: 'pro' })
    await store.client.command({ query: 'OPTIMIZE TABLE trait_calls FINAL' })
    expect(await rows(latest('trait_calls'))).toEqual(await rows(latest('events')))
    const pairs = await rows<{ user_id: string; anonymous_id: string }>('SELECT DISTINCT user_id, anonymous_id FROM identity_pairs ORDER BY user_id, anonymous_id')
    expect(pairs).toEqual(await rows("SELECT DISTINCT user_id, anonymous_id FROM events WHERE org_id = 'o' ORDER BY user_id, anonymous_id"))
  })
})
