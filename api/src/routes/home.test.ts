import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestedEvent } from '@fl0/contracts'
import type { HomeSummary } from '@fl0/contracts/home'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The home's "who visited this week" (routes/home.ts) on a small, fixed set
 * of events in chDB. The test clock stands at 2026-03-02 09:00 UTC: this week
 * is after 02-23 09:00, last week 02-16 09:00 … 02-23 09:00.
 *
 * - Ada (u-ada, Acme by group acme.com): active both weeks, 3 events this week.
 * - Bob (u-bob, acme.com business e-mail): new this week, 1 event.
 * - Cy (u-cy, globex.com e-mail): last week only.
 * - Dee (u-dee, gmail): new this week, 2 events, no company.
 * - An anonymous visitor (page this week): counted in no person, its page counted.
 * - A page after now is not yet.
 * - Another organisation's u-ada: not ours.
 */
let t: TestApi
let cookie: string
let otherCookie: string

function events(orgId: string): IngestedEvent[] {
  const e = (partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: orgId, ...partial })
  const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string, path: string) =>
    e({ type: 'page', ...ids, timestamp: new Date(iso), page_path: path, page_url: `https://acme.test${path}`, page_title: `Title of ${path}` })
  const identify = (userId: string, iso: string, traits: Record<string, unknown>) => e({ type: 'identify', user_id: userId, timestamp: new Date(iso), traits })
  return [
    identify('u-ada', '2026-02-10T08:00:00Z', { name: 'Ada Lovelace', email: 'ada@acme.com' }),
    e({ type: 'group', user_id: 'u-ada', group_id: 'g-acme', timestamp: new Date('2026-02-10T08:00:01Z'), traits: { name: 'Acme Inc', domain: 'acme.com' } }),
    page({ user_id: 'u-ada' }, '2026-02-20T08:00:00Z', '/pricing'),
    page({ user_id: 'u-ada' }, '2026-03-01T08:00:00Z', '/pricing'),
    page({ user_id: 'u-ada' }, '2026-03-01T08:01:00Z', '/docs'),
    e({ type: 'track', user_id: 'u-ada', event: 'Report Created', timestamp: new Date('2026-03-02T08:00:00Z') }),
    identify('u-bob', '2026-02-25T08:00:00Z', { name: 'Bob', email: 'bob@acme.com' }),
    page({ user_id: 'u-bob' }, '2026-02-25T08:00:01Z', '/pricing'),
    identify('u-cy', '2026-02-17T08:00:00Z', { email: 'cy@globex.com' }),
    page({ user_id: 'u-cy' }, '2026-02-17T08:00:01Z', '/pricing'),
    identify('u-dee', '2026-02-26T08:00:00Z', { email: 'dee@gmail.com' }),
    page({ user_id: 'u-dee' }, '2026-02-26T08:00:01Z', '/blog'),
    page({ user_id: 'u-dee' }, '2026-02-27T08:00:01Z', '/blog'),
    page({ anonymous_id: 'stranger' }, '2026-02-28T08:00:00Z', '/pricing'),
    page({ user_id: 'u-ada' }, '2026-03-05T08:00:00Z', '/future'),
  ]
}

beforeAll(async () => {
  t = await createTestApi()
  let org: string
  let other: string
  ;({ cookie, orgId: org } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: otherCookie, orgId: other } = await t.signUpWithOrg('Olga', 'Other'))
  await insertEvents(t.events, [
    ...events(org),
    eventRow({ org_id: other, type: 'page', user_id: 'u-ada', timestamp: new Date('2026-03-01T00:00:00Z'), page_path: '/theirs' }),
  ])
})
afterAll(() => t.close())

describe('GET /api-v2/orgs/{organization}/home', () => {
  it('answers this week: people, companies and pages, with what is new since last week', async () => {
    const res = await t.call('GET', '/api-v2/orgs/acme/home', { cookie })
    expect(res.status).toBe(200)
    const home = (await res.json()) as HomeSummary
    expect(home.from).toBe('2026-02-23T09:00:00.000Z')
    expect(home.to).toBe('2026-03-02T09:00:00.000Z')
    expect(home.people.active).toBe(3)
    expect(home.people.new).toBe(2)
    expect(home.people.top).toEqual([
      { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@acme.com', company: 'Acme Inc', companyDomain: 'acme.com', events: 3, lastSeen: '2026-03-02T08:00:00.000Z', isNew: false },
      { id: 'u-dee', name: 'dee@gmail.com', email: 'dee@gmail.com', company: null, companyDomain: null, events: 2, lastSeen: '2026-02-27T08:00:01.000Z', isNew: true },
      { id: 'u-bob', name: 'Bob', email: 'bob@acme.com', company: 'Acme Inc', companyDomain: 'acme.com', events: 1, lastSeen: '2026-02-25T08:00:01.000Z', isNew: true },
    ])
    // globex.com was seen last week only; acme.com both weeks.
    expect(home.companies).toEqual({ active: 1, new: 0, top: [{ domain: 'acme.com', name: 'Acme Inc', people: 2, events: 4, isNew: false }] })
    expect(home.pages).toEqual([
      { path: '/pricing', url: 'https://acme.test/pricing', title: 'Title of /pricing', views: 3, visitors: 3 },
      { path: '/blog', url: 'https://acme.test/blog', title: 'Title of /blog', views: 2, visitors: 1 },
      { path: '/docs', url: 'https://acme.test/docs', title: 'Title of /docs', views: 1, visitors: 1 },
    ])
  })

  it('shows the 8 most active people, identified ones only, however busy the anonymous visitors are', async () => {
    const { cookie: busy, orgId } = await t.signUpWithOrg('Bea', 'Busy')
    // u-00 … u-11: u-NN made 20 + NN pages this week; three anonymous visitors made 50 each.
    const pages = (ids: { user_id?: string; anonymous_id?: string }, n: number) =>
      Array.from({ length: n }, (_, i) => eventRow({ org_id: orgId, type: 'page', ...ids, timestamp: new Date(Date.parse('2026-02-28T08:00:00Z') + i * 1000), page_path: '/app' }))
    const users = Array.from({ length: 12 }, (_, i) => `u-${String(i).padStart(2, '0')}`)
    await insertEvents(t.events, [...users.flatMap((u, i) => pages({ user_id: u }, 20 + i)), ...['a1', 'a2', 'a3'].flatMap((a) => pages({ anonymous_id: a }, 50))])
    const home = (await (await t.call('GET', '/api-v2/orgs/busy/home', { cookie: busy })).json()) as HomeSummary
    expect(home.people.active).toBe(12)
    expect(home.people.new).toBe(12)
    expect(home.people.top.map((p) => [p.id, p.events])).toEqual(users.slice(4).reverse().map((u) => [u, 20 + Number(u.slice(2))]))
  })

  it("counts a visitor's pages before signing up as theirs, and a bot's as nobody's", async () => {
    const { cookie: own, orgId } = await t.signUpWithOrg('Eve', 'Evecorp')
    const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string, path: string) =>
      eventRow({ org_id: orgId, type: 'page', ...ids, timestamp: new Date(iso), page_path: path, page_url: `https://eve.test${path}`, page_title: path })
    await insertEvents(t.events, [
      // a-eve browses anonymously, then signs up as u-eve (a call carrying both ids links them).
      page({ anonymous_id: 'a-eve' }, '2026-02-27T08:00:00Z', '/pricing'),
      page({ anonymous_id: 'a-eve' }, '2026-02-27T08:01:00Z', '/signup'),
      page({ user_id: 'u-eve', anonymous_id: 'a-eve' }, '2026-02-27T08:02:00Z', '/welcome'),
      // a-bot, marked as a crawler, reads /pricing five times.
      ...Array.from({ length: 5 }, (_, i) => page({ anonymous_id: 'a-bot' }, `2026-02-28T08:0${i}:00Z`, '/pricing')),
    ])
    await t.events.client.insert({
      table: 'bot_visitors',
      values: [{ org_id: orgId, anonymous_id: 'a-bot', reason: 'user_agent', detected_at: '2026-02-28 09:00:00.000' }],
      format: 'JSONEachRow',
    })
    const home = (await (await t.call('GET', '/api-v2/orgs/evecorp/home', { cookie: own })).json()) as HomeSummary
    expect(home.people.active).toBe(1)
    expect(home.people.top.map((p) => [p.id, p.events])).toEqual([['u-eve', 3]])
    expect(home.pages.map((p) => [p.path, p.views, p.visitors])).toEqual([
      ['/pricing', 1, 1],
      ['/signup', 1, 1],
      ['/welcome', 1, 1],
    ])
  })

  it("reads the caller's organisation only, and refuses anyone else", async () => {
    const theirs = (await (await t.call('GET', '/api-v2/orgs/other/home', { cookie: otherCookie })).json()) as HomeSummary
    expect(theirs.people.top.map((p) => p.id)).toEqual(['u-ada'])
    expect(theirs.pages.map((p) => p.path)).toEqual(['/theirs'])
    expect((await t.call('GET', '/api-v2/orgs/acme/home', { cookie: otherCookie })).status).toBe(404)
    expect((await t.call('GET', '/api-v2/orgs/acme/home')).status).toBe(401)
  })

  it('answers an error, and stays up, when identification fails while the other reads are still running', async () => {
    // Identification's first read fails at once (its table is gone) while, in some of these calls, the people's
    // own reads are still running: a failure nobody listened for yet would end the process (an unhandled
    // rejection), which vitest reports.
    await t.events.client.command({ query: 'RENAME TABLE identified_visits TO identified_visits_away' })
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('GET', '/api-v2/orgs/acme/home', { cookie })))
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(500))
    } finally {
      await t.events.client.command({ query: 'RENAME TABLE identified_visits_away TO identified_visits' })
    }
    expect((await t.call('GET', '/api-v2/orgs/acme/home', { cookie })).status).toBe(200)
  })
})
