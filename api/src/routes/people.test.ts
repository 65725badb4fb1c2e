import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompanyFeatureAdoption, CompanyProfile, IngestedEvent, PeopleList, ProfileEvents, ProfileTraitSetting, UserProfile } from '@fl0/contracts'
import { createMetric } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The people list and the profiles on a small, fixed set of events in chDB,
 * every expected number worked out by hand from the rows below. The test
 * clock stands at 2026-03-02 09:00 UTC (the organisation's zone is UTC), so
 * the profiles' 30 days are 2026-02-01 … 2026-03-02, today is 03-02 and the
 * last 7 days start 02-24.
 *
 * Who is who (identity.ts, members.ts):
 * - Ada (u-ada): visited as anon-ada, signed up on 02-20 (the link), group
 *   g-acme names acme.com; 4 visits (02-20, 03-01 10:00, 03-01 11:00 after 58
 *   minutes, 03-02).
 * - Bob (u-bob): in g-acme by group id only, a gmail address; anon-shared was
 *   linked to him first (02-26), to Dan later (02-27), so its anonymous page
 *   of 02-28 is Bob's; 3 visits.
 * - Carol (u-carol): acme.com by business e-mail, a hashed e-mail; a page
 *   before the window and one after now (not yet); 2 visits.
 * - Later (u-later): calls stamped after now only, so not listed yet.
 * - Dan (u-dan): gmail, the company he typed ('Freelance') but no domain.
 * - Eve (u-eve): a group naming globex.com by its website, and an older
 *   business e-mail at initech.com: the group wins.
 * - Quiet (u-quiet): identified, never active.
 * - 20 bulk users, one page each in January: they fill page 1 and spill over.
 * - Anonymous: Lena (a lead's form, acme.com e-mail) and a stranger.
 * - Another organisation has its own u-ada and an acme.com group.
 */
let t: TestApi
let cookie: string
let otherCookie: string
let org: string
let otherOrg: string
const metricIds: Record<string, string> = {}

const at = (iso: string) => new Date(iso)

function events(orgId: string): IngestedEvent[] {
  const e = (partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: orgId, ...partial })
  const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string, path: string) => e({ type: 'page', ...ids, timestamp: at(iso), page_path: path, page_title: `Title of ${path}` })
  const track = (ids: { user_id?: string; anonymous_id?: string }, iso: string, event: string, extra: Partial<Omit<IngestedEvent, 'timestamp'>> = {}) =>
    e({ type: 'track', ...ids, timestamp: at(iso), event, ...extra })
  const identify = (ids: { user_id?: string; anonymous_id?: string }, iso: string, traits: Record<string, unknown>) => e({ type: 'identify', ...ids, timestamp: at(iso), traits })
  const group = (userId: string, iso: string, groupId: string, traits: Record<string, unknown>) => e({ type: 'group', user_id: userId, group_id: groupId, timestamp: at(iso), traits })
  const ada = { user_id: 'u-ada' }
  return [
    // Ada
    page({ anonymous_id: 'anon-ada' }, '2026-02-20T08:00:00Z', '/pricing'),
    page({ anonymous_id: 'anon-ada' }, '2026-02-20T08:01:00Z', '/signup'),
    track({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-02-20T08:02:00Z', 'Signed Up', { message_id: 'msg-ada-signup', properties: { plan: 'pro', seats: 3, nested: { ok: true } }, context: { ip: '203.0.113.7' } }),
    identify({ user_id: 'u-ada', anonymous_id: 'anon-ada' }, '2026-02-20T08:02:01Z', { name: 'Ada Lovelace', email: 'ada@acme.com', role: 'CTO', linkedinUrl: 'https://www.linkedin.com/in/ada' }),
    group('u-ada', '2026-02-20T08:02:02Z', 'g-acme', { name: 'Acme Inc', domain: 'www.ACME.com', industry: 'Software', employees: 120, revenue: 5_000_000 }),
    // A later identify with an empty role does not unset it.
    identify(ada, '2026-03-01T09:59:00Z', { role: '', plan: 'pro' }),
    page(ada, '2026-03-01T10:00:00Z', '/app'),
    track(ada, '2026-03-01T10:00:30Z', 'Report Created'),
    track(ada, '2026-03-01T10:02:00Z', 'Report Created'),
    track(ada, '2026-03-01T11:00:00Z', 'Report Exported'),
    track(ada, '2026-03-02T08:30:00Z', 'Report Created'),
    // Bob
    // Bob told who he is before anyone else at Acme did, with a personal address.
    identify({ user_id: 'u-bob' }, '2026-01-05T08:59:00Z', { firstName: 'Bob', lastName: 'Stone', email: 'bob@gmail.com', title: 'Engineer' }),
    group('u-bob', '2026-02-26T08:59:30Z', 'g-acme', {}),
    page({ user_id: 'u-bob', anonymous_id: 'anon-shared' }, '2026-02-26T09:00:00Z', '/docs'),
    track({ user_id: 'u-bob' }, '2026-02-26T09:10:00Z', 'Report Created'),
    page({ anonymous_id: 'anon-shared' }, '2026-02-28T10:00:00Z', '/blog'),
    track({ user_id: 'u-bob' }, '2026-03-02T07:00:00Z', 'Dashboard Viewed'),
    // Carol
    identify({ user_id: 'u-carol' }, '2026-01-10T11:59:00Z', { name: 'Carol Shaw', email: 'Carol@ACME.com', email_sha256: 'a3f1c0ffee' }),
    page({ user_id: 'u-carol' }, '2026-01-10T12:00:00Z', '/old'),
    page({ user_id: 'u-carol' }, '2026-02-10T12:00:00Z', '/blog'),
    page({ user_id: 'u-carol' }, '2026-03-05T12:00:00Z', '/future'),
    // Later: every call of theirs stamped after now (a clock ahead): not anyone yet.
    identify({ user_id: 'u-later' }, '2026-03-04T08:59:00Z', { name: 'Lou Later' }),
    page({ user_id: 'u-later' }, '2026-03-04T09:00:00Z', '/soon'),
    // Dan
    // A title beats a job title, whichever is newer; a hashed e-mail under the last name fl0 reads it by.
    identify({ user_id: 'u-dan' }, '2026-02-15T11:58:00Z', { title: 'Owner', email_md5: '0bd1b5e8c2f3a4d5e6f708192a3b4c5d' }),
    identify({ user_id: 'u-dan' }, '2026-02-15T11:59:00Z', { name: 'Dan', email: 'dan@gmail.com', company: 'Freelance', employees: '1', jobTitle: 'Consultant' }),
    page({ user_id: 'u-dan' }, '2026-02-15T12:00:00Z', '/pricing'),
    page({ user_id: 'u-dan', anonymous_id: 'anon-shared' }, '2026-02-27T10:00:00Z', '/pricing'),
    // Eve
    identify({ user_id: 'u-eve' }, '2026-02-01T10:00:00Z', { name: 'Eve Polastri', email: 'eve@initech.com', linkedin: 'linkedin.com/in/eve' }),
    group('u-eve', '2026-02-15T12:00:00Z', 'g-globex', { name: 'Globex', website: 'https://globex.com/about', employees: 4000 }),
    page({ user_id: 'u-eve' }, '2026-02-15T12:00:10Z', '/pricing'),
    // Quiet
    identify({ user_id: 'u-quiet' }, '2026-02-01T10:00:00Z', { email: 'quiet@hooli.com' }),
    // Lena, a lead who never signed up, and a stranger.
    identify({ anonymous_id: 'anon-lena' }, '2026-02-28T15:00:00Z', { name: 'Lena Meyer', email: 'lena@acme.com' }),
    page({ anonymous_id: 'anon-lena' }, '2026-02-28T15:00:05Z', '/demo'),
    page({ anonymous_id: 'anon-stranger' }, '2026-02-15T13:00:00Z', '/pricing'),
    // 20 bulk users, one page each, oldest u-bulk-00.
    ...Array.from({ length: 20 }, (_, i) => page({ user_id: `u-bulk-${String(i).padStart(2, '0')}` }, `2026-01-15T10:${String(i).padStart(2, '0')}:00Z`, '/')),
  ]
}

async function get<T>(path: string, who = cookie): Promise<T> {
  const res = await t.call('GET', path, { cookie: who })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as T
}

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie, orgId: org } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: otherCookie, orgId: otherOrg } = await t.signUpWithOrg('Olga', 'Other'))
  await insertEvents(t.events, [
    ...events(org),
    eventRow({ org_id: otherOrg, type: 'identify', user_id: 'u-ada', timestamp: at('2026-03-01T09:00:00Z'), traits: { name: 'Other Ada', email: 'ada@other.example' } }),
    eventRow({ org_id: otherOrg, type: 'group', user_id: 'u-ada', group_id: 'g-x', timestamp: at('2026-03-01T09:00:00Z'), traits: { name: 'Acme (other org)', domain: 'acme.com' } }),
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'u-ada', timestamp: at('2026-03-01T09:00:01Z'), page_path: '/elsewhere' }),
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'u-zed', anonymous_id: 'anon-lena', timestamp: at('2026-03-01T09:00:02Z'), page_path: '/elsewhere' }),
    // A user id as clients send them: an address with a slash and a space in it.
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'ops/jo doe@x.io', timestamp: at('2026-01-01T09:00:00Z'), page_path: '/' }),
    eventRow({ org_id: otherOrg, type: 'track', event: 'Report Created', user_id: 'ops/jo doe@x.io', timestamp: at('2026-01-02T09:00:00Z') }),
  ])
  for (const [name, events] of [['Reporting', ['Report Created', 'Report Exported']], ['Dashboards', ['Dashboard Viewed']], ['Onboarding', ['Signed Up']], ['Billing', ['Invoice Paid']]] as const) {
    const res = await t.call('POST', '/api-v2/orgs/acme/features', { cookie, body: { name, events } })
    expect(res.status).toBe(201)
  }
  const metric = async (name: string, definition: unknown) => (metricIds[name] = (await createMetric(t.sql, { orgId: org, name, description: '', category: 'other', definition })).id)
  await metric('Reports made', { events: [{ name: 'Report Created' }] })
  await metric('Engagement', { events: [{ name: 'Report Created' }, { name: 'Report Exported' }, { name: 'Report Created' }] })
  await metric('Anything', { isAnyEvent: true })
  await metric('Broken', { events: 'not a list' })
})
afterAll(() => t.close())

describe('GET /api-v2/orgs/{organization}/people', () => {
  it('lists identified people, most recently seen first, 20 a page, with the total', async () => {
    const first = await get<PeopleList>('/api-v2/orgs/acme/people')
    expect(first.totalUsers).toBe(26)
    expect(first.users.map((u) => u.id)).toEqual([
      'u-ada',
      'u-bob',
      'u-dan',
      'u-eve',
      'u-carol',
      ...Array.from({ length: 15 }, (_, i) => `u-bulk-${String(19 - i).padStart(2, '0')}`),
    ])
    const second = await get<PeopleList>('/api-v2/orgs/acme/people?page=2')
    expect(second.totalUsers).toBe(26)
    expect(second.users.map((u) => u.id)).toEqual(['u-bulk-04', 'u-bulk-03', 'u-bulk-02', 'u-bulk-01', 'u-bulk-00', 'u-quiet'])
    // Past the end: no one, and still the total.
    expect(await get<PeopleList>('/api-v2/orgs/acme/people?page=3')).toEqual({ totalUsers: 26, users: [] })
    expect([...first.users, ...second.users].map((u) => u.id)).not.toContain('u-later')
    // A page that is no number is the first.
    expect((await get<PeopleList>('/api-v2/orgs/acme/people?page=x')).users[0]!.id).toBe('u-ada')
  })

  it('counts only what happened by now, however many visitors a sender stamped in the future', async () => {
    const { cookie: ahead, orgId } = await t.signUpWithOrg('Abe', 'Ahead')
    const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string) => eventRow({ org_id: orgId, type: 'page', ...ids, timestamp: at(iso), page_path: '/' })
    await insertEvents(t.events, [
      page({ user_id: 'u-now' }, '2026-03-01T10:00:00Z'),
      page({ user_id: 'u-now' }, '2026-03-04T10:00:00Z'),
      // More clock-ahead visitors than the list names one by one (list.ts's AHEAD_LISTED).
      ...Array.from({ length: 10_001 }, (_, i) => page({ anonymous_id: `ahead-${i}` }, '2099-01-01T00:00:00Z')),
    ])
    expect(await get<PeopleList>('/api-v2/orgs/ahead/people?ip2company=true', ahead)).toMatchObject({ totalUsers: 1, users: [{ id: 'u-now', lastSeen: '2026-03-01T10:00:00.000Z' }] })
  })

  it('gives each person their name, company, visits, role, last seen, size, LinkedIn and e-mail flags', async () => {
    const { users } = await get<PeopleList>('/api-v2/orgs/acme/people')
    const row = (id: string) => users.find((u) => u.id === id)
    expect(row('u-ada')).toEqual({
      id: 'u-ada',
      anonymous: false,
      visitor: 'Ada Lovelace',
      email: 'ada@acme.com',
      company: 'Acme Inc',
      companyDomain: 'acme.com',
      visits: 4,
      role: 'CTO',
      lastSeen: '2026-03-02T08:30:00.000Z',
      employees: 120,
      revenue: 5_000_000,
      linkedInUrl: 'https://www.linkedin.com/in/ada',
      hasBusinessEmail: true,
      hasPersonalEmail: false,
      hasHEM: false,
    })
    // Bob: the group's company by its id; his gmail address is personal; the shared browser's later page is his.
    expect(row('u-bob')).toMatchObject({ visitor: 'Bob Stone', company: 'Acme Inc', companyDomain: 'acme.com', visits: 3, role: 'Engineer', employees: 120, hasBusinessEmail: false, hasPersonalEmail: true, lastSeen: '2026-03-02T07:00:00.000Z' })
    // Carol: the company by her e-mail's domain (no name known but the domain); a hashed e-mail; January counts, the future does not.
    expect(row('u-carol')).toMatchObject({ visitor: 'Carol Shaw', company: 'acme.com', companyDomain: 'acme.com', visits: 2, hasBusinessEmail: true, hasHEM: true, lastSeen: '2026-02-10T12:00:00.000Z', employees: null, linkedInUrl: null })
    // Dan: the company he typed, but no domain to open; employees given as text; his title, not his newer job title.
    expect(row('u-dan')).toMatchObject({ visitor: 'Dan', company: 'Freelance', companyDomain: null, visits: 2, role: 'Owner', employees: 1, hasPersonalEmail: true, hasBusinessEmail: false, hasHEM: true, lastSeen: '2026-02-27T10:00:00.000Z' })
    // Eve: the group's domain wins over an older business e-mail elsewhere; a LinkedIn address without its scheme.
    expect(row('u-eve')).toMatchObject({ company: 'Globex', companyDomain: 'globex.com', employees: 4000, revenue: null, linkedInUrl: 'https://linkedin.com/in/eve', hasBusinessEmail: true })
  })

  it("opens, for everyone with a company domain, a company page that counts them (members.ts's rules, read both ways)", async () => {
    const { users } = await get<PeopleList>('/api-v2/orgs/acme/people?ip2company=true')
    const placed = users.filter((u) => u.companyDomain && u.lastSeen)
    expect(placed.map((u) => u.id).sort()).toEqual(['anon:anon-lena', 'u-ada', 'u-bob', 'u-carol', 'u-eve'])
    for (const u of placed) {
      const { visitors } = await get<{ visitors: Array<{ id: string }> }>(`/api-v2/orgs/acme/companies/${u.companyDomain}/visitors`)
      expect(visitors.map((v) => v.id), u.id).toContain(u.id)
    }
  })

  it("counts a person's visits over all their ids, to the millisecond of the 30 minutes' gap, by now only, the same with every event stored twice", async () => {
    const { cookie: edges, orgId } = await t.signUpWithOrg('Eda', 'Edges')
    const call = (type: 'page' | 'track' | 'identify', ids: { user_id?: string; anonymous_id?: string }, iso: string) =>
      eventRow({ org_id: orgId, type, ...ids, timestamp: at(iso), ...(type === 'track' ? { event: 'Clicked' } : {}), ...(type === 'page' ? { page_path: '/' } : {}) })
    const user = { user_id: 'u-edge' }
    const visits = [
      // 1: anonymous before signing up, then linked 25 minutes on, then 30 minutes to the millisecond after that.
      call('page', { anonymous_id: 'a-edge' }, '2026-03-01T07:40:00.000Z'),
      call('track', { user_id: 'u-edge', anonymous_id: 'a-edge' }, '2026-03-01T08:05:00.000Z'),
      call('track', user, '2026-03-01T08:35:00.000Z'),
      // 2: 30 minutes and a millisecond later.
      call('page', user, '2026-03-01T09:05:00.001Z'),
      // 3: an identify in between says who, not what, so this is a new visit; ten minutes on, the same one.
      call('identify', user, '2026-03-01T09:30:00.000Z'),
      call('page', user, '2026-03-01T09:50:00.000Z'),
      call('page', user, '2026-03-01T10:00:00.000Z'),
      // 4: 45 minutes later, within the same hour.
      call('page', user, '2026-03-01T10:45:00.000Z'),
      // 5: short pauses over the half hour's edge, 50 minutes from first to last: one visit.
      call('page', user, '2026-02-25T08:00:00.000Z'),
      call('track', user, '2026-02-25T08:20:00.000Z'),
      call('page', user, '2026-02-25T08:29:00.000Z'),
      call('page', user, '2026-02-25T08:50:00.000Z'),
      // 6: today, up to now (09:00); what is stamped after now does not count yet, in now's half hour or later.
      call('page', user, '2026-03-02T08:59:59.999Z'),
      call('page', user, '2026-03-02T09:00:00.000Z'),
      call('page', user, '2026-03-02T09:20:00.000Z'),
      call('page', user, '2026-03-02T10:00:00.000Z'),
    ]
    // A replayed bus stores the events a second time.
    await insertEvents(t.events, visits)
    await insertEvents(t.events, visits)
    const { users } = await get<PeopleList>('/api-v2/orgs/edges/people', edges)
    expect(users).toMatchObject([{ id: 'u-edge', visits: 6, lastSeen: '2026-03-02T09:00:00.000Z' }])
  })

  it("dates someone by what they did as an anonymous visitor, before and after they were identified", async () => {
    const { cookie: own, orgId } = await t.signUpWithOrg('Sam', 'Signup')
    const e = (partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: orgId, ...partial })
    await insertEvents(t.events, [
      e({ type: 'page', anonymous_id: 'anon-sam', timestamp: at('2026-02-20T10:00:00Z'), page_path: '/pricing' }),
      // The one call with both ids is no activity: Sam is active only through the anonymous id it links.
      e({ type: 'identify', user_id: 'u-sam', anonymous_id: 'anon-sam', timestamp: at('2026-02-21T09:00:00Z'), traits: { name: 'Sam Reed' } }),
      e({ type: 'page', user_id: 'u-kim', timestamp: at('2026-02-25T10:00:00Z'), page_path: '/' }),
      e({ type: 'page', anonymous_id: 'anon-sam', timestamp: at('2026-02-28T10:00:00Z'), page_path: '/docs' }),
    ])
    for (const ip2company of [false, true]) {
      const { totalUsers, users } = await get<PeopleList>(`/api-v2/orgs/signup/people?ip2company=${ip2company}`, own)
      expect(totalUsers).toBe(2)
      expect(users.map((u) => [u.id, u.visitor, u.lastSeen, u.visits])).toEqual([
        ['u-sam', 'Sam Reed', '2026-02-28T10:00:00.000Z', 2],
        ['u-kim', 'u-kim', '2026-02-25T10:00:00.000Z', 1],
      ])
    }
  })

  it('shows someone never active last, with no last seen and no visits', async () => {
    const { users } = await get<PeopleList>('/api-v2/orgs/acme/people?page=2')
    expect(users.at(-1)).toMatchObject({ id: 'u-quiet', visitor: 'quiet@hooli.com', lastSeen: null, visits: 0, company: 'hooli.com', companyDomain: 'hooli.com' })
  })

  it("adds anonymous visitors with 'Show anonymous users' (ip2company), never an anonymous id linked to a user", async () => {
    const { totalUsers, users } = await get<PeopleList>('/api-v2/orgs/acme/people?ip2company=true')
    expect(totalUsers).toBe(28)
    expect(users.slice(0, 6).map((u) => u.id)).toEqual(['u-ada', 'u-bob', 'anon:anon-lena', 'u-dan', 'anon:anon-stranger', 'u-eve'])
    expect(users.find((u) => u.id === 'anon:anon-lena')).toMatchObject({ anonymous: true, visitor: 'Lena Meyer', company: 'acme.com', companyDomain: 'acme.com', visits: 1, hasBusinessEmail: true })
    expect(users.find((u) => u.id === 'anon:anon-stranger')).toMatchObject({ anonymous: true, visitor: 'Anonymous visitor', company: null, companyDomain: null, email: null })
    expect(users.map((u) => u.id)).not.toContain('anon:anon-ada')
    expect(users.map((u) => u.id)).not.toContain('anon:anon-shared')
    expect((await get<PeopleList>('/api-v2/orgs/acme/people?ip2company=false')).totalUsers).toBe(26)
  })

  it("shows each organisation only its own people", async () => {
    const other = await get<PeopleList>('/api-v2/orgs/other/people?ip2company=true', otherCookie)
    expect(other.users.map((u) => u.id)).toEqual(['u-zed', 'u-ada', 'ops/jo doe@x.io'])
    expect(other.users[1]).toMatchObject({ visitor: 'Other Ada', company: 'Acme (other org)', visits: 1 })
    const foreign = await t.call('GET', '/api-v2/orgs/acme/people', { cookie: otherCookie })
    expect(foreign.status).toBe(404)
  })
})

describe('GET /api/orgs/{organization}/people/{userId}', () => {
  it('profiles a user: who they are, their company, first and last seen, their traits merged newest first', async () => {
    const ada = await get<UserProfile>('/api/orgs/acme/people/u-ada')
    expect(ada).toMatchObject({
      id: 'u-ada',
      anonymous: false,
      name: 'Ada Lovelace',
      email: 'ada@acme.com',
      company: 'Acme Inc',
      companyDomain: 'acme.com',
      firstSeen: '2026-02-20T08:00:00.000Z',
      lastSeen: '2026-03-02T08:30:00.000Z',
      timezone: 'UTC',
    })
    expect(ada.traits).toEqual([
      { key: 'email', value: 'ada@acme.com' },
      { key: 'linkedinUrl', value: 'https://www.linkedin.com/in/ada' },
      { key: 'name', value: 'Ada Lovelace' },
      { key: 'plan', value: 'pro' },
      { key: 'role', value: 'CTO' },
    ])
  })

  it('draws activity per day over the 30 days and ranks events and features by use', async () => {
    const ada = await get<UserProfile>('/api/orgs/acme/people/u-ada')
    expect(ada.graph).toHaveLength(30)
    expect([ada.graph[0]!.date, ada.graph.at(-1)!.date]).toEqual(['2026-02-01', '2026-03-02'])
    expect(Object.fromEntries(ada.graph.filter((p) => p.value > 0).map((p) => [p.date, p.value]))).toEqual({ '2026-02-20': 3, '2026-03-01': 4, '2026-03-02': 1 })
    expect(ada.mostTriggeredEvents).toEqual([
      { name: 'Report Created', total: 3 },
      { name: 'Report Exported', total: 1 },
      { name: 'Signed Up', total: 1 },
    ])
    const names = (list: UserProfile['mostUsedFeatures']) => list.map((f) => [f.featureName, f.usage])
    expect(names(ada.mostUsedFeatures)).toEqual([['Reporting', 4], ['Onboarding', 1]])
    expect(names(ada.leastUsedFeatures)).toEqual([['Billing', 0], ['Dashboards', 0], ['Onboarding', 1], ['Reporting', 4]])
  })

  it('profiles an anonymous visitor by their key, but not an anonymous id linked to a user', async () => {
    const lena = await get<UserProfile>('/api/orgs/acme/people/anon:anon-lena')
    expect(lena).toMatchObject({ anonymous: true, name: 'Lena Meyer', companyDomain: 'acme.com', lastSeen: '2026-02-28T15:00:05.000Z' })
    const linked = await t.call('GET', '/api/orgs/acme/people/anon:anon-ada', { cookie })
    expect(linked.status).toBe(404)
  })

  it("answers 404 for an unknown user and for another organisation's", async () => {
    for (const [path, who] of [['/api/orgs/acme/people/u-nobody', cookie], ['/api/orgs/other/people/u-bob', otherCookie]] as const) {
      const res = await t.call('GET', path, { cookie: who })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ success: false, message: `User ${path.split('/').at(-1)} not found` })
    }
    // Any user id reaches its profile, encoded in the address.
    const odd = await get<UserProfile>(`/api/orgs/other/people/${encodeURIComponent('ops/jo doe@x.io')}`, otherCookie)
    expect(odd).toMatchObject({ id: 'ops/jo doe@x.io', name: 'ops/jo doe@x.io', firstSeen: '2026-01-01T09:00:00.000Z', lastSeen: '2026-01-02T09:00:00.000Z' })
    // Active before the 30 days only: seen, but nothing in the window's graph or events.
    expect(odd.graph.every((p) => p.value === 0)).toBe(true)
    expect(odd.mostTriggeredEvents).toEqual([])
    const oddEvents = await get<ProfileEvents>(`/api-v2/orgs/other/users/${encodeURIComponent('ops/jo doe@x.io')}/profile/events`, otherCookie)
    expect(oddEvents.totalEvents).toBe(2)
    // The other organisation's own u-ada is theirs alone.
    expect(await get<UserProfile>('/api/orgs/other/people/u-ada', otherCookie)).toMatchObject({ name: 'Other Ada', company: 'Acme (other org)', firstSeen: '2026-03-01T09:00:01.000Z' })
  })
})

describe('the user profile events', () => {
  it('lists every call of the person, newest first, with the metrics that count each', async () => {
    const page = await get<ProfileEvents>('/api-v2/orgs/acme/users/u-ada/profile/events')
    expect(page.totalEvents).toBe(11)
    expect(page.events.map((e) => [e.timestamp.slice(0, 19), e.type, e.event])).toEqual([
      ['2026-03-02T08:30:00', 'track', 'Report Created'],
      ['2026-03-01T11:00:00', 'track', 'Report Exported'],
      ['2026-03-01T10:02:00', 'track', 'Report Created'],
      ['2026-03-01T10:00:30', 'track', 'Report Created'],
      ['2026-03-01T10:00:00', 'page', 'Title of /app'],
      ['2026-03-01T09:59:00', 'identify', 'identify'],
      ['2026-02-20T08:02:02', 'group', 'group'],
      ['2026-02-20T08:02:01', 'identify', 'identify'],
      ['2026-02-20T08:02:00', 'track', 'Signed Up'],
      ['2026-02-20T08:01:00', 'page', 'Title of /signup'],
      ['2026-02-20T08:00:00', 'page', 'Title of /pricing'],
    ])
    // Metrics are listed in the store's order (category, then name); the broken one and 'any event' name none.
    expect(page.events[0]!.metricIds).toEqual([metricIds.Engagement, metricIds['Reports made']])
    expect(page.events[1]!.metricIds).toEqual([metricIds.Engagement])
    expect(page.events[4]!.metricIds).toEqual([])
    expect(page.metrics).toEqual([
      { metricId: metricIds.Engagement, name: 'Engagement' },
      { metricId: metricIds['Reports made'], name: 'Reports made' },
    ])
    const second = await get<ProfileEvents>('/api-v2/orgs/acme/users/u-ada/profile/events?page=2')
    expect(second).toEqual({ events: [], metrics: [], totalEvents: 11, page: 2 })
  })

  it("returns an event's whole stored payload", async () => {
    const payload = await get<Record<string, unknown>>('/api-v2/orgs/acme/users/u-ada/profile/events/msg-ada-signup')
    expect(payload).toMatchObject({
      message_id: 'msg-ada-signup',
      type: 'track',
      event: 'Signed Up',
      user_id: 'u-ada',
      anonymous_id: 'anon-ada',
      timestamp: '2026-02-20T08:02:00.000Z',
      properties: { plan: 'pro', seats: 3, nested: { ok: true } },
      context: { ip: '203.0.113.7' },
      integrations: {},
    })
    expect(payload).not.toHaveProperty('org_id')
  })

  it("answers 404 for another person's event, another organisation's, and an unknown user", async () => {
    const cases: Array<[string, string, string]> = [
      ['/api-v2/orgs/acme/users/u-bob/profile/events/msg-ada-signup', cookie, 'Event not found'],
      ['/api-v2/orgs/other/users/u-ada/profile/events/msg-ada-signup', otherCookie, 'Event not found'],
      ['/api-v2/orgs/acme/users/u-nobody/profile/events', cookie, 'User u-nobody not found'],
    ]
    for (const [path, who, message] of cases) {
      const res = await t.call('GET', path, { cookie: who })
      expect(res.status, path).toBe(404)
      expect(await res.json()).toMatchObject({ message })
    }
  })
})

describe('GET /api/orgs/{organization}/company/{companyId}', () => {
  it('profiles the company: name, first and last seen, e-mail, metadata', async () => {
    const acme = await get<CompanyProfile>('/api/orgs/acme/company/acme.com')
    expect(acme).toMatchObject({
      domain: 'acme.com',
      name: 'Acme Inc',
      firstSeen: '2026-01-10T12:00:00.000Z',
      lastSeen: '2026-03-02T08:30:00.000Z',
      // No e-mail on the group: the first given at the company's domain (Bob's gmail address came earlier).
      email: 'Carol@ACME.com',
      timezone: 'UTC',
    })
    expect(acme.metadata).toEqual([
      { key: 'industry', value: 'Software' },
      { key: 'employees', value: 120 },
      { key: 'revenue', value: 5_000_000 },
    ])
  })

  it('counts daily, weekly and monthly active users, and draws the monthly ones day by day', async () => {
    const acme = await get<CompanyProfile>('/api/orgs/acme/company/acme.com')
    // Today: Ada, Bob. Since 02-24: Ada, Bob, Lena. The 30 days: and Carol.
    expect([acme.dailyActiveUsers, acme.weeklyActiveUsers, acme.monthlyActiveUsers]).toEqual([2, 3, 4])
    const graph = acme.monthlyActiveUsersGraph
    expect(graph).toHaveLength(30)
    const value = (date: string) => graph.find((p) => p.date === date)!.value
    // Carol's 01-10 counts until 02-08; her 02-10 from then on; Ada from 02-20, Bob 02-26, Lena 02-28.
    expect([value('2026-02-01'), value('2026-02-08'), value('2026-02-09'), value('2026-02-10'), value('2026-02-19')]).toEqual([1, 1, 0, 1, 1])
    expect([value('2026-02-20'), value('2026-02-25'), value('2026-02-26'), value('2026-02-27'), value('2026-02-28'), value('2026-03-02')]).toEqual([2, 2, 3, 3, 4, 4])
    expect(graph.at(-1)!.value).toBe(acme.monthlyActiveUsers)
  })

  it('lists who used it most and the most triggered events', async () => {
    const acme = await get<CompanyProfile>('/api/orgs/acme/company/acme.com')
    expect(acme.topUsers).toEqual([
      { id: 'u-ada', email: 'ada@acme.com', name: 'Ada Lovelace', total: 8 },
      { id: 'u-bob', email: 'bob@gmail.com', name: 'Bob Stone', total: 4 },
      { id: 'anon:anon-lena', email: 'lena@acme.com', name: 'Lena Meyer', total: 1 },
      { id: 'u-carol', email: 'Carol@ACME.com', name: 'Carol Shaw', total: 1 },
    ])
    expect(acme.topEvents).toEqual([
      { name: 'Report Created', total: 4 },
      { name: 'Dashboard Viewed', total: 1 },
      { name: 'Report Exported', total: 1 },
      { name: 'Signed Up', total: 1 },
    ])
  })

  it('measures feature adoption over the 30 days against the active users', async () => {
    const a = await get<CompanyFeatureAdoption>('/api/orgs/acme/company/acme.com/feature-adoption')
    expect(a.activeUsers).toBe(4)
    expect(a.windowDays).toBe(30)
    const rows = (list: CompanyFeatureAdoption['topFeatures']) => list.map((f) => [f.featureName, f.usage, f.users, f.adoption])
    expect(rows(a.topFeatures)).toEqual([
      ['Reporting', 5, 2, 50],
      ['Dashboards', 1, 1, 25],
      ['Onboarding', 1, 1, 25],
    ])
    expect(rows(a.lowestFeatures)).toEqual([
      ['Billing', 0, 0, 0],
      ['Dashboards', 1, 1, 25],
      ['Onboarding', 1, 1, 25],
      ['Reporting', 5, 2, 50],
    ])
  })

  it("answers 404 for an unknown company or id, and reads another organisation's own", async () => {
    for (const id of ['nobody.com', 'gmail.com', 'not a domain']) {
      for (const suffix of ['', '/feature-adoption']) {
        const res = await t.call('GET', `/api/orgs/acme/company/${encodeURIComponent(id)}${suffix}`, { cookie })
        expect(res.status).toBe(404)
        expect((await res.json()) as { message: string }).toMatchObject({ message: `Company ${id} not found` })
      }
    }
    const other = await get<CompanyProfile>('/api/orgs/other/company/acme.com', otherCookie)
    expect(other).toMatchObject({ name: 'Acme (other org)', monthlyActiveUsers: 1, topUsers: [{ id: 'u-ada', name: 'Other Ada', total: 1 }] })
  })
})

describe('profile traits', () => {
  it('shows the defaults until someone chooses, keeps each choice per organisation and type', async () => {
    const defaults = await get<ProfileTraitSetting[]>('/api/orgs/acme/profile_traits/company')
    expect(defaults.map((s) => s.name)).toEqual(['industry', 'employees', 'revenue', 'country', 'plan', 'website', 'createdAt'])
    expect(defaults.every((s) => !s.hidden)).toBe(true)

    const post = (path: string, body: unknown, who = cookie) => t.call('POST', path, { cookie: who, body })
    let res = await post('/api/orgs/acme/profile_traits/company', { name: 'industry', hidden: true })
    expect(res.status).toBe(200)
    res = await post('/api/orgs/acme/profile_traits/company', { name: ' address.city ', hidden: false })
    const saved = (await res.json()) as ProfileTraitSetting[]
    expect(saved[0]).toEqual({ name: 'industry', hidden: true })
    expect(saved.at(-1)).toEqual({ name: 'address.city', hidden: false })
    expect(await get<ProfileTraitSetting[]>('/api/orgs/acme/profile_traits/company')).toEqual(saved)

    // Users' choices are apart; another organisation keeps its defaults.
    expect((await get<ProfileTraitSetting[]>('/api/orgs/acme/profile_traits/user')).map((s) => s.name)).toEqual(['email', 'role', 'company', 'plan', 'createdAt'])
    expect((await get<ProfileTraitSetting[]>('/api/orgs/other/profile_traits/company', otherCookie)).every((s) => !s.hidden)).toBe(true)
  })

  it('refuses a choice without a name or a hidden flag, and an unknown profile type', async () => {
    const post = (body: unknown) => t.call('POST', '/api/orgs/acme/profile_traits/user', { cookie, body })
    let res = await post({ name: '  ', hidden: true })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'name', message: 'Trait name must be provided' }] })
    res = await post({ name: 'plan' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'hidden', message: 'Hidden must be true or false' }] })
    res = await t.call('GET', '/api/orgs/acme/profile_traits/things', { cookie })
    expect(res.status).toBe(404)
  })
})
