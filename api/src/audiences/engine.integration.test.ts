import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFeature, findOrganisationByUrlCode, saveOrgSettings } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import type { AudienceResults, IngestedEvent } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'
import { isAnonymousKey, personEventsSql } from '@fl0/query'

/**
 * The audience engine against hand-computed members, on a small fixed data
 * set in chDB, through POST /api/orgs/{organization}/audiences/filters: every
 * operator of every trait type (part 3 §3), the action filters, both
 * aggregations, the identity rules, the organisation's zone, paging, and
 * names and values shaped like SQL.
 *
 * The clock is the test api's: now = 2026-03-02 09:00 UTC (10:00 in Paris,
 * the organisation's zone here). The people and what they were given:
 *
 * | user  | plan (latest non-empty) | seats | beta  | tags          | signup (Paris day)  | company (tier, employees) | Report Created, last 7 days |
 * |-------|-------------------------|-------|-------|---------------|---------------------|---------------------------|-----------------------------|
 * | alice | pro (was free)          | 10    | true  | [sales, eu]   | 2026-02-28 00:30    | acme (platinum, 500)      | 3 (and 1 ten days ago)      |
 * | bob   | free (was pro; '' later)| '3'   | 'false' | [eu]        | 2026-01-15 (a day)  | globex (silver, 50)       | 1 (and 1 Report Shared)     |
 * | carol | Pro Plus                | 'n/a' | false | 'sales'       | 2026-03-05 13:00    | –                         | 0                           |
 * | dave  | –                       | –     | –     | –             | –                   | acme                      | 5                           |
 * | erin  | pro (as anon-e)         | –     | –     | –             | 2026-03-01 09:00    | –                         | 0 (Signed Up as anon-e)     |
 * | frank | –                       | –     | –     | –             | –                   | –                         | 0                           |
 *
 * anon-e is linked first to erin, later to frank: it is erin's. anon-x is
 * never linked: an anonymous visitor, never a member, whatever it did.
 */
let t: TestApi
let cookie: string
let orgId: string
const ALL = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']

const at = (iso: string) => iso.replace('T', ' ').replace('Z', '')
function rowsOf(org: string) {
  const e = (p: Partial<IngestedEvent> & { timestamp: string }) => eventRow({ ...p, org_id: org, timestamp: at(p.timestamp) })
  const identify = (user_id: string, timestamp: string, traits: Record<string, unknown>, anonymous_id = '') => e({ type: 'identify', user_id, anonymous_id, timestamp, traits })
  const group = (user_id: string, group_id: string, timestamp: string, traits: Record<string, unknown>) => e({ type: 'group', user_id, group_id, timestamp, traits })
  const track = (user_id: string, event: string, timestamp: string, anonymous_id = '') => e({ type: 'track', user_id, anonymous_id, event, timestamp })
  return [
    identify('alice', '2026-02-01T10:00:00Z', { plan: 'free', name: 'Alice', email: 'alice@acme.test' }, 'anon-a'),
    identify('alice', '2026-02-20T10:00:00Z', { plan: 'pro', seats: 10, beta: true, tags: ['sales', 'eu'], signup: '2026-02-27T23:30:00Z', score: 4.5 }, 'anon-a'),
    identify('bob', '2026-02-01T10:00:00Z', { plan: 'pro', seats: 8 }),
    identify('bob', '2026-02-25T10:00:00Z', { plan: 'free', seats: '3', beta: 'false', tags: ['eu'], signup: '2026-01-15', name: 'Bob' }),
    identify('bob', '2026-02-26T10:00:00Z', { plan: '', nickname: 'bobby' }),
    identify('carol', '2026-02-10T10:00:00Z', { plan: 'Pro Plus', seats: 'n/a', beta: false, tags: 'sales', signup: '2026-03-05T12:00:00Z' }),
    identify('dave', '2026-02-10T10:00:00Z', { name: 'Dave' }),
    identify('', '2026-02-05T10:00:00Z', { plan: 'pro', signup: '2026-03-01T08:00:00Z' }, 'anon-e'),
    track('erin', 'Logged In', '2026-02-06T10:00:00Z', 'anon-e'),
    track('frank', 'Logged In', '2026-02-07T10:00:00Z', 'anon-e'),
    track('', 'Signed Up', '2026-02-27T10:00:00Z', 'anon-e'),
    identify('', '2026-02-05T10:00:00Z', { plan: 'pro', seats: 99 }, 'anon-x'),
    track('', 'Report Created', '2026-03-01T10:00:00Z', 'anon-x'),
    group('bob', 'g-acme', '2026-02-01T10:00:00Z', {}),
    group('alice', 'g-acme', '2026-02-20T10:00:00Z', { name: 'Acme', domain: 'acme.test', tier: 'gold', employees: 500 }),
    group('dave', 'g-acme', '2026-02-21T10:00:00Z', { tier: 'platinum' }),
    group('bob', 'g-globex', '2026-02-22T10:00:00Z', { name: 'Globex', tier: 'silver', employees: 50 }),
    track('alice', 'Report Created', '2026-02-20T10:00:00Z'),
    track('alice', 'Report Created', '2026-02-28T10:00:00Z', 'anon-a'),
    track('alice', 'Report Created', '2026-02-28T11:00:00Z'),
    track('alice', 'Report Created', '2026-03-01T10:00:00Z'),
    // Stamped after now by a clock ahead: not counted yet.
    track('alice', 'Report Created', '2026-03-03T10:00:00Z'),
    track('bob', 'Report Created', '2026-03-01T12:00:00Z'),
    track('bob', 'Report Shared', '2026-02-27T12:00:00Z'),
    ...Array.from({ length: 5 }, (_, i) => track('dave', 'Report Created', `2026-02-25T1${i}:00:00Z`)),
  ]
}

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUp('Ada'))
  await t.createOrg(cookie, 'Acme')
  orgId = (await findOrganisationByUrlCode(t.sql, 'acme'))!.id
  await saveOrgSettings(t.sql, orgId, { timezone: 'Europe/Paris', company_paths: [] })
  await insertEvents(t.events, rowsOf(orgId))
})
afterAll(() => t?.close())

async function preview(filters: unknown, page = 1, org = 'acme'): Promise<AudienceResults> {
  const res = await t.call('POST', `/api/orgs/${org}/audiences/filters`, { cookie, body: { filters, page } })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`)
  return body as AudienceResults
}
const userIds = (r: AudienceResults) => r.users.map((u) => u.userId).sort()
const match = (m: Record<string, unknown>) => ({ kind: 'user', ...m })
const membersOf = async (...matches: Record<string, unknown>[]) => userIds(await preview({ match_aggregation: 'and', matches, action_aggregation: 'and', actions: [] }))
const action = (a: Record<string, unknown>) => ({ kind: 'event', event_name: 'Report Created', measurement: 'total', occurrence_op: 'greater_than_or_equal_to', value: 1, date_range: { kind: 'last', value: 7, unit: 'day' }, ...a })
const actedOn = async (...actions: Record<string, unknown>[]) => userIds(await preview({ match_aggregation: 'and', matches: [], action_aggregation: 'and', actions }))

describe('who is a member', () => {
  it('with no filters: every user, each once, anonymous visitors left out; linked anonymous ids are their users', async () => {
    const r = await preview({ match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] })
    expect(userIds(r)).toEqual(ALL)
    expect(r.totalUsers).toBe(6)
    expect(r.totalCompanies).toBe(2)
  })

  it('follows people/identity.ts: the same users, and an anonymous event goes to the same user', async () => {
    const persons = await t.events.client.query({
      query: `SELECT DISTINCT person FROM (${personEventsSql(['event'])}) ORDER BY person`,
      query_params: { org: orgId },
      format: 'JSONEachRow',
    })
    const users = (await persons.json<{ person: string }>()).map((r) => r.person).filter((p) => !isAnonymousKey(p))
    expect(users).toEqual(ALL)
    const signedUp = await t.events.client.query({
      query: `SELECT person FROM (${personEventsSql(['event'])}) WHERE event = 'Signed Up'`,
      query_params: { org: orgId },
      format: 'JSONEachRow',
    })
    expect((await signedUp.json<{ person: string }>()).map((r) => r.person)).toEqual(['erin'])
    expect(await actedOn(action({ event_name: 'Signed Up' }))).toEqual(['erin'])
  })
})

describe('string traits', () => {
  it.each([
    ['is', 'pro', ['alice', 'erin']],
    ['is_not', 'pro', ['bob', 'carol', 'dave', 'frank']],
    ['contains', 'PRO', ['alice', 'carol', 'erin']],
    ['does_not_contain', 'pro', ['bob', 'dave', 'frank']],
    ['is_set', undefined, ['alice', 'bob', 'carol', 'erin']],
    ['is_not_set', undefined, ['dave', 'frank']],
  ])('plan %s %s', async (op, value, expected) => {
    expect(await membersOf(match({ trait: 'plan', string_op: op, value }))).toEqual(expected)
  })

  it('reads the latest non-empty value: a later empty plan does not unset "free"', async () => {
    expect(await membersOf(match({ trait: 'plan', string_op: 'is', value: 'free' }))).toEqual(['bob'])
  })
})

describe('stringArray traits', () => {
  it.each([
    ['contains', 'sales', ['alice', 'carol']],
    ['contains', 'eu', ['alice', 'bob']],
    ['does_not_contain', 'sales', ['bob', 'dave', 'erin', 'frank']],
  ])('tags %s %s (a single value is a list of one)', async (op, value, expected) => {
    expect(await membersOf(match({ trait: 'tags', stringArray_op: op, value }))).toEqual(expected)
  })
})

describe('number traits', () => {
  it.each([
    [{ number_op: 'equals', value: 10 }, ['alice']],
    [{ number_op: 'not_equal', value: 10 }, ['bob', 'carol', 'dave', 'erin', 'frank']],
    [{ number_op: 'greater_than', value: 3 }, ['alice']],
    [{ number_op: 'greater_than_or_equal_to', value: '3' }, ['alice', 'bob']],
    [{ number_op: 'less_than', value: 10 }, ['bob']],
    [{ number_op: 'less_than_or_equal_to', value: 10 }, ['alice', 'bob']],
    [{ number_op: 'between', value1: 3, value2: 10 }, ['alice', 'bob']],
    [{ number_op: 'not_between', value1: 4, value2: 10 }, ['bob', 'carol', 'dave', 'erin', 'frank']],
    [{ number_op: 'is_numeric' }, ['alice', 'bob']],
    [{ number_op: 'is_not_numeric' }, ['carol']],
  ])('seats %j', async (m, expected) => {
    expect(await membersOf(match({ trait: 'seats', ...m }))).toEqual(expected)
  })

  it('compares fractions', async () => {
    expect(await membersOf(match({ trait: 'score', number_op: 'greater_than', value: 4.2 }))).toEqual(['alice'])
    expect(await membersOf(match({ trait: 'score', number_op: 'less_than', value: 4.5 }))).toEqual([])
  })
})

describe('boolean traits', () => {
  it.each([
    [{ boolean_op: 'is_true' }, ['alice']],
    [{ boolean_op: 'is_false' }, ['bob', 'carol']],
    [{ boolean_op: 'is', value: true }, ['alice']],
    [{ boolean_op: 'is_not', value: true }, ['bob', 'carol', 'dave', 'erin', 'frank']],
    [{ boolean_op: 'is', value: false }, ['bob', 'carol']],
    [{ boolean_op: 'is_not', value: 'false' }, ['alice', 'dave', 'erin', 'frank']],
  ])('beta %j (true and false as booleans or as text)', async (m, expected) => {
    expect(await membersOf(match({ trait: 'beta', ...m }))).toEqual(expected)
  })
})

describe("date traits, on the organisation's calendar (Europe/Paris)", () => {
  it.each([
    // alice signed up 2026-02-27 23:30 UTC: in Paris, the 28th.
    [{ date_op: 'on', value: '2026-02-28' }, ['alice']],
    [{ date_op: 'on', value: '2026-02-27' }, []],
    [{ date_op: 'not_on', value: '2026-02-28' }, ['bob', 'carol', 'dave', 'erin', 'frank']],
    [{ date_op: 'before', value: '2026-02-28' }, ['bob']],
    [{ date_op: 'since', value: '2026-02-28' }, ['alice', 'carol', 'erin']],
    [{ date_op: 'between', value1: '2026-01-01', value2: '2026-02-28' }, ['alice', 'bob']],
    [{ date_op: 'not_between', value1: '2026-02-01', value2: '2026-03-01' }, ['bob', 'carol', 'dave', 'frank']],
  ])('signup %j', async (m, expected) => {
    expect(await membersOf(match({ trait: 'signup', ...m }))).toEqual(expected)
  })

  it.each([
    // now: 2026-03-02 10:00 in Paris. 3 days back: 2026-02-27 10:00 Paris (09:00 UTC).
    [{ date_op: 'last', value: 3, unit: 'day' }, ['alice', 'erin']],
    [{ date_op: 'last', value: 30, unit: 'hour' }, ['erin']],
    [{ date_op: 'not_in_the_last', value: 3, unit: 'day' }, ['bob', 'carol', 'dave', 'frank']],
    [{ date_op: 'before_the_last', value: 1, unit: 'week' }, ['bob']],
    [{ date_op: 'in_the_next', value: 1, unit: 'week' }, ['carol']],
    [{ date_op: 'in_the_next', value: 2, unit: 'day' }, []],
    // 2 months back: 2026-01-02 10:00 Paris; bob's bare day 2026-01-15 is midnight in Paris.
    [{ date_op: 'last', value: 2, unit: 'month' }, ['alice', 'bob', 'erin']],
    [{ date_op: 'last', value: 0, unit: 'day' }, []],
  ])('signup %j', async (m, expected) => {
    expect(await membersOf(match({ trait: 'signup', ...m }))).toEqual(expected)
  })
})

describe('company traits: the latest over the group calls of the user\'s company (their latest group)', () => {
  it.each([
    // acme's tier was gold (alice's call), then platinum (dave's): the latest stands. bob's latest group is globex.
    [{ trait: 'tier', string_op: 'is', value: 'platinum' }, ['alice', 'dave']],
    [{ trait: 'tier', string_op: 'is_not', value: 'platinum' }, ['bob', 'carol', 'erin', 'frank']],
    [{ trait: 'tier', string_op: 'is_set' }, ['alice', 'bob', 'dave']],
    [{ trait: 'employees', number_op: 'greater_than', value: 100 }, ['alice', 'dave']],
  ])('%j', async (m, expected) => {
    expect(await membersOf({ kind: 'company', ...m })).toEqual(expected)
  })

  it('tells a company trait from a user trait of the same name', async () => {
    expect(await membersOf({ kind: 'company', trait: 'name', string_op: 'is', value: 'Acme' })).toEqual(['alice', 'dave'])
    expect(await membersOf(match({ trait: 'name', string_op: 'is', value: 'Acme' }))).toEqual([])
  })
})

describe('actions: Report Created in the last 7 days (alice 3, bob 1, dave 5)', () => {
  it.each([
    [{}, ['alice', 'bob', 'dave']],
    [{ occurrence_op: 'equals', value: 0 }, ['carol', 'erin', 'frank']],
    [{ occurrence_op: 'equals', value: 3 }, ['alice']],
    [{ occurrence_op: 'not_equal', value: 1 }, ['alice', 'carol', 'dave', 'erin', 'frank']],
    [{ occurrence_op: 'greater_than', value: 3 }, ['dave']],
    [{ occurrence_op: 'greater_than_or_equal_to', value: 3 }, ['alice', 'dave']],
    [{ occurrence_op: 'less_than', value: 3 }, ['bob', 'carol', 'erin', 'frank']],
    [{ occurrence_op: 'less_than_or_equal_to', value: 3 }, ['alice', 'bob', 'carol', 'erin', 'frank']],
    [{ occurrence_op: 'between', value1: 1, value2: 3 }, ['alice', 'bob']],
    [{ occurrence_op: 'not_between', value1: 1, value2: 3 }, ['carol', 'dave', 'erin', 'frank']],
    // Over 30 days alice has 4 (the one ten days ago too).
    [{ occurrence_op: 'greater_than_or_equal_to', value: 4, date_range: { kind: 'last', value: 30, unit: 'day' } }, ['alice', 'dave']],
    [{ occurrence_op: 'greater_than_or_equal_to', value: 1, date_range: { kind: 'last', value: 1, unit: 'day' } }, ['alice', 'bob']],
  ])('%j', async (a, expected) => {
    expect(await actedOn(action(a))).toEqual(expected)
  })

  it('counts any event of a feature, and a feature deleted since counts nothing', async () => {
    const feature = await createFeature(t.sql, { orgId, name: 'Reporting', events: ['Report Created', 'Report Shared'] })
    const id = (feature as { id: string }).id
    expect(await actedOn({ kind: 'feature', feature_id: id, occurrence_op: 'greater_than_or_equal_to', value: 2, date_range: { kind: 'last', value: 7, unit: 'day' } })).toEqual(['alice', 'bob', 'dave'])
    expect(await actedOn(action({ occurrence_op: 'greater_than_or_equal_to', value: 2 }))).toEqual(['alice', 'dave'])
    const r = await preview({ matches: [], actions: [{ kind: 'feature', feature_id: 'no-such-feature', occurrence_op: 'equals', value: 0, date_range: { kind: 'last', value: 7, unit: 'day' } }] })
    expect(userIds(r)).toEqual(ALL)
    expect(r.userColumns.at(-1)).toEqual({ key: 'action.0', displayName: 'Unknown (last 7 days)' })
  })

  it('joins several actions with and', async () => {
    expect(await actedOn(action({}), action({ occurrence_op: 'less_than', value: 5 }))).toEqual(['alice', 'bob'])
  })
})

describe('aggregation', () => {
  it('joins matches with or, or with and; the actions with and, after them', async () => {
    const r = async (match_aggregation: string, matches: unknown[], actions: unknown[] = []) => userIds(await preview({ match_aggregation, matches, action_aggregation: 'and', actions }))
    const pro = match({ trait: 'plan', string_op: 'is', value: 'pro' })
    const eu = match({ trait: 'tags', stringArray_op: 'contains', value: 'eu' })
    expect(await r('or', [pro, eu])).toEqual(['alice', 'bob', 'erin'])
    expect(await r('and', [pro, eu])).toEqual(['alice'])
    expect(await r('or', [pro, eu], [action({})])).toEqual(['alice', 'bob'])
    expect(await r('and', [match({ trait: 'plan', string_op: 'is_set' }), match({ trait: 'beta', boolean_op: 'is_false' })])).toEqual(['bob', 'carol'])
  })

  it('leaves unfinished filters out (part 3 §4)', async () => {
    const r = await preview({ match_aggregation: 'and', matches: [match({ trait: 'plan', string_op: 'is', value: '' }), match({ trait: '', string_op: 'is', value: 'x' })], action_aggregation: 'and', actions: [action({ event_name: '' })] })
    expect(userIds(r)).toEqual(ALL)
  })
})

describe('the result tables', () => {
  it('shows the users with name, e-mail, company, last seen, the traits read and the action counts; the companies by how many members they have', async () => {
    const r = await preview({ match_aggregation: 'and', matches: [match({ trait: 'plan', string_op: 'is_set' }), { kind: 'company', trait: 'tier', string_op: 'is_set' }], action_aggregation: 'and', actions: [action({})] })
    expect(r.totalUsers).toBe(2)
    expect(r.totalCompanies).toBe(2)
    expect(r.userColumns).toEqual([
      { key: 'name', displayName: 'Name' },
      { key: 'email', displayName: 'Email' },
      { key: 'company', displayName: 'Company' },
      { key: 'lastSeen', displayName: 'Last seen' },
      { key: 'user.plan', displayName: 'plan' },
      { key: 'company.tier', displayName: 'Company tier' },
      { key: 'action.0', displayName: 'Report Created (last 7 days)' },
    ])
    // Most recently active first. alice's last activity is her event stamped ahead of now (2026-03-03): counted in no
    // action, but a pair's latest activity is kept whatever the time (clickhouse/0004's caveat), so she comes first.
    expect(r.users).toEqual([
      { userId: 'alice', name: 'Alice', email: 'alice@acme.test', company: 'Acme', companyId: 'g-acme', lastSeen: '2026-03-03T10:00:00.000Z', 'user.plan': 'pro', 'company.tier': 'platinum', 'action.0': 3 },
      { userId: 'bob', name: 'Bob', email: null, company: 'Globex', companyId: 'g-globex', lastSeen: '2026-03-01T12:00:00.000Z', 'user.plan': 'free', 'company.tier': 'silver', 'action.0': 1 },
    ])
    expect(r.companyColumns).toEqual([
      { key: 'name', displayName: 'Name' },
      { key: 'domain', displayName: 'Domain' },
      { key: 'users', displayName: 'Users' },
      { key: 'company.tier', displayName: 'tier' },
    ])
    expect(r.companies).toEqual([
      { companyId: 'g-acme', name: 'Acme', domain: 'acme.test', users: 1, 'company.tier': 'platinum' },
      { companyId: 'g-globex', name: 'Globex', domain: null, users: 1, 'company.tier': 'silver' },
    ])
  })

  it('pages both tables by 20, and gives the totals on a page past the end', async () => {
    await t.createOrg(cookie, 'Paged')
    const paged = (await findOrganisationByUrlCode(t.sql, 'paged'))!.id
    // 45 users, each one minute more recently seen than the one before; user i works at company i mod 23.
    const rows = Array.from({ length: 45 }, (_, i) => {
      const n = String(i).padStart(2, '0')
      return [
        eventRow({ org_id: paged, type: 'page', user_id: `user-${n}`, timestamp: `2026-03-01 10:${n}:00.000` }),
        eventRow({ org_id: paged, type: 'group', user_id: `user-${n}`, group_id: `co-${String(i % 23).padStart(2, '0')}`, timestamp: '2026-02-01 10:00:00.000' }),
      ]
    }).flat()
    await insertEvents(t.events, rows)
    const none = { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] }
    const first = await preview(none, 1, 'paged')
    expect([first.totalUsers, first.totalCompanies]).toEqual([45, 23])
    expect(first.users.map((u) => u.userId)).toEqual(Array.from({ length: 20 }, (_, i) => `user-${44 - i}`))
    // 22 companies have two members (0–21), co-22 one: most members first, then by id.
    expect(first.companies.map((c) => [c.companyId, c.users])).toEqual(Array.from({ length: 20 }, (_, i) => [`co-${String(i).padStart(2, '0')}`, 2]))
    const third = await preview(none, 3, 'paged')
    expect(third.users.map((u) => u.userId)).toEqual(['user-04', 'user-03', 'user-02', 'user-01', 'user-00'])
    expect(third.companies).toEqual([])
    const second = await preview(none, 2, 'paged')
    expect(second.companies.map((c) => [c.companyId, c.users])).toEqual([['co-20', 2], ['co-21', 2], ['co-22', 1]])
    const past = await preview(none, 9, 'paged')
    expect(past).toMatchObject({ totalUsers: 45, totalCompanies: 23, users: [], companies: [] })
  })
})

describe('names and values shaped like SQL are data', () => {
  it('reads awkward trait names (quotes, backticks, placeholders, nested paths) and matches awkward values exactly', async () => {
    await t.createOrg(cookie, 'Quotes')
    const quotes = (await findOrganisationByUrlCode(t.sql, 'quotes'))!.id
    const evil = "plan'); DROP TABLE events; --"
    const traits = { [evil]: "' OR 1=1 --", "it's": 'a\\b', 'x`y': '{p0:String}', '{org:String}': 'placeholder', address: { city: 'Paris' } }
    await insertEvents(t.events, [
      eventRow({ org_id: quotes, type: 'identify', user_id: "o'brien", timestamp: '2026-03-01 10:00:00.000', traits }),
      eventRow({ org_id: quotes, type: 'identify', user_id: 'plain', timestamp: '2026-03-01 10:00:00.000', traits: { plan: 'x' } }),
      eventRow({ org_id: quotes, type: 'track', user_id: "o'brien", event: "Report '; --", timestamp: '2026-03-01 10:00:00.000' }),
    ])
    const q = async (...matches: unknown[]) => userIds(await preview({ match_aggregation: 'and', matches, action_aggregation: 'and', actions: [] }, 1, 'quotes'))
    expect(await q(match({ trait: evil, string_op: 'is', value: "' OR 1=1 --" }))).toEqual(["o'brien"])
    expect(await q(match({ trait: evil, string_op: 'is', value: "' OR '1'='1" }))).toEqual([])
    expect(await q(match({ trait: "it's", string_op: 'is', value: 'a\\b' }))).toEqual(["o'brien"])
    expect(await q(match({ trait: 'x`y', string_op: 'contains', value: '{p0:' }))).toEqual(["o'brien"])
    expect(await q(match({ trait: '{org:String}', string_op: 'is_set' }))).toEqual(["o'brien"])
    expect(await q(match({ trait: 'address.city', string_op: 'is', value: 'Paris' }))).toEqual(["o'brien"])
    expect(await q(match({ trait: "nobody's trait", string_op: 'is_not_set' }))).toEqual(["o'brien", 'plain'])
    const acted = await preview({ match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [action({ event_name: "Report '; --" })] }, 1, 'quotes')
    expect(userIds(acted)).toEqual(["o'brien"])
    // The events are all still there.
    const count = await t.events.client.query({ query: 'SELECT count() AS n FROM events WHERE org_id = {org:String}', query_params: { org: quotes }, format: 'JSONEachRow' })
    expect(Number((await count.json<{ n: string }>())[0]!.n)).toBe(3)
  })
})
