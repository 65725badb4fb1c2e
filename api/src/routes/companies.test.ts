import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompanyAnalytics, CompanyDetail, CompanyDetails, CompanyVisitors, IngestedEvent } from '@fl0/contracts'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { insertVisits } from '../companies/testing.ts'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The company page's calls on real events in chDB: who belongs to a company
 * (group domain, business e-mail, not free-mail, anonymous history linked),
 * what is counted, time spent, 404s, and one organisation's events never
 * reaching another's page. The test clock stands at 2026-03-02 09:00 UTC, so
 * the 30 days are 2026-02-01 … 2026-03-02.
 */
let t: TestApi
let cookie: string
let otherCookie: string
let acmeOrg: string
let otherOrg: string

const at = (iso: string) => new Date(iso)
const LOGO = 'https://logos.example/{domain}.png'

function events(org: string): IngestedEvent[] {
  const e = (partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: org, ...partial })
  const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string, path: string, extra: Partial<Omit<IngestedEvent, 'timestamp'>> = {}) =>
    e({ type: 'page', ...ids, timestamp: at(iso), name: '', page_path: path, page_title: `Title of ${path}`, context: { timezone: 'Europe/Berlin', locale: 'de-DE' }, ...extra })
  return [
    // Ada: anonymous visits before signing up (anon-ada), then signed up as u-ada on the same browser.
    page({ anonymous_id: 'anon-ada' }, '2026-02-20T08:00:00Z', '/pricing'),
    page({ anonymous_id: 'anon-ada' }, '2026-02-20T08:01:00Z', '/signup'),
    e({ type: 'track', event: 'Signed Up', user_id: 'u-ada', anonymous_id: 'anon-ada', timestamp: at('2026-02-20T08:02:00Z') }),
    e({ type: 'identify', user_id: 'u-ada', anonymous_id: 'anon-ada', timestamp: at('2026-02-20T08:02:01Z'), traits: { name: 'Ada Lovelace', email: 'ada@acme.com', role: 'CTO' } }),
    // The backend's group call: the company's domain, name and traits (older ones merged under newer).
    e({ type: 'group', user_id: 'u-ada', group_id: 'g-acme', timestamp: at('2026-02-20T08:02:02Z'), traits: { name: 'Acme Inc', domain: 'www.ACME.com', industry: 'Software', employees: 120, revenue: 5_000_000, plan: 'pro', country: 'DE', address: { city: 'Berlin' } } }),
    e({ type: 'group', user_id: 'u-ada', group_id: 'g-acme', timestamp: at('2026-02-25T08:00:00Z'), traits: { plan: 'enterprise' } }),
    // Ada's day of 2026-03-01: one session of three events, then a second session (58 minutes later) of two.
    page({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-03-01T10:00:00Z', '/app'),
    e({ type: 'track', event: 'Report Created', user_id: 'u-ada', anonymous_id: 'anon-ada', timestamp: at('2026-03-01T10:00:30Z') }),
    page({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-03-01T10:02:00Z', '/app/reports'),
    page({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-03-01T11:00:00Z', '/app', { name: 'App home' }),
    // 20 minutes of nothing: the same session, but a gap counts 10 minutes at most.
    page({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-03-01T11:20:00Z', '/app/settings'),
    // Bob: in the group by its id only (no domain on his group call).
    e({ type: 'group', user_id: 'u-bob', group_id: 'g-acme', timestamp: at('2026-02-26T09:00:00Z'), traits: {} }),
    page({ user_id: 'u-bob' }, '2026-02-26T09:00:05Z', '/docs'),
    // Carol: no group call, a business e-mail at acme.com (any case).
    e({ type: 'identify', user_id: 'u-carol', timestamp: at('2026-02-10T12:00:00Z'), traits: { firstName: 'Carol', lastName: 'Shaw', email: 'Carol@ACME.com', title: 'Engineer' } }),
    page({ user_id: 'u-carol' }, '2026-02-10T12:00:10Z', '/blog'),
    // Lena: a lead who filled a form without signing up: anonymous only, a business e-mail.
    e({ type: 'identify', anonymous_id: 'anon-lena', timestamp: at('2026-02-28T15:00:00Z'), traits: { name: 'Lena Meyer', email: 'lena@acme.com' } }),
    page({ anonymous_id: 'anon-lena' }, '2026-02-28T15:00:05Z', '/demo', { context: { location: { city: 'Lyon', country: 'France' } } }),
    // Dan: a gmail address: no company, least of all gmail.com.
    e({ type: 'identify', user_id: 'u-dan', timestamp: at('2026-02-15T12:00:00Z'), traits: { name: 'Dan', email: 'dan@gmail.com' } }),
    page({ user_id: 'u-dan' }, '2026-02-15T12:00:10Z', '/pricing'),
    // Eve works elsewhere; a stranger browses anonymously.
    e({ type: 'group', user_id: 'u-eve', group_id: 'g-globex', timestamp: at('2026-02-15T12:00:00Z'), traits: { name: 'Globex', website: 'https://globex.com/about' } }),
    page({ user_id: 'u-eve' }, '2026-02-15T12:00:10Z', '/pricing'),
    page({ anonymous_id: 'anon-stranger' }, '2026-02-15T12:00:10Z', '/pricing'),
    // Before the window: counts for "last seen" history, not for the 30 days.
    page({ user_id: 'u-carol' }, '2026-01-10T12:00:00Z', '/old'),
    // After now (a client clock ahead): not yet.
    page({ user_id: 'u-carol' }, '2026-03-05T12:00:00Z', '/future'),
  ]
}

beforeAll(async () => {
  t = await createTestApi({ logoUrlTemplate: LOGO })
  ;({ cookie, orgId: acmeOrg } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: otherCookie, orgId: otherOrg } = await t.signUpWithOrg('Olga', 'Other'))
  await insertEvents(t.events, [
    ...events(acmeOrg),
    // Another organisation tracks a company on the same domain: none of it reaches the first's page.
    eventRow({ org_id: otherOrg, type: 'group', user_id: 'u-ada', group_id: 'g-acme', timestamp: at('2026-03-01T09:00:00Z'), traits: { name: 'Acme (other org)', domain: 'acme.com' } }),
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'u-ada', timestamp: at('2026-03-01T09:00:01Z'), page_path: '/elsewhere' }),
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'u-zed', anonymous_id: 'anon-lena', timestamp: at('2026-03-01T09:00:02Z'), page_path: '/elsewhere' }),
  ])
  // What the identity worker stores of the visits' addresses (DB-IP's places): Bob's backend visit (no anonymous id) from
  // Cupertino; Lena's from Paris, though her browser said Lyon; Ada has none (her time zone's city stays).
  await insertVisits(t.events, [
    { org_id: acmeOrg, user_id: 'u-bob', started_at: at('2026-02-26T09:00:05Z'), ip_country: 'US', ip_region: 'California', ip_city: 'Cupertino' },
    { org_id: acmeOrg, anonymous_id: 'anon-lena', started_at: at('2026-02-28T15:00:05Z'), ip_country: 'FR', ip_region: 'Île-de-France', ip_city: 'Paris' },
    // Carol's only located visit is through a VPN's data centre: no place.
    { org_id: acmeOrg, user_id: 'u-carol', started_at: at('2026-02-10T12:00:10Z'), ip_kind: 'hosting', ip_country: 'US', ip_region: 'Virginia', ip_city: 'Ashburn' },
    // The other organisation's visit of Ada's user id: never on the first's page.
    { org_id: otherOrg, user_id: 'u-ada', started_at: at('2026-03-01T09:00:01Z'), ip_country: 'JP', ip_city: 'Osaka' },
  ])
  // Business intents, as the admin's import stores them: the domain's within the 30 days, one before them, another domain's.
  await t.events.client.insert({
    table: 'business_intents',
    format: 'JSONEachRow',
    values: [
      { company_domain: 'acme.com', topic: 'Visitor identification', score: 87, date: '2026-02-27', imported_at: '2026-03-01 00:00:00.000' },
      { company_domain: 'acme.com', topic: 'Product analytics', score: 64.5, date: '2026-02-27', imported_at: '2026-03-01 00:00:00.000' },
      { company_domain: 'acme.com', topic: 'Data warehouse', score: 40, date: '2026-03-01', imported_at: '2026-03-01 00:00:00.000' },
      { company_domain: 'acme.com', topic: 'Too old', score: 99, date: '2026-01-15', imported_at: '2026-03-01 00:00:00.000' },
      { company_domain: 'globex.com', topic: 'Visitor identification', score: 12, date: '2026-02-27', imported_at: '2026-03-01 00:00:00.000' },
    ],
  })
})
afterAll(() => t.close())

async function get<T>(path: string, who = cookie): Promise<T> {
  const res = await t.call('GET', path, { cookie: who })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as T
}
const detail = () => get<CompanyDetail>('/api-v2/orgs/acme/companies/acme.com')

describe('GET /api-v2/orgs/{organization}/companies/{company}', () => {
  it('names the company from its group traits, with its logo and website', async () => {
    const c = await detail()
    expect(c).toMatchObject({ name: 'Acme Inc', domain: 'acme.com', logoUrl: 'https://logos.example/acme.com.png', website: 'https://acme.com', timezone: 'UTC', truncated: false })
  })

  it('lists the firmographic traits, the newest value of each winning', async () => {
    const c = await detail()
    expect(c.traits).toEqual([
      { key: 'industry', icon: 'string', label: 'Industry', value: 'Software' },
      { key: 'employees', icon: 'number', label: 'Employees', value: 120 },
      { key: 'revenue', icon: 'number', label: 'Revenue', value: 5_000_000 },
      { key: 'country', icon: 'string', label: 'Country', value: 'DE' },
      // The place most of its people's addresses were seen at (Bob's Cupertino and Lena's Paris tie on people and
      // visits, both with a city: the latest wins).
      { key: 'location', icon: 'string', label: 'Location', value: 'Paris, France' },
      { key: 'plan', icon: 'string', label: 'Plan', value: 'enterprise' },
    ])
  })

  it("lists the domain's business intents of the 30 days, newest first, then highest score", async () => {
    expect((await detail()).intents).toEqual([
      { topic: 'Data warehouse', score: 40, date: '2026-03-01' },
      { topic: 'Visitor identification', score: 87, date: '2026-02-27' },
      { topic: 'Product analytics', score: 64.5, date: '2026-02-27' },
    ])
    expect((await get<CompanyDetail>('/api-v2/orgs/acme/companies/globex.com')).intents).toEqual([{ topic: 'Visitor identification', score: 12, date: '2026-02-27' }])
  })

  it("locates each person by their events' context, else their address's place, else their time zone", async () => {
    const c = await detail()
    const located = (date: string) => c.dates.find((d) => d.date === date)!.users.map((u) => [u.id, u.location])
    // Ada: no located visit, her time zone's city. Bob: his address's place. Lena: what her browser said wins over her address.
    expect(located('2026-03-01')).toEqual([['u-ada', 'Berlin']])
    expect(located('2026-02-26')).toEqual([['u-bob', 'Cupertino, United States']])
    expect(located('2026-02-28')).toEqual([['anon:anon-lena', 'Lyon, France']])
    // Carol's only place is a data centre's: her time zone's city.
    expect(located('2026-02-10')).toEqual([['u-carol', 'Berlin']])
  })

  it('counts the visitors and page views of the 30 days: group members, business e-mails, linked anonymous visits, leads', async () => {
    const c = await detail()
    // Ada (with her anonymous visits), Bob, Carol, Lena; not Dan (gmail), Eve (Globex), the stranger, nor the other organisation's.
    expect(c.visitors).toBe(4)
    // Ada 2 anonymous + 4 on 03-01, Bob 1, Carol 1, Lena 1; not Carol's January or future pages.
    expect(c.pageViews).toBe(9)
    expect(c.lastSeen).toBe('2026-03-01T11:20:00.000Z')
  })

  it('draws page views per day over the 30 days, zero-filled, summing to the count', async () => {
    const c = await detail()
    expect(c.graph).toHaveLength(30)
    expect(c.graph[0]).toEqual({ date: '2026-02-01', value: 0 })
    expect(c.graph.at(-1)).toEqual({ date: '2026-03-02', value: 0 })
    const byDate = Object.fromEntries(c.graph.filter((p) => p.value > 0).map((p) => [p.date, p.value]))
    expect(byDate).toEqual({ '2026-02-10': 1, '2026-02-20': 2, '2026-02-26': 1, '2026-02-28': 1, '2026-03-01': 4 })
    expect(c.graph.reduce((n, p) => n + p.value, 0)).toBe(c.pageViews)
  })

  it('groups the activity by date (newest first), then by person, with their timeline', async () => {
    const c = await detail()
    expect(c.dates.map((d) => d.date)).toEqual(['2026-03-01', '2026-02-28', '2026-02-26', '2026-02-20', '2026-02-10'])
    const [ada] = c.dates[0]!.users
    expect(ada).toMatchObject({ id: 'u-ada', name: 'Ada Lovelace', email: 'ada@acme.com', role: 'CTO', location: 'Berlin', lastSeen: '2026-03-01T11:20:00.000Z', pageCount: 4 })
    expect(ada!.events.map((e) => [e.time, e.type, e.name])).toEqual([
      ['2026-03-01T10:00:00.000Z', 'page', 'Title of /app'],
      ['2026-03-01T10:00:30.000Z', 'track', 'Report Created'],
      ['2026-03-01T10:02:00.000Z', 'page', 'Title of /app/reports'],
      ['2026-03-01T11:00:00.000Z', 'page', 'App home'],
      ['2026-03-01T11:20:00.000Z', 'page', 'Title of /app/settings'],
    ])
  })

  it('measures time spent: the gap to the next event of the session, 30 minutes apart is a new session, a gap counts 10 minutes at most', async () => {
    const [ada] = (await detail()).dates[0]!.users
    expect(ada!.events.map((e) => e.timeSpent)).toEqual([30, 90, 0, 600, 0])
    expect(ada!.timeSpentOnSite).toBe(720)
  })

  it("counts a person's anonymous visits before signing up as theirs", async () => {
    const day = (await detail()).dates.find((d) => d.date === '2026-02-20')!
    expect(day.users).toHaveLength(1)
    expect(day.users[0]).toMatchObject({ id: 'u-ada', name: 'Ada Lovelace', pageCount: 2 })
    expect(day.users[0]!.events.map((e) => e.name)).toEqual(['Title of /pricing', 'Title of /signup', 'Signed Up'])
    expect(day.users[0]!.events.map((e) => e.timeSpent)).toEqual([60, 60, 0])
  })

  it('shows members found by group id alone, by business e-mail, and anonymous leads, by name', async () => {
    const c = await detail()
    const person = (date: string) => c.dates.find((d) => d.date === date)!.users[0]
    expect(person('2026-02-26')).toMatchObject({ id: 'u-bob', name: 'u-bob', role: null })
    expect(person('2026-02-10')).toMatchObject({ id: 'u-carol', name: 'Carol Shaw', email: 'Carol@ACME.com', role: 'Engineer' })
    expect(person('2026-02-28')).toMatchObject({ id: 'anon:anon-lena', name: 'Lena Meyer', location: 'Lyon, France' })
  })

  it('counts the days in the organisation’s time zone', async () => {
    const save = await t.call('POST', '/api-v2/orgs/acme/settings/save-settings', { cookie, body: { timezone: 'Asia/Tokyo', companyPaths: [] } })
    expect(save.status).toBe(200)
    try {
      const c = await detail()
      expect(c.timezone).toBe('Asia/Tokyo')
      // 09:00 UTC is 18:00 in Tokyo: still 2026-03-02 there; Ada's 11:00 and 11:20 UTC pages fall on Tokyo's evening of 03-01.
      expect(c.graph.at(-1)!.date).toBe('2026-03-02')
      expect(c.dates[0]!.date).toBe('2026-03-01')
      // Lena's 15:00 UTC visit on 02-28 is past midnight in Tokyo.
      expect(c.dates.find((d) => d.date === '2026-03-01')!.users.map((u) => u.id).sort()).toEqual(['anon:anon-lena', 'u-ada'])
    } finally {
      await t.call('POST', '/api-v2/orgs/acme/settings/save-settings', { cookie, body: { timezone: 'UTC', companyPaths: [] } })
    }
  })

  it('finds the company by any spelling of its domain', async () => {
    for (const spelling of ['ACME.com', 'www.acme.com']) {
      expect((await get<CompanyDetail>(`/api-v2/orgs/acme/companies/${spelling}`)).domain).toBe('acme.com')
    }
  })

  it('finds a company by its website trait', async () => {
    const c = await get<CompanyDetail>('/api-v2/orgs/acme/companies/globex.com')
    expect(c).toMatchObject({ name: 'Globex', website: 'https://globex.com/about', visitors: 1, pageViews: 1 })
  })

  it('answers 404 for a domain no event names, and for a free-mail domain', async () => {
    for (const domain of ['unknown.com', 'gmail.com']) {
      const res = await t.call('GET', `/api-v2/orgs/acme/companies/${domain}`, { cookie })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ success: false, message: `Company ${domain} not found` })
    }
  })

  it('answers 400 for something that is not a domain', async () => {
    const res = await t.call('GET', '/api-v2/orgs/acme/companies/not%20a%20domain', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ message: 'Company must be a domain, e.g. acme.com' })
  })

  it("shows each organisation only its own events, and hides an organisation's company pages from non-members", async () => {
    const other = await get<CompanyDetail>('/api-v2/orgs/other/companies/acme.com', otherCookie)
    // There, u-ada is in the group; u-zed is not, though the anonymous id he carries is a lead's in the first organisation.
    expect(other).toMatchObject({ name: 'Acme (other org)', visitors: 1, pageViews: 1 })
    expect(other.dates.flatMap((d) => d.users.map((u) => u.id))).toEqual(['u-ada'])
    // Its own visit's place, not the first organisation's time zone or places.
    expect(other.dates[0]!.users[0]!.location).toBe('Osaka, Japan')
    expect(other.traits).toEqual([{ key: 'location', icon: 'string', label: 'Location', value: 'Osaka, Japan' }])
    const foreign = await t.call('GET', '/api-v2/orgs/acme/companies/acme.com', { cookie: otherCookie })
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toMatchObject({ message: 'Organization not found' })
    const anonymous = await t.call('GET', '/api-v2/orgs/acme/companies/acme.com')
    expect(anonymous.status).toBe(401)
  })
})

describe('the company tabs', () => {
  it('Visitors: everyone active in the 30 days with their sessions, pages, events and time', async () => {
    const { visitors } = await get<CompanyVisitors>('/api-v2/orgs/acme/companies/acme.com/visitors')
    expect(visitors.map((v) => v.id)).toEqual(['u-ada', 'anon:anon-lena', 'u-bob', 'u-carol'])
    expect(visitors[0]).toEqual({
      id: 'u-ada',
      name: 'Ada Lovelace',
      email: 'ada@acme.com',
      role: 'CTO',
      location: 'Berlin',
      anonymous: false,
      firstSeen: '2026-02-20T08:00:00.000Z',
      lastSeen: '2026-03-01T11:20:00.000Z',
      sessions: 3,
      pageViews: 6,
      events: 2,
      timeSpentOnSite: 840,
      topPages: [
        { path: '/app', views: 2 },
        { path: '/app/reports', views: 1 },
        { path: '/app/settings', views: 1 },
      ],
    })
    expect(visitors[1]).toMatchObject({ name: 'Lena Meyer', anonymous: true, sessions: 1, pageViews: 1, location: 'Lyon, France' })
    expect(visitors[2]).toMatchObject({ id: 'u-bob', location: 'Cupertino, United States' })
    // The tab's count is the page's "Visitors (30d)".
    expect(visitors).toHaveLength((await detail()).visitors)
  })

  it('Analytics: page views, visitors and events per day, top pages and top events', async () => {
    const a = await get<CompanyAnalytics>('/api-v2/orgs/acme/companies/acme.com/analytics')
    expect(a.pageViews).toEqual((await detail()).graph)
    expect(a.visitors.find((p) => p.date === '2026-03-01')).toEqual({ date: '2026-03-01', value: 1 })
    expect(a.events.find((p) => p.date === '2026-02-20')).toEqual({ date: '2026-02-20', value: 1 })
    expect(a.topPages[0]).toEqual({ path: '/app', title: 'Title of /app', views: 2, visitors: 1 })
    expect(a.topPages).toHaveLength(8)
    expect(a.topEvents).toEqual([
      { name: 'Report Created', count: 1, visitors: 1 },
      { name: 'Signed Up', count: 1, visitors: 1 },
    ])
  })

  it('Company details: every trait, the group ids, how fl0 knows the company and its people', async () => {
    const d = await get<CompanyDetails>('/api-v2/orgs/acme/companies/acme.com/details')
    expect(d).toMatchObject({
      name: 'Acme Inc',
      domain: 'acme.com',
      groupIds: ['g-acme'],
      identifiedBy: ['group', 'email'],
      knownPeople: 4,
      firstSeen: '2026-01-10T12:00:00.000Z',
      lastSeen: '2026-03-01T11:20:00.000Z',
    })
    expect(d.traits.map((x) => [x.label, x.value])).toEqual([
      ['Industry', 'Software'],
      ['Employees', 120],
      ['Revenue', 5_000_000],
      ['Country', 'DE'],
      ['Location', 'Paris, France'],
      ['Plan', 'enterprise'],
      ['Address city', 'Berlin'],
    ])
  })

  it('the tabs answer 404 for an unknown company too', async () => {
    for (const tab of ['visitors', 'analytics', 'details']) {
      expect((await t.call('GET', `/api-v2/orgs/acme/companies/unknown.com/${tab}`, { cookie })).status).toBe(404)
    }
  })
})

describe('a company known by its address alone', () => {
  it("counts the visitors of its range, but not someone whose own company, told from another browser or the backend, is another", async () => {
    const e = (partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: acmeOrg, ...partial })
    const office = { ip_company: 'Initech', ip_domain: 'initech.com', ip_kind: 'company', ip_source: 'partner' }
    await insertEvents(t.events, [
      // Jo browses from Initech's office and never signs up.
      e({ type: 'page', anonymous_id: 'anon-jo', timestamp: at('2026-02-27T11:00:00Z'), page_path: '/pricing' }),
      // Ivy browses from there too, signs up in that browser from home the next day, and the backend tells her Globex e-mail.
      e({ type: 'page', anonymous_id: 'anon-ivy', timestamp: at('2026-02-27T10:00:00Z'), page_path: '/pricing' }),
      e({ type: 'track', event: 'Signed Up', user_id: 'u-ivy', anonymous_id: 'anon-ivy', timestamp: at('2026-02-28T10:00:00Z') }),
      e({ type: 'identify', user_id: 'u-ivy', timestamp: at('2026-02-28T10:01:00Z'), traits: { name: 'Ivy Chen', email: 'ivy@globex.com' } }),
    ])
    await insertVisits(t.events, [
      { org_id: acmeOrg, anonymous_id: 'anon-jo', started_at: at('2026-02-27T11:00:00Z'), ...office },
      { org_id: acmeOrg, anonymous_id: 'anon-ivy', started_at: at('2026-02-27T10:00:00Z'), ...office },
      { org_id: acmeOrg, anonymous_id: 'anon-ivy', user_id: 'u-ivy', started_at: at('2026-02-28T10:00:00Z'), ip_kind: 'isp', ip_source: 'free' },
      { org_id: acmeOrg, user_id: 'u-ivy', started_at: at('2026-02-28T10:01:00Z'), email: 'ivy@globex.com' },
    ])
    const { visitors } = await get<CompanyVisitors>('/api-v2/orgs/acme/companies/initech.com/visitors')
    expect(visitors.map((v) => v.id)).toEqual(['anon:anon-jo'])
    expect(await get<CompanyDetails>('/api-v2/orgs/acme/companies/initech.com/details')).toMatchObject({ domain: 'initech.com', identifiedBy: ['ip'], knownPeople: 1 })
  })
})

describe('without a logo service', () => {
  it('answers logoUrl null', async () => {
    const bare = await createTestApi()
    try {
      const { cookie: c } = await bare.signUp('Ada')
      await bare.createOrg(c, 'Acme')
      const me = (await (await bare.call('GET', '/api/users/me', { cookie: c })).json()) as { orgs: Array<{ id: string }> }
      await insertEvents(bare.events, [eventRow({ org_id: me.orgs[0]!.id, type: 'group', user_id: 'u', group_id: 'g', traits: { domain: 'acme.com' } })])
      const res = await bare.call('GET', '/api-v2/orgs/acme/companies/acme.com', { cookie: c })
      expect(await res.json()).toMatchObject({ name: 'acme.com', logoUrl: null, visitors: 0, pageViews: 0, lastSeen: null, dates: [] })
    } finally {
      await bare.close()
    }
  })
})

describe('a company by its id (the group id)', () => {
  it('GET .../companies/by-id/{id}: the domain and name of the group calls with that id', async () => {
    expect(await get('/api-v2/orgs/acme/companies/by-id/g-acme')).toEqual({ id: 'g-acme', domain: 'acme.com', name: 'Acme Inc' })
    expect(await get('/api-v2/orgs/acme/companies/by-id/g-globex')).toEqual({ id: 'g-globex', domain: 'globex.com', name: 'Globex' })
  })

  it('opens the company page and its tabs by id as by domain', async () => {
    expect((await get<CompanyDetail>('/api-v2/orgs/acme/companies/g-acme')).domain).toBe('acme.com')
    expect((await get<CompanyDetails>('/api-v2/orgs/acme/companies/g-acme/details')).domain).toBe('acme.com')
  })

  it('answers 404 for an unknown id, and for another organisation\'s id to a stranger', async () => {
    const unknown = await t.call('GET', '/api-v2/orgs/acme/companies/by-id/cmp_nothing', { cookie })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ success: false, message: 'Company cmp_nothing not found' })
    // The other organisation has a g-acme too: its own name, never the first's.
    expect(await get('/api-v2/orgs/other/companies/by-id/g-acme', otherCookie)).toEqual({ id: 'g-acme', domain: 'acme.com', name: 'Acme (other org)' })
    // Its member asking for the first organisation's id: the organisation is not theirs.
    const stranger = await t.call('GET', '/api-v2/orgs/acme/companies/by-id/g-acme', { cookie: otherCookie })
    expect(stranger.status).toBe(404)
    expect(await stranger.json()).toMatchObject({ message: 'Organization not found' })
    // g-globex exists only in the first organisation.
    expect((await t.call('GET', '/api-v2/orgs/other/companies/by-id/g-globex', { cookie: otherCookie })).status).toBe(404)
  })
})

describe('a company busier than the feed holds', () => {
  it('shows the newest 5,000 events, says so, and times them as over the whole window; its numbers count every event', async () => {
    const { cookie: busyCookie, orgId: busy } = await t.signUpWithOrg('Bea', 'Busy')
    // Two people of busy.com: Bea's one session of 5,010 page views a minute apart (2026-02-25 00:00 to
    // 2026-02-28 11:29), and Cy's one page 40 minutes before the feed's oldest event.
    const start = Date.parse('2026-02-25T00:00:00Z')
    await insertEvents(t.events, [
      eventRow({ org_id: busy, type: 'group', user_id: 'u-bea', group_id: 'g-busy', timestamp: at('2026-02-20T00:00:00Z'), traits: { name: 'Busy', domain: 'busy.com' } }),
      eventRow({ org_id: busy, type: 'group', user_id: 'u-cy', group_id: 'g-busy', timestamp: at('2026-02-20T00:00:00Z'), traits: {} }),
      ...Array.from({ length: 5010 }, (_, i) => eventRow({ org_id: busy, type: 'page', user_id: 'u-bea', timestamp: new Date(start + i * 60_000), page_path: `/p${i}`, page_title: `Page ${i}` })),
      eventRow({ org_id: busy, type: 'page', user_id: 'u-cy', timestamp: new Date(start + 9 * 60_000 - 40 * 60_000), page_path: '/cy' }),
    ])
    const c = await get<CompanyDetail>('/api-v2/orgs/busy/companies/busy.com', busyCookie)
    expect(c).toMatchObject({ truncated: true, pageViews: 5011, visitors: 2, lastSeen: '2026-02-28T11:29:00.000Z' })
    const shown = c.dates.flatMap((d) => d.users).flatMap((u) => u.events)
    expect(shown).toHaveLength(5000)
    // The newest 5,000 are Bea's pages 10 to 5,009: each read until the next, a minute; the last has no next.
    expect(c.dates.flatMap((d) => d.users).map((u) => u.id)).not.toContain('u-cy')
    expect(shown.map((e) => e.path).sort()).toEqual(Array.from({ length: 5000 }, (_, i) => `/p${i + 10}`).sort())
    expect(shown.filter((e) => e.timeSpent !== 60).map((e) => [e.path, e.timeSpent])).toEqual([['/p5009', 0]])
  })

  it('shows when a company quiet for the 30 days was last seen, never a visit stamped ahead of now', async () => {
    const { cookie: quietCookie, orgId: quiet } = await t.signUpWithOrg('Quinn', 'Quiet')
    await insertEvents(t.events, [
      eventRow({ org_id: quiet, type: 'group', user_id: 'u-q', group_id: 'g-q', timestamp: at('2026-01-10T00:00:00Z'), traits: { name: 'Quiet', domain: 'quiet.com' } }),
      eventRow({ org_id: quiet, type: 'page', user_id: 'u-q', timestamp: at('2026-01-15T10:00:00Z'), page_path: '/a' }),
      eventRow({ org_id: quiet, type: 'track', event: 'Clicked', user_id: 'u-q', timestamp: at('2026-01-20T10:00:00Z') }),
      // An identify says who, not what: not activity.
      eventRow({ org_id: quiet, type: 'identify', user_id: 'u-q', timestamp: at('2026-01-25T10:00:00Z'), traits: { name: 'Quinn' } }),
      // A client clock ahead: counts once its time comes.
      eventRow({ org_id: quiet, type: 'page', user_id: 'u-q', timestamp: at('2026-03-05T10:00:00Z'), page_path: '/b' }),
    ])
    const c = await get<CompanyDetail>('/api-v2/orgs/quiet/companies/quiet.com', quietCookie)
    expect(c).toMatchObject({ name: 'Quiet', visitors: 0, pageViews: 0, lastSeen: '2026-01-20T10:00:00.000Z', dates: [], truncated: false })
  })
})
