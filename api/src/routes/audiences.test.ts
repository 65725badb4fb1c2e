import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import type { AudienceDetail, AudienceList, AudienceResults, CreatedAudience } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'
import { parse as parseCsv } from 'csv-parse/sync'

/**
 * The audience calls of part 3 §7 on PGlite and chDB: create, read, list with
 * counts, the three kinds of PATCH, delete, the name and description rules,
 * nested audiences and the refusal of loops.
 */
let t: TestApi
let cookie: string
let stranger: string
let orgId: string

const base = '/api/orgs/acme/audiences'
const filters = (matches: unknown[] = [], actions: unknown[] = [], match_aggregation = 'and') => ({ match_aggregation, matches, action_aggregation: 'and', actions })
const plan = (value: string) => ({ kind: 'user', trait: 'plan', string_op: 'is', value })
const inAudience = (audience_id: string) => ({ kind: 'audience', audience_op: 'is', audience_id })

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie, orgId } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: stranger } = await t.signUpWithOrg('Eve', 'Elsewhere'))
  const identify = (user_id: string, traits: Record<string, unknown>) => eventRow({ org_id: orgId, type: 'identify', user_id, traits, timestamp: '2026-03-01 10:00:00.000' })
  const group = (user_id: string, group_id: string) => eventRow({ org_id: orgId, type: 'group', user_id, group_id, timestamp: '2026-03-01 10:00:00.000' })
  await insertEvents(t.events, [
    identify('u1', { plan: 'pro', seats: 12 }),
    identify('u2', { plan: 'pro', seats: 2 }),
    identify('u3', { plan: 'free', seats: 30 }),
    group('u1', 'g1'),
    group('u2', 'g1'),
    group('u3', 'g2'),
  ])
})
afterAll(() => t?.close())

const create = async (body: unknown, as = cookie) => t.call('POST', base, { cookie: as, body })
const created = async (name: string, description = '') => ((await (await create({ name, description })).json()) as CreatedAudience).audience_id
const patch = (id: string, body: unknown) => t.call('PATCH', `${base}/${id}`, { cookie, body })
const get = async (id: string) => ((await (await t.call('GET', `${base}/${id}`, { cookie })).json()) as AudienceDetail).audience
const list = async () => ((await (await t.call('GET', base, { cookie })).json()) as AudienceList).audiences
const body = async (res: Response) => (await res.json()) as { message: string; errors: Array<{ name: string; message: string }> }

describe('create, read, change and delete', () => {
  it('creates with a name and description and answers the audience_id; reads it back with no filters', async () => {
    const res = await create({ name: '  Pro users ', description: 'Paying' })
    expect(res.status).toBe(201)
    const { audience_id } = (await res.json()) as CreatedAudience
    expect(await get(audience_id)).toEqual({ id: audience_id, name: 'Pro users', description: 'Paying', filters: filters() })
  })

  it.each([
    [{ description: 'x' }, 'name', 'Name must be provided'],
    [{ name: ' \t ' }, 'name', 'Name must be provided'],
    [{ name: 'x'.repeat(50) }, 'name', 'Name must have less than 50 characters'],
    [{ name: 'ok', description: 'x'.repeat(300) }, 'description', 'Description must have less than 300 characters'],
  ])('refuses %j with the spec\'s message', async (b, name, message) => {
    const res = await create(b)
    expect(res.status).toBe(400)
    expect((await body(res)).errors).toEqual([{ name, message }])
  })

  it('PATCHes filters alone, name and description alone, or all three; stores filters without the unfinished ones', async () => {
    const id = await created('Draft')
    const first = await patch(id, { filters: filters([plan('pro'), { kind: 'user', trait: 'seats', number_op: 'greater_than' }]) })
    expect(first.status).toBe(200)
    expect(await get(id)).toEqual({ id, name: 'Draft', description: '', filters: filters([plan('pro')]) })
    expect((await patch(id, { name: 'Pro', description: 'Paying users' })).status).toBe(200)
    expect(await get(id)).toEqual({ id, name: 'Pro', description: 'Paying users', filters: filters([plan('pro')]) })
    expect((await patch(id, { name: 'Pro seats', description: '', filters: filters([plan('pro'), { kind: 'user', trait: 'seats', number_op: 'greater_than', value: '5' }]) })).status).toBe(200)
    expect(await get(id)).toEqual({
      id,
      name: 'Pro seats',
      description: '',
      filters: filters([plan('pro'), { kind: 'user', trait: 'seats', number_op: 'greater_than', value: 5 }]),
    })
    const bad = await patch(id, { name: '' })
    expect((await body(bad)).errors).toEqual([{ name: 'name', message: 'Name must be provided' }])
    const between = await patch(id, { filters: filters([{ kind: 'user', trait: 'seats', number_op: 'between', value1: 9, value2: 3 }]) })
    expect(between.status).toBe(400)
    expect((await body(between)).errors).toEqual([{ name: 'filters.matches.0.value2', message: 'The second value must be greater than the first' }])
  })

  it('lists them by name with their members and companies counted now', async () => {
    const pro = await created('a pro')
    await patch(pro, { filters: filters([plan('pro')]) })
    const rows = await list()
    expect(rows.find((a) => a.id === pro)).toEqual({ id: pro, name: 'a pro', description: '', userCount: 2, companyCount: 1 })
    expect(rows.map((a) => a.name)).toEqual([...rows.map((a) => a.name)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
    // An audience with no filters has every user.
    const everyone = rows.find((a) => a.name === 'Draft' || a.name === 'Pro users')
    expect(everyone).toBeDefined()
  })

  it("keeps another organisation's audiences out of reach: 404 'Audience not found'", async () => {
    const id = await created('Mine')
    await t.createOrg(stranger, 'Acme')
    for (const [method, path] of [
      ['GET', `/api/orgs/acme-2/audiences/${id}`],
      ['PATCH', `/api/orgs/acme-2/audiences/${id}`],
      ['DELETE', `/api/orgs/acme-2/audiences/${id}`],
    ] as const) {
      const res = await t.call(method, path, { cookie: stranger, body: method === 'PATCH' ? { name: 'stolen' } : undefined })
      expect([res.status, (await body(res)).message]).toEqual([404, 'Audience not found'])
    }
    expect((await get(id)).name).toBe('Mine')
  })

  it('deletes, then answers 404', async () => {
    const id = await created('Gone')
    expect((await t.call('DELETE', `${base}/${id}`, { cookie })).status).toBe(204)
    const res = await t.call('GET', `${base}/${id}`, { cookie })
    expect([res.status, (await body(res)).message]).toEqual([404, 'Audience not found'])
    expect((await t.call('DELETE', `${base}/${id}`, { cookie })).status).toBe(404)
  })

  it('leaves GET .../audiences/traits to the trait look-up', async () => {
    const res = await t.call('GET', `${base}/traits`, { cookie })
    expect(res.status).toBe(200)
    expect(Object.keys(await res.json())).toEqual(['company_traits', 'user_traits'])
  })
})

describe('nested audiences', () => {
  const members = async (f: unknown) => {
    const res = await t.call('POST', `${base}/filters`, { cookie, body: { filters: f } })
    expect(res.status).toBe(200)
    return ((await res.json()) as AudienceResults).users.map((u) => u.userId).sort()
  }

  it('takes in the members of another saved audience, as it is saved now', async () => {
    const pro = await created('Nested pro')
    await patch(pro, { filters: filters([plan('pro')]) })
    const bigPro = await created('Big pro')
    await patch(bigPro, { filters: filters([inAudience(pro), { kind: 'user', trait: 'seats', number_op: 'greater_than', value: 10 }]) })
    expect(await members(filters([inAudience(bigPro)]))).toEqual(['u1'])
    expect(await members(filters([inAudience(pro), plan('free')], [], 'or'))).toEqual(['u1', 'u2', 'u3'])
    await patch(pro, { filters: filters([plan('free')]) })
    expect(await members(filters([inAudience(bigPro)]))).toEqual(['u3'])
  })

  it('matches no one for an audience that no longer exists', async () => {
    expect(await members(filters([inAudience('no-such-audience')]))).toEqual([])
    expect(await members(filters([inAudience('no-such-audience'), plan('pro')], [], 'or'))).toEqual(['u1', 'u2'])
  })

  it('refuses a loop, direct or through others, with a clear 400, and saves nothing of it', async () => {
    const a = await created('Loop A')
    const b = await created('Loop B')
    const c = await created('Loop C')
    expect((await patch(b, { filters: filters([inAudience(a)]) })).status).toBe(200)
    expect((await patch(c, { filters: filters([inAudience(b)]) })).status).toBe(200)
    for (const f of [filters([inAudience(a)]), filters([inAudience(c)]), filters([plan('pro'), inAudience(b)], [], 'or')]) {
      const res = await patch(a, { filters: f })
      expect(res.status).toBe(400)
      expect((await body(res)).errors).toEqual([{ name: 'filters', message: 'An audience cannot include itself, directly or through other audiences' }])
    }
    expect((await get(a)).filters).toEqual(filters())
    // Counting c still works: c → b → a, with a as saved.
    expect((await list()).find((x) => x.id === c)?.userCount).toBe(3)
  })
})

describe('GET .../audiences/{audienceId}/members.csv', () => {
  let code: string
  let csvOrg: string
  let csvCookie: string
  let audienceId: string
  const csvBase = () => `/api/orgs/${code}/audiences`

  beforeAll(async () => {
    ;({ cookie: csvCookie, urlCode: code, orgId: csvOrg } = await t.signUpWithOrg('Cy', 'Csv export'))
    const at = (s: number) => `2026-03-01 10:00:${String(s).padStart(2, '0')}.000`
    const identify = (user_id: string, traits: Record<string, unknown>, s: number) => eventRow({ org_id: csvOrg, type: 'identify', user_id, traits, timestamp: at(s) })
    const group = (user_id: string, group_id: string, traits: Record<string, unknown>, s: number) => eventRow({ org_id: csvOrg, type: 'group', user_id, group_id, traits, timestamp: at(s) })
    // 25 pro users (more than a page of 20), a name with a quote, a comma and a line break, and a free user left out.
    await insertEvents(t.events, [
      identify('u-quote', { plan: 'pro', name: 'Ada "the first", Lovelace\nof London', email: 'ada@acme.test' }, 50),
      group('u-quote', 'g-acme', { name: 'Acme, Inc.', domain: 'acme.test' }, 51),
      ...Array.from({ length: 24 }, (_, i) => identify(`u-${String(i).padStart(2, '0')}`, { plan: 'pro' }, i)),
      ...Array.from({ length: 3 }, (_, i) => group(`u-${String(i).padStart(2, '0')}`, 'g-acme', {}, 30 + i)),
      group('u-10', 'g-globex', { name: 'Globex', domain: 'globex.test' }, 40),
      identify('u-free', { plan: 'free' }, 45),
    ])
    audienceId = ((await (await t.call('POST', csvBase(), { cookie: csvCookie, body: { name: 'Pro "users"', description: '' } })).json()) as CreatedAudience).audience_id
    expect((await t.call('PATCH', `${csvBase()}/${audienceId}`, { cookie: csvCookie, body: { filters: filters([plan('pro')]) } })).status).toBe(200)
  })

  /** RFC 4180 records, read back by csv-parse (the import job's reader): quoted fields, "" for a quote, CRLF alone between records. */
  const parse = (csv: string): string[][] => parseCsv(csv, { record_delimiter: '\r\n' })

  it('downloads every member (not a page), with a header row, each field quoted per RFC 4180', async () => {
    const res = await t.call('GET', `${csvBase()}/${audienceId}/members.csv`, { cookie: csvCookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="pro-users-users.csv"; filename*=UTF-8''${encodeURIComponent('Pro "users" users.csv')}`)
    const text = await res.text()
    expect(text.startsWith('"User","Name","Email","Company","Company ID","Last seen","plan"\r\n')).toBe(true)
    expect(text).toContain('"Ada ""the first"", Lovelace\nof London"')
    const [header, ...records] = parse(text)
    expect(header).toEqual(['User', 'Name', 'Email', 'Company', 'Company ID', 'Last seen', 'plan'])
    expect(records).toHaveLength(25)
    expect(records.map((r) => r[0]).sort()).toEqual([...Array.from({ length: 24 }, (_, i) => `u-${String(i).padStart(2, '0')}`), 'u-quote'].sort())
    // No activity call yet: no last seen; the rest as the preview shows them.
    expect(records.find((r) => r[0] === 'u-quote')).toEqual(['u-quote', 'Ada "the first", Lovelace\nof London', 'ada@acme.test', 'Acme, Inc.', 'g-acme', '', 'pro'])
    expect(records.find((r) => r[0] === 'u-10')).toEqual(['u-10', '', '', 'Globex', 'g-globex', '', 'pro'])
    expect(records.every((r) => r[6] === 'pro')).toBe(true)
  })

  it('?of=companies: one row per company the members have, most members first', async () => {
    const res = await t.call('GET', `${csvBase()}/${audienceId}/members.csv?of=companies`, { cookie: csvCookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="pro-users-companies.csv"')
    expect(parse(await res.text())).toEqual([
      ['Company ID', 'Name', 'Domain', 'Users'],
      ['g-acme', 'Acme, Inc.', 'acme.test', '4'],
      ['g-globex', 'Globex', 'globex.test', '1'],
    ])
  })

  it("answers 404 'Audience not found' to a stranger, an unknown audience, and no one signed in 401", async () => {
    const foreign = await t.call('GET', `${csvBase()}/${audienceId}/members.csv`, { cookie })
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toMatchObject({ message: 'Organization not found' })
    // The stranger's own organisation does not have it either.
    const theirs = await t.call('GET', `/api/orgs/acme/audiences/${audienceId}/members.csv`, { cookie })
    expect([theirs.status, (await theirs.json()).message]).toEqual([404, 'Audience not found'])
    const unknown = await t.call('GET', `${csvBase()}/nope/members.csv`, { cookie: csvCookie })
    expect(unknown.status).toBe(404)
    expect((await t.call('GET', `${csvBase()}/${audienceId}/members.csv`)).status).toBe(401)
  })
})
