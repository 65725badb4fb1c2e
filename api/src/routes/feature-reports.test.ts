import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveOrgSettings } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { FEATURE_REPORT_QUERIES, type FeatureQueryResult, type FeatureReportKey } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The Feature Analysis report's queries (spec part 3 §7) on PGlite and chDB,
 * against answers counted by hand from the table below. Now is Monday
 * 2026-03-02 09:00 UTC; the organisation counts in UTC unless a test says.
 * The ranges: today 03-02; 7 days 02-24…03-02; 30 days 02-01…03-02; the
 * year 2025-03-03…2026-03-02 (monthly periods 2025-03…2026-03).
 *
 *   #   who     event            when (UTC)          in
 *   1   ada     Report Created   2026-03-02 08:00    today
 *   2   ada     Report Shared    2026-03-02 08:30    today
 *   3   bob     Report Created   2026-03-02 01:00    today (in New York: 03-01 20:00)
 *   4   cyd     Page Scrolled    2026-03-02 07:00    today, not the feature
 *   5   ada     Report Created   2026-02-27 10:00    7 days
 *   6   cyd     Report Shared    2026-02-25 12:00    7 days
 *   7   dan     Report Created   2026-02-23 12:00    30 days, not 7
 *   8   anon-1  Report Created   2026-02-10 12:00    30 days (anonymous: a person of its own)
 *   9   dan     Page Scrolled    2026-02-26 12:00    7 days, not the feature
 *  10   eve     Page Scrolled    2026-02-28 12:00    7 days, not the feature
 *  11   bob     Report Created   2025-12-15 12:00    the year
 *  12   cyd     Report Created   2025-03-05 12:00    the year's first month
 *  --   ada     Report Created   2025-03-01 12:00    before the year (its month is cut by the range)
 *  --   ada     Report Created   2026-03-02 10:00    after now
 *  --   ada     Report Created   today, another organisation
 *  --   ada     a page view and an identify today: not track events
 *
 * Companies (latest group call): ada and bob in acme-co, cyd in globex; dan,
 * anon-1 and eve in none, so company numbers leave them out.
 */
let t: TestApi
let cookie: string
let stranger: string
let orgId: string
let featureId: string
let emptyFeatureId: string

const at = (iso: string) => new Date(iso)
const track = (who: string, event: string, when: string, org = () => orgId) =>
  eventRow({ org_id: org(), type: 'track', event, timestamp: at(when), ...(who.startsWith('anon') ? { anonymous_id: who } : { user_id: who, anonymous_id: `a-${who}` }) })

beforeAll(async () => {
  t = await createTestApi()
  t.clock.now = at('2026-03-02T09:00:00.000Z')
  ;({ cookie, orgId } = await t.signUpWithOrg('Ada', 'Acme'))
  const elsewhere = await t.signUpWithOrg('Eve', 'Elsewhere')
  stranger = elsewhere.cookie
  const otherId = elsewhere.orgId
  const group = (who: string, company: string) => eventRow({ org_id: orgId, type: 'group', user_id: who, anonymous_id: `a-${who}`, group_id: company, timestamp: at('2025-01-01T00:00:00Z') })
  await insertEvents(t.events, [
    track('ada', 'Report Created', '2026-03-02T08:00:00Z'),
    track('ada', 'Report Shared', '2026-03-02T08:30:00Z'),
    track('bob', 'Report Created', '2026-03-02T01:00:00Z'),
    track('cyd', 'Page Scrolled', '2026-03-02T07:00:00Z'),
    track('ada', 'Report Created', '2026-02-27T10:00:00Z'),
    track('cyd', 'Report Shared', '2026-02-25T12:00:00Z'),
    track('dan', 'Report Created', '2026-02-23T12:00:00Z'),
    track('anon-1', 'Report Created', '2026-02-10T12:00:00Z'),
    track('dan', 'Page Scrolled', '2026-02-26T12:00:00Z'),
    track('eve', 'Page Scrolled', '2026-02-28T12:00:00Z'),
    track('bob', 'Report Created', '2025-12-15T12:00:00Z'),
    track('cyd', 'Report Created', '2025-03-05T12:00:00Z'),
    track('ada', 'Report Created', '2025-03-01T12:00:00Z'),
    track('ada', 'Report Created', '2026-03-02T10:00:00Z'),
    track('ada', 'Report Created', '2026-03-02T08:00:00Z', () => otherId),
    eventRow({ org_id: orgId, type: 'page', user_id: 'ada', name: 'Reports', timestamp: at('2026-03-02T08:10:00Z') }),
    eventRow({ org_id: orgId, type: 'identify', user_id: 'ada', timestamp: at('2026-03-02T08:11:00Z') }),
    group('ada', 'acme-co'),
    group('bob', 'acme-co'),
    group('cyd', 'globex'),
  ])
  const create = async (name: string, events: string[]) => {
    const res = await t.call('POST', '/api-v2/orgs/acme/features', { cookie, body: { name, events } })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: string }).id
  }
  featureId = await create('Reporting', ['Report Created', 'Report Shared'])
  emptyFeatureId = await create('Nothing yet', [])
})
afterAll(() => t?.close())

const query = async (body: unknown, id = featureId, who = cookie) => {
  const res = await t.call('POST', `/api-v2/orgs/acme/features/${id}/data/query`, { cookie: who, body })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as FeatureQueryResult
}

/** 30 days from 02-01 to 03-02, zero except on the given days; today (the last) not over yet. */
const days30 = (points: Record<string, number>) => {
  const labels = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 1, 1 + i)).toISOString().slice(0, 10))
  return { labels, data: labels.map((l) => points[l] ?? 0), partial: [29] }
}
/** 13 months from 2025-03 to 2026-03; the first cut by the year's first day (2025-03-03), the last not over yet. */
const months13 = (points: Record<string, number>) => {
  const labels = Array.from({ length: 13 }, (_, i) => new Date(Date.UTC(2025, 2 + i, 1)).toISOString().slice(0, 10))
  return { labels, data: labels.map((l) => points[l] ?? 0), partial: [0, 12] }
}
const number = (value: number, outOf: number) => ({ currentValue: { value, outOf } })
const line = (name: string, points: { labels: string[]; data: number[]; partial?: number[] }) => ({
  graph: { type: 'line', layout: 'stacked', header: { name }, data: { labels: points.labels, datasets: [{ label: name, data: points.data }], ...(points.partial ? { partial: points.partial } : {}) } },
})

describe("the Feature Analysis report's ten queries, by hand", () => {
  const users: Record<FeatureReportKey, unknown> = {
    activeToday: number(2, 3), // ada, bob of ada, bob, cyd
    active7Days: number(3, 5), // ada, bob, cyd of those and dan, eve
    active30Days: number(5, 6), // + dan, anon-1 of those and eve
    activeYear: number(5, 6),
    usesToday: number(3, 4), // #1-3 of #1-4
    uses7Days: number(5, 8), // #1-3, 5, 6 of those and #4, 9, 10
    dailyActive: line('Unique users', days30({ '2026-02-10': 1, '2026-02-23': 1, '2026-02-25': 1, '2026-02-27': 1, '2026-03-02': 2 })),
    dailyUses: line('Total events', days30({ '2026-02-10': 1, '2026-02-23': 1, '2026-02-25': 1, '2026-02-27': 1, '2026-03-02': 3 })),
    monthlyActive: line('Unique users', months13({ '2025-03-01': 1, '2025-12-01': 1, '2026-02-01': 4, '2026-03-01': 2 })),
    monthlyUses: line('Total events', months13({ '2025-03-01': 1, '2025-12-01': 1, '2026-02-01': 4, '2026-03-01': 3 })),
  }
  const companies: Record<FeatureReportKey, unknown> = {
    activeToday: number(1, 2), // acme-co of acme-co, globex
    active7Days: number(2, 2),
    active30Days: number(2, 2),
    activeYear: number(2, 2),
    usesToday: number(3, 4),
    uses7Days: number(5, 6), // dan's and eve's events belong to no company
    dailyActive: line('Unique companies', days30({ '2026-02-25': 1, '2026-02-27': 1, '2026-03-02': 1 })),
    dailyUses: line('Total events', days30({ '2026-02-25': 1, '2026-02-27': 1, '2026-03-02': 3 })),
    monthlyActive: line('Unique companies', months13({ '2025-03-01': 1, '2025-12-01': 1, '2026-02-01': 2, '2026-03-01': 1 })),
    monthlyUses: line('Total events', months13({ '2025-03-01': 1, '2025-12-01': 1, '2026-02-01': 2, '2026-03-01': 3 })),
  }

  it.each(FEATURE_REPORT_QUERIES.map((q) => [q.key, q.query] as const))('users: %s', async (key, q) => {
    expect(await query({ audienceType: 'user', ...q })).toEqual(users[key])
  })

  it.each(FEATURE_REPORT_QUERIES.map((q) => [q.key, q.query] as const))('companies: %s', async (key, q) => {
    expect(await query({ audienceType: 'company', ...q })).toEqual(companies[key])
  })

  it('answers all ten sent at once, as the report sends them', async () => {
    const answers = await Promise.all(FEATURE_REPORT_QUERIES.map((q) => query({ audienceType: 'user', ...q.query })))
    expect(answers).toEqual(FEATURE_REPORT_QUERIES.map((q) => users[q.key]))
  })
})

describe('POST /api-v2/orgs/{organization}/features/{featureId}/data/query', () => {
  it('defaults to unique users over the last 7 days', async () => {
    expect(await query({})).toEqual(number(3, 5))
  })

  it('draws the last day as a one-point line of today', async () => {
    expect(await query({ dateRange: 'lastDay', graphType: 'line' })).toEqual(line('Unique users', { labels: ['2026-03-02'], data: [2] }))
  })

  it('counts a feature of more events than a metric may have (a feature holds up to 100)', async () => {
    const many = ['Report Created', ...Array.from({ length: 29 }, (_, i) => `Unused ${i + 1}`), 'Report Shared']
    const res = await t.call('POST', '/api-v2/orgs/acme/features', { cookie, body: { name: 'Reporting, long-hand', events: many } })
    expect(res.status).toBe(201)
    const id = ((await res.json()) as { id: string }).id
    const active7Days = FEATURE_REPORT_QUERIES.find((q) => q.key === 'active7Days')!.query
    expect(await query({ audienceType: 'user', ...active7Days }, id)).toEqual({ currentValue: { value: 3, outOf: 5 } }) // as for 'Reporting'
  })

  it('counts nothing for a feature without events, against everything that happened', async () => {
    expect(await query({ measureBy: 'total', dateRange: 'last7Days' }, emptyFeatureId)).toEqual(number(0, 8))
    expect(await query({ graphType: 'line', dateRange: 'last30Days' }, emptyFeatureId)).toMatchObject({ graph: { type: 'line', data: { datasets: [] } } })
  })

  it("counts days in the organisation's time zone", async () => {
    // 09:00 UTC is 04:00 in New York: bob's 01:00 UTC is yesterday evening there.
    await saveOrgSettings(t.sql, orgId, { timezone: 'America/New_York', company_paths: [] })
    try {
      expect(await query({ dateRange: 'lastDay' })).toEqual(number(1, 2))
    } finally {
      await saveOrgSettings(t.sql, orgId, { timezone: 'UTC', company_paths: [] })
    }
  })

  it('refuses what the report never asks, naming the field', async () => {
    const res = await t.call('POST', `/api-v2/orgs/acme/features/${featureId}/data/query`, { cookie, body: { dateRange: 'last3Months' } })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { errors: Array<{ name: string }> }).errors.map((e) => e.name)).toEqual(['dateRange'])
  })

  it("is 404 for an unknown feature and for another organisation's", async () => {
    const unknown = await t.call('POST', '/api-v2/orgs/acme/features/no-such-feature/data/query', { cookie, body: {} })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ message: 'Feature not found' })
    expect((await t.call('POST', `/api-v2/orgs/acme/features/${featureId}/data/query`, { cookie: stranger, body: {} })).status).toBe(404)
    expect((await t.call('POST', `/api-v2/orgs/elsewhere/features/${featureId}/data/query`, { cookie: stranger, body: {} })).status).toBe(404)
  })
})
