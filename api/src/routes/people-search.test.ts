import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { PEOPLE_CSV_COLUMNS, type IngestedEvent, type PeopleList } from '@fl0/contracts'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The people list's search and its CSV download, on a few people in chDB
 * (real PGlite and chDB through createTestApi). Who matches what, by hand:
 * - Ada Lovelace, ada@acme.com, in the group 'Acme Inc' (acme.com);
 * - Bob Stone (first and last name), bob@gmail.com, in g-acme by id only;
 * - Chloé "Quote", chloe@initech.com, company trait 'Initech, Inc.' (a comma,
 *   quotes and an accent: what CSV quoting must carry);
 * - 30 bulk users 'Bulk Person NN', bulk-NN@hooli.com: more than a page;
 * - Lena, an anonymous lead at acme.com (only with ip2company).
 * Another organisation has its own Ada at acme.com.
 */
let t: TestApi
let cookie: string
let otherCookie: string

const BULK = 30
const at = (iso: string) => new Date(iso)

function events(org: string): IngestedEvent[] {
  const e = (p: Partial<Omit<IngestedEvent, 'timestamp'>> & { timestamp: Date }) => eventRow({ org_id: org, ...p })
  const identify = (ids: { user_id?: string; anonymous_id?: string }, iso: string, traits: Record<string, unknown>) => e({ type: 'identify', ...ids, timestamp: at(iso), traits })
  const page = (ids: { user_id?: string; anonymous_id?: string }, iso: string) => e({ type: 'page', ...ids, timestamp: at(iso), page_path: '/' })
  return [
    identify({ user_id: 'u-ada' }, '2026-02-20T08:00:00Z', { name: 'Ada Lovelace', email: 'ada@acme.com', role: 'CTO' }),
    e({ type: 'group', user_id: 'u-ada', group_id: 'g-acme', timestamp: at('2026-02-20T08:00:01Z'), traits: { name: 'Acme Inc', domain: 'acme.com' } }),
    page({ user_id: 'u-ada' }, '2026-03-01T10:00:00Z'),
    identify({ user_id: 'u-bob' }, '2026-02-21T08:00:00Z', { firstName: 'Bob', lastName: 'Stone', email: 'bob@gmail.com' }),
    e({ type: 'group', user_id: 'u-bob', group_id: 'g-acme', timestamp: at('2026-02-21T08:00:01Z'), traits: {} }),
    page({ user_id: 'u-bob' }, '2026-03-01T09:00:00Z'),
    identify({ user_id: 'u-chloe' }, '2026-02-22T08:00:00Z', { name: 'Chloé "Quote"', email: 'chloe@initech.com', company: 'Initech, Inc.' }),
    page({ user_id: 'u-chloe' }, '2026-03-01T08:00:00Z'),
    ...Array.from({ length: BULK }, (_, i) => {
      const n = String(i).padStart(2, '0')
      return [identify({ user_id: `u-bulk-${n}` }, '2026-01-10T08:00:00Z', { name: `Bulk Person ${n}`, email: `bulk-${n}@hooli.com` }), page({ user_id: `u-bulk-${n}` }, `2026-01-15T10:${n}:00Z`)]
    }).flat(),
    identify({ anonymous_id: 'anon-lena' }, '2026-02-28T15:00:00Z', { name: 'Lena Meyer', email: 'lena@acme.com' }),
    page({ anonymous_id: 'anon-lena' }, '2026-02-28T15:00:05Z'),
  ]
}

async function people(query: string, who = cookie, org = 'acme'): Promise<PeopleList> {
  const res = await t.call('GET', `/api-v2/orgs/${org}/people?${query}`, { cookie: who })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as PeopleList
}

async function csv(query: string) {
  const res = await t.call('GET', `/api-v2/orgs/acme/people/export.csv?${query}`, { cookie })
  expect(res.status, await res.clone().text()).toBe(200)
  const text = await res.text()
  return { res, text, records: parse(text) as string[][] }
}

beforeAll(async () => {
  t = await createTestApi()
  let org: string
  let otherOrg: string
  ;({ cookie, orgId: org } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: otherCookie, orgId: otherOrg } = await t.signUpWithOrg('Olga', 'Other'))
  await insertEvents(t.events, [
    ...events(org),
    eventRow({ org_id: otherOrg, type: 'identify', user_id: 'u-ada', timestamp: at('2026-03-01T09:00:00Z'), traits: { name: 'Other Ada', email: 'ada@acme.com' } }),
    eventRow({ org_id: otherOrg, type: 'page', user_id: 'u-ada', timestamp: at('2026-03-01T09:00:01Z'), page_path: '/' }),
  ])
})
afterAll(() => t.close())

describe('GET /api-v2/orgs/{organization}/people?search', () => {
  it('finds people by name, first and last name, e-mail and company, case-insensitive, and counts only them', async () => {
    const ids = async (search: string) => (await people(`search=${encodeURIComponent(search)}`)).users.map((u) => u.id)
    expect(await ids('lovelace')).toEqual(['u-ada'])
    expect(await ids('bob st')).toEqual(['u-bob'])
    expect(await ids('GMAIL.COM')).toEqual(['u-bob'])
    // The company: a group's name (Bob is in g-acme by id only), a group's domain, a company trait.
    expect(await ids('acme inc')).toEqual(['u-ada', 'u-bob'])
    expect(await ids('initech, inc')).toEqual(['u-chloe'])
    expect(await ids('chloé')).toEqual(['u-chloe'])
    // The user id, shown for someone who never gave a name.
    expect(await ids('u-bulk-07')).toEqual(['u-bulk-07'])
    const acme = await people('search=acme')
    expect(acme.totalUsers).toBe(2)
    // The anonymous lead only with 'Show anonymous users'.
    expect((await people('search=acme&ip2company=true')).users.map((u) => u.id)).toEqual(['u-ada', 'u-bob', 'anon:anon-lena'])
  })

  it('pages the matches: the total and the pages follow the search', async () => {
    const first = await people('search=hooli')
    expect(first.totalUsers).toBe(BULK)
    expect(first.users).toHaveLength(20)
    const second = await people('search=hooli&page=2')
    expect(second.users).toHaveLength(BULK - 20)
    expect(new Set([...first.users, ...second.users].map((u) => u.id)).size).toBe(BULK)
    expect((await people('search=%20%20')).totalUsers).toBe(3 + BULK)
  })

  it('binds the text: quotes, backslashes and SQL find nothing and break nothing', async () => {
    for (const search of [`'`, `\\`, `%`, `') OR 1=1 --`, '{search:String}']) {
      const found = await people(`search=${encodeURIComponent(search)}`)
      expect(found, search).toEqual({ totalUsers: 0, users: [] })
    }
    expect((await people(`search=${encodeURIComponent('"quote"')}`)).users.map((u) => u.id)).toEqual(['u-chloe'])
  })

  it("reads the caller's organisation only", async () => {
    // The other organisation's own Ada, by a name only it knows; never the first one's.
    expect((await people('search=ada', otherCookie, 'other')).users.map((u) => u.visitor)).toEqual(['Other Ada'])
    expect((await people('search=lovelace', otherCookie, 'other')).totalUsers).toBe(0)
    const foreign = await t.call('GET', '/api-v2/orgs/acme/people?search=ada', { cookie: otherCookie })
    expect(foreign.status).toBe(404)
  })
})

describe('GET /api-v2/orgs/{organization}/people/export.csv', () => {
  it('downloads every person of the list, not a page, as a CSV file with a header', async () => {
    const { res, records } = await csv('')
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="people-acme-\d{4}-\d{2}-\d{2}\.csv"$/)
    expect(records[0]).toEqual([...PEOPLE_CSV_COLUMNS])
    expect(records).toHaveLength(1 + 3 + BULK)
    // The list's order: most recently seen first.
    expect(records.slice(1, 4).map((r) => r[0])).toEqual(['u-ada', 'u-bob', 'u-chloe'])
    const ada = Object.fromEntries(PEOPLE_CSV_COLUMNS.map((c, i) => [c, records[1]![i]]))
    expect(ada).toMatchObject({ Visitor: 'Ada Lovelace', Email: 'ada@acme.com', Company: 'Acme Inc', 'Company domain': 'acme.com', Visits: '1', Role: 'CTO', 'Last seen': '2026-03-01T10:00:00.000Z' })
  })

  it('follows the search and the anonymous toggle, and quotes as RFC 4180 says', async () => {
    const acme = await csv('search=acme&ip2company=true')
    expect(acme.records.slice(1).map((r) => r[0])).toEqual(['u-ada', 'u-bob', 'anon:anon-lena'])
    const hooli = await csv('search=hooli')
    expect(hooli.records).toHaveLength(1 + BULK)
    const chloe = await csv('search=initech')
    expect(chloe.text).toContain('u-chloe,"Chloé ""Quote""",chloe@initech.com,"Initech, Inc.",')
    expect(chloe.text.split('\r\n')).toHaveLength(3)
    expect(chloe.records[1]!.slice(1, 4)).toEqual(['Chloé "Quote"', 'chloe@initech.com', 'Initech, Inc.'])
    // Nobody matching: the header alone.
    expect((await csv('search=nobody-at-all')).records).toEqual([[...PEOPLE_CSV_COLUMNS]])
  })

  it("is for the organisation's members only", async () => {
    const foreign = await t.call('GET', '/api-v2/orgs/acme/people/export.csv', { cookie: otherCookie })
    expect(foreign.status).toBe(404)
    expect(foreign.headers.get('content-disposition')).toBeNull()
    expect((await t.call('GET', '/api-v2/orgs/acme/people/export.csv')).status).toBe(401)
    const own = await t.call('GET', '/api-v2/orgs/other/people/export.csv', { cookie: otherCookie })
    expect(parse(await own.text())).toEqual([[...PEOPLE_CSV_COLUMNS], expect.arrayContaining(['u-ada', 'Other Ada'])])
  })
})
