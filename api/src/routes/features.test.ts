import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import type { FeatureDetail, FeatureList, KnownEventList } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'

/** Features and the known events their picker offers (spec part 1 §2, §5, §7), on PGlite and chDB. */
let t: TestApi
let cookie: string
let stranger: string
let orgId: string

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie, orgId } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: stranger } = await t.signUpWithOrg('Eve', 'Elsewhere'))
})
afterAll(() => t.close())

const base = '/api-v2/orgs/acme/features'
const list = async () => ((await (await t.call('GET', base, { cookie })).json()) as FeatureList).features
const create = (body: unknown) => t.call('POST', base, { cookie, body })
const errorsOf = async (res: Response) => ((await res.json()) as { errors: unknown[] }).errors

describe('GET /api-v2/orgs/{organization}/events', () => {
  const events = async (query = '') => {
    const res = await t.call('GET', `/api-v2/orgs/acme/events${query}`, { cookie })
    expect(res.status).toBe(200)
    return ((await res.json()) as KnownEventList).events
  }

  it('is empty before any event arrives', async () => {
    expect(await events()).toEqual([])
  })

  it("lists the organisation's track events, most frequent first, ties by name; not pages, not other organisations'", async () => {
    const track = (event: string, n: number, org = orgId) => Array.from({ length: n }, () => eventRow({ org_id: org, type: 'track', event, user_id: 'u1' }))
    await insertEvents(t.events, [
      ...track('Signed Up', 2),
      ...track('Report Created', 5),
      ...track('Dashboard Viewed', 2),
      ...track('Invite Sent', 1),
      ...track('Secret Other Org Event', 9, 'some-other-org-id'),
      eventRow({ org_id: orgId, type: 'page', name: 'Pricing', page_path: '/pricing' }),
      eventRow({ org_id: orgId, type: 'identify', user_id: 'u1' }),
    ])
    expect(await events()).toEqual([
      { name: 'Report Created', volume: 5 },
      { name: 'Dashboard Viewed', volume: 2 },
      { name: 'Signed Up', volume: 2 },
      { name: 'Invite Sent', volume: 1 },
    ])
  })

  it('narrows by ?search=, ignoring case; the search is a bound parameter, never SQL', async () => {
    expect((await events('?search=  SIGN  ')).map((e) => e.name)).toEqual(['Signed Up'])
    expect((await events('?search=e')).map((e) => e.name)).toEqual(['Report Created', 'Dashboard Viewed', 'Signed Up', 'Invite Sent'])
    expect(await events(`?search=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([])
    expect(await events('?search=%25')).toEqual([])
    const res = await t.call('GET', `/api-v2/orgs/acme/events?search=${'x'.repeat(201)}`, { cookie })
    expect(res.status).toBe(400)
    expect(await errorsOf(res)).toEqual([{ name: 'search', message: 'Search must have at most 200 characters' }])
  })

  it("is another organisation's business: 404", async () => {
    expect((await t.call('GET', '/api-v2/orgs/acme/events', { cookie: stranger })).status).toBe(404)
  })
})

describe('features', () => {
  it('starts with none', async () => {
    expect(await list()).toEqual([])
  })

  it('creates one with its events (trimmed, each once) and reads it back with event_name items', async () => {
    const res = await create({ name: ' Reporting ', events: ['Report Created', ' Dashboard Viewed ', 'Report Created', 'Custom Thing'] })
    expect(res.status).toBe(201)
    const made = (await res.json()) as FeatureDetail
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Reporting',
      events: [{ event_name: 'Report Created' }, { event_name: 'Dashboard Viewed' }, { event_name: 'Custom Thing' }],
    })
    const read = await t.call('GET', `${base}/${made.id}`, { cookie })
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual(made)
    expect(await list()).toEqual([{ id: made.id, name: 'Reporting' }])
  })

  it('lists features by name, ignoring case', async () => {
    await create({ name: 'onboarding', events: ['Signed Up'] })
    await create({ name: 'Collaboration' })
    expect((await list()).map((f) => f.name)).toEqual(['Collaboration', 'onboarding', 'Reporting'])
  })

  it.each([
    [{}, 'name', 'Name must be provided'],
    [{ name: '  ', events: [] }, 'name', 'Name must be provided'],
    [{ name: 'x'.repeat(50), events: [] }, 'name', 'Name must have less than 50 characters'],
    [{ name: 'Blank event', events: ['Signed Up', ' '] }, 'events.1', 'Event name must not be blank'],
    [{ name: 'Long event', events: ['e'.repeat(201)] }, 'events.0', 'Event name must have at most 200 characters'],
    [{ name: 'Too many', events: Array.from({ length: 101 }, (_, i) => `Event ${i}`) }, 'events', 'A feature can have at most 100 events'],
    [{ name: 'Not a list', events: 'Signed Up' }, 'events', 'Events must be a list of event names'],
  ])('refuses %j on %s: %s', async (body, name, message) => {
    const before = await list()
    const res = await create(body)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message, errors: [{ name, message }] })
    expect(await list()).toEqual(before)
  })

  it('accepts a name of 49 characters', async () => {
    const res = await create({ name: 'n'.repeat(49), events: [] })
    expect(res.status).toBe(201)
    await t.call('DELETE', `${base}/${((await res.json()) as FeatureDetail).id}`, { cookie })
  })

  it('refuses a second feature of the same name, in any case, on the name field', async () => {
    const res = await create({ name: 'REPORTING', events: [] })
    expect(res.status).toBe(409)
    expect(await errorsOf(res)).toEqual([{ name: 'name', message: 'A feature with this name already exists' }])
    // Another organisation may use the name.
    expect((await t.call('POST', '/api-v2/orgs/elsewhere/features', { cookie: stranger, body: { name: 'Reporting' } })).status).toBe(201)
  })

  it('changes the name and the events with PATCH; what is left out stays', async () => {
    const id = (await list()).find((f) => f.name === 'Reporting')!.id
    const renamed = await t.call('PATCH', `${base}/${id}`, { cookie, body: { name: 'Reports' } })
    expect(renamed.status).toBe(200)
    expect(((await renamed.json()) as FeatureDetail).events).toHaveLength(3)
    const res = await t.call('PATCH', `${base}/${id}`, { cookie, body: { name: 'Reports', events: ['Dashboard Viewed', 'Invite Sent'] } })
    expect(await res.json()).toEqual({ id, name: 'Reports', events: [{ event_name: 'Dashboard Viewed' }, { event_name: 'Invite Sent' }] })
    const clash = await t.call('PATCH', `${base}/${id}`, { cookie, body: { name: 'Onboarding', events: [] } })
    expect(clash.status).toBe(409)
    expect(await errorsOf(clash)).toEqual([{ name: 'name', message: 'A feature with this name already exists' }])
    const bad = await t.call('PATCH', `${base}/${id}`, { cookie, body: { name: 'x'.repeat(50) } })
    expect(await errorsOf(bad)).toEqual([{ name: 'name', message: 'Name must have less than 50 characters' }])
    expect(await (await t.call('GET', `${base}/${id}`, { cookie })).json()).toEqual({ id, name: 'Reports', events: [{ event_name: 'Dashboard Viewed' }, { event_name: 'Invite Sent' }] })
  })

  it('deletes one: 204, then it is gone', async () => {
    const id = (await list()).find((f) => f.name === 'Collaboration')!.id
    expect((await t.call('DELETE', `${base}/${id}`, { cookie })).status).toBe(204)
    expect((await list()).map((f) => f.name)).toEqual(['onboarding', 'Reports'])
    const again = await t.call('DELETE', `${base}/${id}`, { cookie })
    expect([again.status, await again.json()]).toEqual([404, { success: false, message: 'Feature not found', errors: [] }])
    expect((await t.call('GET', `${base}/${id}`, { cookie })).status).toBe(404)
  })

  it("answers 404 'Feature not found' for another organisation's feature, through its own organisation's path too", async () => {
    const theirs = ((await (await t.call('GET', '/api-v2/orgs/elsewhere/features', { cookie: stranger })).json()) as FeatureList).features[0]!
    const notFound = { success: false, message: 'Feature not found', errors: [] }
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine now' }], ['DELETE']] as const) {
      const res = await t.call(method, `${base}/${theirs.id}`, { cookie, body })
      expect([method, res.status, await res.json()]).toEqual([method, 404, notFound])
    }
    // And the organisation itself is not reachable for a non-member.
    const res = await t.call('GET', `/api-v2/orgs/elsewhere/features/${theirs.id}`, { cookie })
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([404, 'Organization not found'])
    expect(await (await t.call('GET', `/api-v2/orgs/elsewhere/features/${theirs.id}`, { cookie: stranger })).json()).toMatchObject({ name: 'Reporting' })
  })
})
