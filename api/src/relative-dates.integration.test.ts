import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOrganisationByUrlCode, saveOrgSettings } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import type { AudienceResults, MetricGraph } from '@fl0/contracts'
import { createTestApi, type TestApi } from './testing.ts'

/**
 * One meaning of a trait filter, and of a relative date, on both paths that
 * filter people by a trait: a metric's audience traits (the unique users of
 * its graph) and an audience (its members), on the same stored events.
 *
 * "In the last 1 day" and "in the last 1 month" count on the organisation's
 * calendar, in its zone (Europe/Paris), as users of an analytics tool read
 * them: now is 2026-03-29 22:00 UTC, 00:00 on the 30th in Paris, the night
 * after the clocks went forward. A calendar day back is the 29th at 00:00
 * Paris (23:00 UTC on the 28th, 23 hours); a calendar month back is 28
 * February 00:00 Paris (27 Feb 23:00 UTC), not 30 × 24 hours. Each person's
 * `signup` sits where the two readings disagree:
 *
 * | user         | signup (UTC)      | last 1 day | last 1 month |
 * |--------------|-------------------|------------|--------------|
 * | today        | 2026-03-29 12:00  | yes        | yes          |
 * | only-24h     | 2026-03-28 22:30  | no (24 h would say yes) | yes |
 * | early-march  | 2026-03-01 00:00  | no         | yes          |
 * | only-30-days | 2026-02-27 22:30  | no         | no (30 days would say yes) |
 * | a-day        | "2026-02-28"      | no         | yes (that day in Paris starts at the month's start) |
 */
let t: TestApi
let cookie: string
const NOW = new Date('2026-03-29T22:00:00Z')
const SIGNUPS: Record<string, string> = {
  today: '2026-03-29T12:00:00Z',
  'only-24h': '2026-03-28T22:30:00Z',
  'early-march': '2026-03-01T00:00:00Z',
  'only-30-days': '2026-02-27T22:30:00Z',
  'a-day': '2026-02-28',
}

beforeAll(async () => {
  t = await createTestApi()
  t.clock.now = NOW
  ;({ cookie } = await t.signUp('Ada'))
  await t.createOrg(cookie, 'Calendar')
  const org = (await findOrganisationByUrlCode(t.sql, 'calendar'))!.id
  await saveOrgSettings(t.sql, org, { timezone: 'Europe/Paris', company_paths: [] })
  const at = (iso: string) => iso.replace('T', ' ').replace('Z', '')
  await insertEvents(
    t.events,
    Object.entries(SIGNUPS).flatMap(([user, signup]) => [
      eventRow({ org_id: org, type: 'identify', user_id: user, timestamp: at('2026-03-20T10:00:00Z'), traits: { signup } }),
      eventRow({ org_id: org, type: 'track', user_id: user, event: 'Logged In', timestamp: at('2026-03-28T10:00:00Z') }),
    ]),
  )
})
afterAll(() => t?.close())

async function metricUsers(value: [string, string]): Promise<number> {
  const res = await t.call('POST', '/api-v2/orgs/calendar/metrics/graph', {
    cookie,
    body: { events: [{ name: 'Logged In' }], dateRange: 'last7Days', graphType: 'metric', audience: { traits: [{ name: 'signup', operation: 'last', value }] } },
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as MetricGraph).header.value as number
}

async function audienceMembers(value: string, unit: string): Promise<string[]> {
  const filters = { match_aggregation: 'and', matches: [{ kind: 'user', trait: 'signup', date_op: 'last', value, unit }], action_aggregation: 'and', actions: [] }
  const res = await t.call('POST', '/api/orgs/calendar/audiences/filters', { cookie, body: { filters, page: 1 } })
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as AudienceResults).users.map((u) => u.userId).sort()
}

describe('a relative date means one thing in a metric and in an audience', () => {
  it.each([
    ['day', ['today']],
    ['month', ['a-day', 'early-march', 'only-24h', 'today']],
  ])('"signup in the last 1 %s" counts the calendar %s in the organisation zone, on both paths', async (unit, expected) => {
    expect(await audienceMembers('1', unit)).toEqual(expected)
    expect(await metricUsers(['1', unit])).toBe(expected.length)
  })
})
