import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AudienceResults, CompanyDetails, CompanyVisitors, IngestedEvent, MetricGraph, PeopleList } from '@fl0/contracts'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { detectBots } from '@fl0/workers'
import { createTestApi, type TestApi } from './testing.ts'

/**
 * Bots through the API, as a user and staff see them: planted crawlers (a
 * Googlebot, a HeadlessChrome that fills a form with an acme.com address, a
 * headless browser whose visitor later signed in) and a behavioural bot (150
 * one-page, two-second sessions from one address in a day) are on the people
 * list, in a metric, in an audience and on acme.com's company page until the
 * bots worker's scan (detectBots, what the workers role runs every minute)
 * marks them; then they are gone from each, while an office of 120 people
 * behind one address and the ordinary visitors and users stay, and the admin
 * summary counts the bots. The clock stands at 2026-03-02 09:00 UTC; the
 * visits are on 03-01.
 */
let t: TestApi
let cookie: string
let orgId: string

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const SITE = ['/', '/pricing', '/docs', '/docs/install', '/blog', '/blog/launch', '/customers', '/about', '/careers', '/contact']
const T0 = Date.parse('2026-03-01T08:00:00Z')
const range = (n: number) => Array.from({ length: n }, (_, i) => i)

function events(org: string): IngestedEvent[] {
  type Who = { user_id?: string; anonymous_id?: string; ip?: string; user_agent?: string }
  const at = (ms: number) => new Date(T0 + ms)
  const page = (who: Who, ms: number, path: string) => eventRow({ org_id: org, type: 'page', ...who, page_path: path, timestamp: at(ms) })
  const pricing = (who: Who, ms: number) => eventRow({ org_id: org, type: 'track', event: 'Pricing Viewed', ...who, page_path: '/pricing', timestamp: at(ms) })
  const identify = (who: Who, ms: number, email: string) => eventRow({ org_id: org, type: 'identify', ...who, traits: { email }, timestamp: at(ms) })
  const office = (i: number): Who => ({ anonymous_id: `office-${i}`, ip: '203.0.113.10', user_agent: CHROME })
  const scraper = (i: number): Who => ({ anonymous_id: `scraper-${i}`, ip: '198.51.100.7', user_agent: CHROME })
  const google: Who = { anonymous_id: 'crawler-google', ip: '66.249.66.1', user_agent: GOOGLEBOT }
  const spam: Who = { anonymous_id: 'headless-spam', ip: '192.0.2.9', user_agent: HEADLESS }
  const linked: Who = { anonymous_id: 'headless-linked', ip: '192.0.2.10', user_agent: HEADLESS }
  const reader: Who = { anonymous_id: 'reader', ip: '192.0.2.50', user_agent: CHROME }
  return [
    // Users: Ada and Bob at acme.com, Carol elsewhere.
    identify({ user_id: 'u-ada' }, 0, 'ada@acme.com'),
    pricing({ user_id: 'u-ada' }, 60_000),
    identify({ user_id: 'u-bob' }, 0, 'bob@acme.com'),
    pricing({ user_id: 'u-bob' }, 120_000),
    pricing({ user_id: 'u-carol' }, 180_000),
    // A headless browser (a monitor, a scraper) viewed pricing five times before its visitor signed in as Carol.
    ...range(5).map((i) => pricing(linked, 3_600_000 + i * 1_000)),
    eventRow({ org_id: org, type: 'track', event: 'Signed In', user_id: 'u-carol', anonymous_id: 'headless-linked', timestamp: at(3_700_000) }),
    // An ordinary visitor.
    page(reader, 200_000, '/'),
    page(reader, 260_000, '/blog'),
    pricing(reader, 300_000),
    // An office: 120 people behind one address, one browser build, minutes over several pages; two left their e-mail.
    ...range(120).flatMap((i) => [
      page(office(i), i * 60_000, SITE[i % 10]!),
      page(office(i), i * 60_000 + 90_000, SITE[(i + 3) % 10]!),
      pricing(office(i), i * 60_000 + 180_000),
      page(office(i), i * 60_000 + 300_000, SITE[(i + 6) % 10]!),
    ]),
    identify(office(0), 400_000, 'lena@acme.com'),
    identify(office(1), 460_000, 'max@acme.com'),
    // Googlebot renders the pages, scripts included.
    page(google, 1_000_000, '/'),
    page(google, 1_001_000, '/pricing'),
    pricing(google, 1_001_500),
    // A headless browser fills the demo form with an acme.com address.
    page(spam, 2_000_000, '/demo'),
    identify(spam, 2_001_000, 'sales@acme.com'),
    pricing(spam, 2_002_000),
    // The behavioural bot: 150 one-page sessions of two seconds, one address, an ordinary browser's user agent.
    ...range(150).flatMap((i) => [page(scraper(i), 4_000_000 + i * 120_000, '/pricing'), pricing(scraper(i), 4_000_000 + i * 120_000 + 2_000)]),
  ]
}

async function get<T>(path: string): Promise<T> {
  const res = await t.call('GET', path, { cookie })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as T
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await t.call('POST', path, { cookie, body })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as T
}

/** What a user and staff see, in numbers. */
async function seen() {
  const everyone = await get<PeopleList>('/api-v2/orgs/acme/people?ip2company=true')
  const identified = await get<PeopleList>('/api-v2/orgs/acme/people')
  const metric = await post<MetricGraph>('/api-v2/orgs/acme/metrics/graph', { events: [{ name: 'Pricing Viewed' }], dateRange: 'last7Days' })
  const audience = await post<AudienceResults>('/api/orgs/acme/audiences/filters', {
    filters: {
      match_aggregation: 'and',
      matches: [],
      action_aggregation: 'and',
      actions: [{ kind: 'event', event_name: 'Pricing Viewed', measurement: 'total', occurrence_op: 'greater_than_or_equal_to', value: 3, date_range: { kind: 'last', value: 7, unit: 'day' } }],
    },
  })
  const details = await get<CompanyDetails>('/api-v2/orgs/acme/companies/acme.com/details')
  const { visitors } = await get<CompanyVisitors>('/api-v2/orgs/acme/companies/acme.com/visitors')
  const grid = async (showIp2Company: boolean) => (await get<{ total: number }>(`/api-v2/admin/people-table?orgId=${orgId}&showIp2Company=${showIp2Company}`)).total
  return {
    people: everyone.totalUsers,
    identifiedPeople: identified.totalUsers,
    uniqueUsers: metric.data.datasets[0]!.data.reduce((a, b) => a + b, 0),
    audience: audience.users.map((u) => u.userId),
    companyPeople: details.knownPeople,
    companyVisitors: visitors.map((v) => v.id).sort(),
    adminPeople: await grid(true),
    adminIdentified: await grid(false),
  }
}

beforeAll(async () => {
  t = await createTestApi()
  // The first account is staff: it also sees the admin area.
  ;({ cookie, orgId } = await t.signUpWithOrg('Ada', 'Acme'))
  await insertEvents(t.events, events(orgId))
  // The admin grids read the visits that the identity worker keeps; the refresh rebuilds them from the events.
  const refresh = await t.call('POST', '/api-v2/admin/refresh-sessions', { cookie, body: { orgId } })
  expect(refresh.status, await refresh.clone().text()).toBe(200)
})
afterAll(() => t?.close())

describe('bots', () => {
  const acme = ['anon:office-0', 'anon:office-1', 'u-ada', 'u-bob']

  it('are people, users, members and visitors until the bots worker marks them', async () => {
    expect(await seen()).toEqual({
      // 3 users, the reader, 120 office people, Googlebot, the form-filling bot and 150 scraper sessions.
      people: 276,
      identifiedPeople: 3,
      uniqueUsers: 276,
      // Carol: once herself, five times as the headless browser she signed in from.
      audience: ['u-carol'],
      companyPeople: 5,
      companyVisitors: ['anon:headless-spam', ...acme].sort(),
      adminPeople: 276,
      // Users and the visitors who gave an e-mail.
      adminIdentified: 6,
    })
    const profile = await t.call('GET', '/api/orgs/acme/people/anon:headless-spam', { cookie })
    expect(profile.status).toBe(200)
  })

  it('are left out of people, metrics, audiences and the company page once marked; the office and the rest stay', async () => {
    const scan = await detectBots(t.events, t.clock.now)
    // Googlebot and the two headless browsers by user agent, the 150 scraper sessions by behaviour.
    expect(scan.marked).toEqual({ user_agent: 3, behaviour: 150 })
    expect(await seen()).toEqual({
      people: 124,
      identifiedPeople: 3,
      uniqueUsers: 124,
      audience: [],
      companyPeople: 4,
      companyVisitors: acme,
      adminPeople: 124,
      adminIdentified: 5,
    })
    const profile = await t.call('GET', '/api/orgs/acme/people/anon:headless-spam', { cookie })
    expect(profile.status).toBe(404)
    // Carol's own calls stay hers.
    expect((await t.call('GET', '/api/orgs/acme/people/u-carol', { cookie })).status).toBe(200)
  })

  it('are counted in the admin summary, after the visits; a second scan counts none twice', async () => {
    await detectBots(t.events, t.clock.now)
    expect((await detectBots(t.events, new Date(t.clock.now.getTime() + 1))).marked).toEqual({ user_agent: 0, behaviour: 0 })
    const { data } = await get<{ data: Array<{ key: string; label: string; value: unknown }> }>('/api-v2/admin/summary')
    const keys = data.map((r) => r.key)
    expect(keys.indexOf('botVisitors')).toBe(keys.indexOf('visitsWithPerson') + 1)
    expect(data.find((r) => r.key === 'botVisitors')).toEqual({ key: 'botVisitors', label: 'Bot visitors left out', value: 153 })
  })
})
