import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOrganisationByUrlCode, saveOrgSettings } from '@fl0/stores'
import { insertEvents } from '@fl0/stores/events/testing'
import type { MetricGraph } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'
import { AWKWARD_KEY, FIXTURE_NOW, fixtureEvents, linkedEvents, teamEvents } from '@fl0/query/testing'

/**
 * The metric engine against answers worked out by hand from fixture.ts (read
 * it first: the table there is what every number below is counted from),
 * through POST /api-v2/orgs/{organization}/metrics/graph on PGlite and chDB.
 */
let t: TestApi
let cookie: string

beforeAll(async () => {
  t = await createTestApi()
  t.clock.now = FIXTURE_NOW
  ;({ cookie } = await t.signUp('Ada'))
  await t.createOrg(cookie, 'Metrics Co')
  await t.createOrg(cookie, 'Teams')
  await t.createOrg(cookie, 'Berlin Co')
  await t.createOrg(cookie, 'Linked Co')
  const id = async (code: string) => (await findOrganisationByUrlCode(t.sql, code))!.id
  const [main, teams, berlin, linked] = [await id('metrics-co'), await id('teams'), await id('berlin-co'), await id('linked-co')]
  await insertEvents(t.events, [...fixtureEvents(main, 'another-org'), ...teamEvents(teams), ...fixtureEvents(berlin, 'another-org'), ...linkedEvents(linked)])
  await saveOrgSettings(t.sql, berlin, { timezone: 'Europe/Berlin', company_paths: [] })
})
afterAll(() => t?.close())

const S = { name: 'Signed Up' }
const R = { name: 'Report Created' }
const U = { name: 'Plan Upgraded' }
const WEEK = ['2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']

async function graph(definition: Record<string, unknown>, org = 'metrics-co'): Promise<MetricGraph> {
  const res = await t.call('POST', `/api-v2/orgs/${org}/metrics/graph`, { cookie, body: definition })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as MetricGraph
}
/** The one series of a line over the last seven days, daily. */
const week = async (definition: Record<string, unknown>, org?: string) => {
  const g = await graph({ dateRange: 'last7Days', ...definition }, org)
  expect(g.data.labels).toEqual(WEEK)
  expect(g.data.datasets).toHaveLength(1)
  return g.data.datasets[0]!.data
}
/** The metric graph's number over the last seven days. */
const number = async (definition: Record<string, unknown>, org?: string) => (await graph({ dateRange: 'last7Days', ...definition, graphType: 'metric' }, org)).header.value

describe('measures, on a daily line of the last seven days', () => {
  it('unique: people who did the event each day; not the future, not another organisation', async () => {
    // 02-26 ada · 02-27 bob (23:30) · 02-28 cyd · 03-01 dan · 03-02 ada · 03-03 cyd, anon-1 · 03-04 ada's R is after now
    const g = await graph({ events: [R], dateRange: 'last7Days' })
    expect(g).toEqual({
      type: 'line',
      layout: 'stacked',
      header: { name: 'Unique users' },
      // Today (the last day) is under way: partial.
      data: { labels: WEEK, datasets: [{ label: 'Unique users', data: [1, 1, 1, 1, 1, 2, 0] }], partial: [6] },
    })
  })

  it('total: every event, occurring filters ignored', async () => {
    // ada 2 · bob 1 · cyd 2 · dan 1 · ada 1 · cyd + anon-1 2 · 0
    expect(await week({ events: [R], measureBy: 'total' })).toEqual([2, 1, 2, 1, 1, 2, 0])
    expect(await week({ events: [{ ...R, occurring: { operation: 'equals', value: 2 } }], measureBy: 'total' })).toEqual([2, 1, 2, 1, 1, 2, 0])
    expect((await graph({ events: [R], measureBy: 'total', graphType: 'metric', dateRange: 'last7Days' })).header).toEqual({ name: 'Total events', value: 9 })
  })

  it('uniqueCompanies: the companies of the people who did it (latest group call); people without one count for none', async () => {
    // 02-26 acme (ada) · 02-27 acme (bob) · 02-28 globex (cyd, whose earlier group was initech) · 03-01 dan: none · 03-02 acme · 03-03 globex (anon-1: none)
    expect(await week({ events: [R], measureBy: 'uniqueCompanies' })).toEqual([1, 1, 1, 0, 1, 1, 0])
    expect(await number({ events: [R], measureBy: 'uniqueCompanies' })).toBe(2)
  })

  it('any event: every track event, not page views', async () => {
    // ada S R R U · bob S R · cyd R S R · dan R · ada R, bob U · cyd R, anon-1 R · ada's page view only
    expect(await week({ isAnyEvent: true, measureBy: 'total' })).toEqual([4, 2, 3, 1, 2, 2, 0])
    expect(await week({ isAnyEvent: true })).toEqual([1, 1, 1, 1, 2, 2, 0])
  })

  it('conversionRate: of the people entering the funnel in the period, the percentage completing it in order', async () => {
    // Signed Up → Plan Upgraded. Week of 02-23: ada, bob, cyd signed up; only ada upgraded that week (bob on 03-02). Week of 03-02: nobody entered.
    const g = await graph({ events: [S, U], operation: 'ordered', measureBy: 'conversionRate', occurring: 'weekly', dateRange: 'last30Days' })
    expect(g.header).toEqual({ name: 'Conversion rate' })
    expect(g.data).toEqual({ labels: ['2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23', '2026-03-02'], datasets: [{ label: 'Conversion rate', data: [0, 0, 0, 33.33, 0] }], partial: [0, 4] })
    // Over the seven days as one period: ada and bob of three.
    expect(await number({ events: [S, U], operation: 'ordered', measureBy: 'conversionRate' })).toBe(66.67)
  })
})

describe('graph types', () => {
  it('bar and table carry the line’s numbers; metric one number; funnel the steps', async () => {
    const line = await graph({ events: [R], dateRange: 'last7Days' })
    expect(await graph({ events: [R], dateRange: 'last7Days', graphType: 'bar' })).toEqual({ ...line, type: 'bar' })
    expect(await graph({ events: [R], dateRange: 'last7Days', graphType: 'table' })).toEqual({ ...line, type: 'table' })
    expect(await graph({ events: [R], dateRange: 'last7Days', graphType: 'metric' })).toEqual({
      type: 'metric',
      layout: 'stacked',
      header: { name: 'Unique users', value: 5 },
      data: { labels: ['2026-02-26/2026-03-04'], datasets: [{ label: 'Unique users', data: [5] }] },
    })
  })

  it('funnel: people reaching each step in order over the range; the header is those completing it', async () => {
    // ada S→R→U on 02-26; bob S 02-27 → R 02-27 → U 03-02; cyd R, S, R: S→R only; dan and anon-1 never signed up.
    expect(await graph({ events: [S, R, U], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days' })).toEqual({
      type: 'funnel',
      layout: 'stacked',
      header: { name: 'Unique users', value: 2 },
      data: { labels: ['Signed Up', 'Report Created', 'Plan Upgraded'], datasets: [{ label: 'Unique users', data: [3, 3, 2] }] },
    })
    const rate = await graph({ events: [S, R, U], operation: 'ordered', graphType: 'funnel', measureBy: 'conversionRate', dateRange: 'last7Days' })
    expect(rate.header).toEqual({ name: 'Conversion rate', value: 66.67 })
    expect(rate.data.datasets).toEqual([{ label: 'Conversion rate', data: [100, 100, 66.67] }])
  })

  it("counts a visitor's anonymous visits before signing up as the account's, as the people list does", async () => {
    const P = { name: 'Pricing Viewed' }
    const SU = { name: 'Signed Up' }
    // kim, lee, max, ned: device-kim and shared-1 are kim's and max's.
    expect(await number({ isAnyEvent: true }, 'linked-co')).toBe(4)
    // Pricing → Signed Up: kim and max (ned's sign-up follows max's visit on the shared machine, not his own).
    expect(await graph({ events: [P, SU], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days' }, 'linked-co')).toMatchObject({
      header: { name: 'Unique users', value: 2 },
      data: { labels: ['Pricing Viewed', 'Signed Up'], datasets: [{ label: 'Unique users', data: [3, 2] }] },
    })
    // kim's anonymous visit carries the traits and the company kim has since.
    const pro = { audience: { traits: [{ name: 'plan', operation: 'is', value: 'pro' }] } }
    expect(await week({ events: [P], ...pro }, 'linked-co')).toEqual([0, 0, 0, 1, 0, 0, 0])
    expect(await week({ events: [P], audienceType: 'company' }, 'linked-co')).toEqual([0, 0, 0, 1, 0, 0, 0])
  })

  it('zero-fills a range without events', async () => {
    expect(await week({ events: [{ name: 'Never Sent' }] })).toEqual([0, 0, 0, 0, 0, 0, 0])
  })

  it('an empty metric is an empty graph', async () => {
    expect(await graph({ dateRange: 'last7Days' })).toEqual({ type: 'line', layout: 'stacked', header: { name: 'Unique users' }, data: { labels: WEEK, datasets: [], partial: [6] } })
  })

  it("applies the editor's rules to what it is sent: total with ordered counts unique, a funnel without ordered is a line", async () => {
    const funnel = await graph({ events: [S, R, U], operation: 'ordered', graphType: 'funnel', measureBy: 'total', dateRange: 'last7Days' })
    expect(funnel.header).toEqual({ name: 'Unique users', value: 2 })
    expect((await graph({ events: [R], graphType: 'funnel', dateRange: 'last7Days' })).type).toBe('line')
    expect((await graph({ events: [R], measureBy: 'conversionRate', dateRange: 'last7Days' })).header.name).toBe('Unique users')
  })
})

describe('operations', () => {
  it('any: did any of the events in the period', async () => {
    // Signed Up or Report Created: as Report Created alone, every signer-up also created a report that day.
    expect(await week({ events: [S, R] })).toEqual([1, 1, 1, 1, 1, 2, 0])
  })

  it('all: did every one of them in the period', async () => {
    // ada, bob and cyd signed up and created a report on the same day; dan only created one.
    expect(await week({ events: [S, R], operation: 'all' })).toEqual([1, 1, 1, 0, 0, 0, 0])
    // Weekly: the week of 02-23 has ada, bob and cyd; the week of 03-02 nobody signed up.
    const g = await graph({ events: [S, R], operation: 'all', occurring: 'weekly', dateRange: 'last30Days' })
    expect(g.data.datasets[0]!.data).toEqual([0, 0, 0, 3, 0])
    // all with any event and no events: did anything.
    expect(await week({ operation: 'all', isAnyEvent: true })).toEqual([1, 1, 1, 1, 2, 2, 0])
  })

  it('ordered: the steps in order within the period', async () => {
    // Daily: only ada went S→R→U within one day (bob upgraded three days later).
    expect(await week({ events: [S, R, U], operation: 'ordered' })).toEqual([1, 0, 0, 0, 0, 0, 0])
    // Order matters: R → S. cyd (R 10:00, S 11:00) gets there; everybody else who created a report stops at R.
    expect((await graph({ events: [R, S], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days' })).data.datasets[0]!.data).toEqual([5, 1])
  })

  it('ordered with one event twice: doing it twice, one event filling one step', async () => {
    // In the seven days ada created 3 reports, cyd 3; bob, dan and anon-1 one each.
    expect((await graph({ events: [R, R], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days' })).data.datasets[0]!.data).toEqual([5, 2])
  })
})

describe('date ranges and periods', () => {
  it('counts each range back from today, today included', async () => {
    // R in the last 7 days: ada bob cyd dan anon-1; +jay (02-25), ivy (02-10) in 30; +eve in 3 months; +fay in 6; +gus in a year; never hal.
    const n = (dateRange: string) => graph({ events: [R], graphType: 'metric', dateRange }).then((g) => g.header.value)
    expect(await n('last7Days')).toBe(5)
    expect(await n('last30Days')).toBe(7)
    expect(await n('last3Months')).toBe(8)
    expect(await n('last6Months')).toBe(9)
    expect(await n('lastYear')).toBe(10)
    expect((await graph({ events: [R], graphType: 'metric', dateRange: 'lastYear' })).data.labels).toEqual(['2025-03-05/2026-03-04'])
  })

  it('weekly: weeks from Monday, the first cut by the range', async () => {
    // Weeks of 02-02 (range from 02-03), 02-09 ivy, 02-16, 02-23 ada bob cyd dan jay, 03-02 ada cyd anon-1.
    const g = await graph({ events: [R], occurring: 'weekly', dateRange: 'last30Days' })
    // The first week cut by the range, the last under way.
    expect(g.data).toEqual({ labels: ['2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23', '2026-03-02'], datasets: [{ label: 'Unique users', data: [0, 1, 0, 5, 3] }], partial: [0, 4] })
  })

  it('monthly: calendar months', async () => {
    // December eve · January ada · February ada bob cyd ivy jay · March dan ada cyd anon-1
    const g = await graph({ events: [R], occurring: 'monthly', dateRange: 'last3Months' })
    // December cut by the range (from 12-03), March under way.
    expect(g.data).toEqual({ labels: ['2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01'], datasets: [{ label: 'Unique users', data: [1, 1, 5, 4] }], partial: [0, 3] })
  })

  it("days end at midnight in the organisation's zone: 23:30 UTC is the next day in Berlin", async () => {
    // bob's R at 02-27 23:30 UTC is 02-28 00:30 in Berlin, joining cyd's day; and jay's at 02-25 23:00 UTC
    // is 02-26 00:00 there, inside the seven days.
    expect(await week({ events: [R] }, 'berlin-co')).toEqual([2, 0, 2, 1, 1, 2, 0])
    expect(await week({ events: [R] }, 'metrics-co')).toEqual([1, 1, 1, 1, 1, 2, 0])
  })
})

describe('event property filters', () => {
  const signedUp = (operation: string, value: string) => number({ events: [{ ...S, property: { path: 'source', operation, value } }] })
  const reports = (operation: string, value: string, extra: Record<string, unknown> = {}) =>
    number({ events: [{ ...R, property: { path: 'rows', operation, value } }], ...extra })

  it('compare text: is and isNot exactly, the others ignoring case', async () => {
    // source: ada 'ads', bob 'organic', cyd 'google-ads'
    expect(await signedUp('is', 'ads')).toBe(1)
    expect(await signedUp('isNot', 'ads')).toBe(2)
    expect(await signedUp('startsWith', 'GOO')).toBe(1)
    expect(await signedUp('endsWith', 'ADS')).toBe(2)
    expect(await signedUp('contains', 'Ad')).toBe(2)
    expect(await signedUp('doesNotContain', 'ads')).toBe(1)
  })

  it('compare numbers: greaterThan and lessThan', async () => {
    // rows > 50: ada 120, cyd 300 and 60 (2 people, 3 events); rows < 10: ada 5, cyd 7, dan 1, anon-1 2
    expect(await reports('greaterThan', '50')).toBe(2)
    expect(await reports('greaterThan', '50', { measureBy: 'total' })).toBe(3)
    expect(await reports('lessThan', '10')).toBe(4)
  })

  it('reads nested paths and awkward names as bound values; an empty value is no filter', async () => {
    expect(await number({ events: [{ ...R, property: { path: 'meta.folder', operation: 'is', value: 'Finance' } }] })).toBe(1)
    expect(await number({ events: [{ ...R, property: { path: AWKWARD_KEY, operation: 'is', value: 'x' } }] })).toBe(1)
    expect(await number({ events: [{ ...R, property: { path: 'rows', operation: 'is', value: "1' OR '1'='1" } }] })).toBe(0)
    expect(await number({ events: [{ ...R, property: { path: 'rows', operation: 'contains', value: '' } }] })).toBe(5)
    expect(await number({ events: [{ name: "Report Created' OR 1=1 --" }] })).toBe(0)
    expect(await number({ events: [R] })).toBe(5) // the table is still there
  })
})

describe('occurring filters, per member per period', () => {
  // In the seven days: ada 3 reports, cyd 3, bob, dan and anon-1 one each.
  const times = (operation: string, value: number, value2?: number) => number({ events: [{ ...R, occurring: { operation, value, value2 } }] })

  it('each operation', async () => {
    expect(await times('equals', 3)).toBe(2)
    expect(await times('not', 3)).toBe(3)
    expect(await times('moreThan', 1)).toBe(2)
    expect(await times('atLeast', 1)).toBe(5)
    expect(await times('lessThan', 3)).toBe(3)
    expect(await times('atMost', 1)).toBe(3)
    expect(await times('between', 2, 3)).toBe(2)
    expect(await times('notBetween', 2, 3)).toBe(3)
  })

  it('per period: daily and weekly counts', async () => {
    // Daily, twice: ada on 02-26, cyd on 02-28. Weekly, at least twice: ada and cyd in the week of 02-23.
    expect(await week({ events: [{ ...R, occurring: { operation: 'equals', value: 2 } }] })).toEqual([1, 0, 1, 0, 0, 0, 0])
    const g = await graph({ events: [{ ...R, occurring: { operation: 'atLeast', value: 2 } }], occurring: 'weekly', dateRange: 'last30Days' })
    expect(g.data.datasets[0]!.data).toEqual([0, 0, 0, 2, 0])
  })

  it('in an ordered metric, a step counts only when its filter holds', async () => {
    // S → R, R at least twice in the range: ada (3 reports) and cyd (3) reach R; bob (1) stops at S.
    const g = await graph({ events: [S, { ...R, occurring: { operation: 'atLeast', value: 2 } }], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days' })
    expect(g.data.datasets[0]!.data).toEqual([3, 2])
  })
})

describe('audience traits (latest identify traits), with and/or', () => {
  // Report Created in the seven days: ada (pro, 5 seats, beta, trial ends 03-10), bob (free, 1, not beta, 02-20),
  // cyd (enterprise, 20), dan (no plan), anon-1 (no traits).
  const who = (traits: Array<{ name: string; operation: string; value?: string | string[] }>, aggregate = 'and') =>
    number({ events: [R], audience: { traits, aggregate } })

  it('text traits', async () => {
    expect(await who([{ name: 'plan', operation: 'is', value: 'pro' }])).toBe(1) // cyd was pro, is enterprise now
    expect(await who([{ name: 'plan', operation: 'is', value: ['pro', 'enterprise'] }])).toBe(2)
    expect(await who([{ name: 'plan', operation: 'is_not', value: 'pro' }])).toBe(4)
    expect(await who([{ name: 'plan', operation: 'contains', value: 'PRISE' }])).toBe(1)
    expect(await who([{ name: 'plan', operation: 'does_not_contain', value: 'PRO' }])).toBe(4)
    expect(await who([{ name: 'plan', operation: 'is_set' }])).toBe(3)
    expect(await who([{ name: 'plan', operation: 'is_not_set' }])).toBe(2)
    expect(await who([{ name: 'plan', operation: 'is', value: '' }])).toBe(5) // no value: dropped
  })

  it('number traits', async () => {
    expect(await who([{ name: 'seats', operation: 'greater_than', value: '4' }])).toBe(2)
    expect(await who([{ name: 'seats', operation: 'greater_than_or_equal_to', value: '5' }])).toBe(2)
    expect(await who([{ name: 'seats', operation: 'less_than', value: '5' }])).toBe(1)
    expect(await who([{ name: 'seats', operation: 'less_than_or_equal_to', value: '5' }])).toBe(2)
    expect(await who([{ name: 'seats', operation: 'equals', value: '20' }])).toBe(1)
    expect(await who([{ name: 'seats', operation: 'not_equal', value: '20' }])).toBe(4)
    expect(await who([{ name: 'seats', operation: 'between', value: ['1', '5'] }])).toBe(2)
    expect(await who([{ name: 'seats', operation: 'not_between', value: ['2', '19'] }])).toBe(4)
    expect(await who([{ name: 'seats', operation: 'is_numeric' }])).toBe(3)
    expect(await who([{ name: 'plan', operation: 'is_not_numeric' }])).toBe(3)
  })

  it('boolean traits', async () => {
    expect(await who([{ name: 'beta', operation: 'is_true' }])).toBe(1)
    expect(await who([{ name: 'beta', operation: 'is_false' }])).toBe(1)
    expect(await who([{ name: 'beta', operation: 'is', value: 'true' }])).toBe(1)
  })

  it('date traits, against days and against now (03-04 12:00)', async () => {
    expect(await who([{ name: 'trialEnds', operation: 'on', value: '2026-03-10' }])).toBe(1)
    expect(await who([{ name: 'trialEnds', operation: 'not_on', value: '2026-03-10' }])).toBe(4)
    expect(await who([{ name: 'trialEnds', operation: 'before', value: '2026-03-01' }])).toBe(1)
    expect(await who([{ name: 'trialEnds', operation: 'since', value: '2026-03-01' }])).toBe(1)
    expect(await who([{ name: 'trialEnds', operation: 'between', value: ['2026-02-01', '2026-02-28'] }])).toBe(1)
    expect(await who([{ name: 'trialEnds', operation: 'last', value: '14' }])).toBe(1) // bob's 02-20
    expect(await who([{ name: 'trialEnds', operation: 'last', value: '7' }])).toBe(0)
    expect(await who([{ name: 'trialEnds', operation: 'in_the_next', value: ['1', 'week'] }])).toBe(1) // ada's 03-10
    expect(await who([{ name: 'trialEnds', operation: 'before_the_last', value: '7' }])).toBe(1)
    expect(await who([{ name: 'trialEnds', operation: 'not_in_the_last', value: '14' }])).toBe(4)
  })

  it('and / or', async () => {
    const pro = { name: 'plan', operation: 'is', value: 'pro' }
    const bigTeam = { name: 'seats', operation: 'greater_than', value: '4' }
    expect(await who([pro, bigTeam], 'and')).toBe(1)
    expect(await who([{ name: 'plan', operation: 'is', value: 'free' }, { name: 'seats', operation: 'greater_than', value: '10' }], 'or')).toBe(2)
  })
})

describe('companies as the audience', () => {
  it("counts companies, their people's events together", async () => {
    expect(await week({ events: [R], audienceType: 'company' })).toEqual([1, 1, 1, 0, 1, 1, 0])
    // 03-02: ada created a report and bob upgraded: acme did both; no one person did.
    expect(await week({ events: [R, U], operation: 'all', audienceType: 'company' })).toEqual([1, 0, 0, 0, 1, 0, 0])
    expect(await week({ events: [R, U], operation: 'all' })).toEqual([1, 0, 0, 0, 0, 0, 0])
    // Total: the events of people in a company (ada 3, bob 1, cyd 3; not dan's or anon-1's).
    expect(await number({ events: [R], audienceType: 'company', measureBy: 'total' })).toBe(7)
  })

  it('filters on the latest group traits', async () => {
    expect(await number({ events: [R], audienceType: 'company', audience: { traits: [{ name: 'industry', operation: 'is', value: 'Finance' }] } })).toBe(1)
    expect(await number({ events: [R], audienceType: 'company', audience: { traits: [{ name: 'employees', operation: 'greater_than', value: '10' }] } })).toBe(2)
  })
})

describe('breakdown by a trait', () => {
  it('one series per value, most members first (ties by value), members without it as Not set', async () => {
    const g = await graph({ events: [R], graphType: 'metric', dateRange: 'last7Days', breakdown: { trait: 'plan' } })
    expect(g.header).toEqual({ name: 'Unique users', value: 5 })
    expect(g.data.datasets).toEqual([
      { label: 'Not set', data: [2] },
      { label: 'enterprise', data: [1] },
      { label: 'free', data: [1] },
      { label: 'pro', data: [1] },
    ])
  })

  it('per period on a line, stacked or side by side (side only for bars, not ordered)', async () => {
    const line = await graph({ events: [R], dateRange: 'last7Days', breakdown: { trait: 'plan', values: ['pro', 'enterprise'] } })
    expect(line.data.datasets).toEqual([
      { label: 'pro', data: [1, 0, 0, 0, 1, 0, 0] },
      { label: 'enterprise', data: [0, 0, 1, 0, 0, 1, 0] },
      { label: 'Other', data: [0, 1, 0, 1, 0, 1, 0] }, // bob · dan · anon-1
    ])
    const side = await graph({ events: [R], dateRange: 'last7Days', graphType: 'bar', graphLayout: 'side', breakdown: { trait: 'plan', values: ['pro', 'enterprise'] } })
    expect(side).toEqual({ ...line, type: 'bar', layout: 'side' })
    expect((await graph({ events: [R], dateRange: 'last7Days', graphType: 'bar', graphLayout: 'side' })).layout).toBe('stacked')
  })

  it('the ten biggest values, the rest as Other', async () => {
    const g = await graph({ events: [R], graphType: 'metric', dateRange: 'last7Days', breakdown: { trait: 'team' } }, 'teams')
    expect(g.data.datasets.map((d) => [d.label, d.data[0]])).toEqual([
      ['red', 3], ['blue', 2], ['a', 1], ['b', 1], ['c', 1], ['d', 1], ['e', 1], ['f', 1], ['g', 1], ['h', 1], ['Other', 2],
    ]) // prettier-ignore
    expect(g.header.value).toBe(15)
  })

  it('funnels and unique companies break down too', async () => {
    // S → R → U: ada (pro) 3 steps, bob (free) 3, cyd (enterprise) 2; dan and anon-1 never start.
    const f = await graph({ events: [S, R, U], operation: 'ordered', graphType: 'funnel', dateRange: 'last7Days', breakdown: { trait: 'plan' } })
    expect(f.header.value).toBe(2)
    expect(f.data.datasets).toEqual([
      { label: 'enterprise', data: [1, 1, 0] },
      { label: 'free', data: [1, 1, 1] },
      { label: 'pro', data: [1, 1, 1] },
    ])
    // Companies by industry: acme (Software), globex (Finance).
    const c = await graph({ events: [R], audienceType: 'company', graphType: 'metric', dateRange: 'last7Days', breakdown: { trait: 'industry' } })
    expect(c.data.datasets).toEqual([
      { label: 'Finance', data: [1] },
      { label: 'Software', data: [1] },
    ])
    // Unique companies by the user trait plan: acme has a pro and a free user, so the total is 2, not 3.
    const u = await graph({ events: [R], measureBy: 'uniqueCompanies', graphType: 'metric', dateRange: 'last7Days', breakdown: { trait: 'plan', values: ['pro', 'free'] } })
    expect(u.header.value).toBe(2)
    expect(u.data.datasets).toEqual([
      { label: 'pro', data: [1] },
      { label: 'free', data: [1] },
      { label: 'Other', data: [1] },
    ])
  })
})
