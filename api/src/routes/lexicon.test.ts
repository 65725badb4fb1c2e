import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEXICON_ERRORS, MAPPING_PAGE_SIZE, type IngestedEvent, type LexiconEventList, type MappingEventList } from '@fl0/contracts'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { indexRecords } from '@fl0/workers'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The lexicon's calls and the shared look-ups on real events in chDB, indexed
 * as the lexicon worker indexes them. The test clock stands at 2026-03-02
 * 09:00 UTC, so the 30 days are 2026-01-31 09:00 … 2026-03-02 09:00.
 */
let t: TestApi
let cookie: string
let acme: string
let globex: string

const ODD_EVENT = "Report/Exported 'Q1' #1?"
const ODD_KEY = `it's "odd" \`key\``

async function orgIdOf(code: string): Promise<string> {
  const me = (await (await t.call('GET', '/api/users/me', { cookie })).json()) as { orgs: Array<{ id: string; url_code: string }> }
  return me.orgs.find((o) => o.url_code === code)!.id
}

function fixture(org: string): IngestedEvent[] {
  const e = (iso: string, partial: Partial<Omit<IngestedEvent, 'timestamp'>>) => eventRow({ org_id: org, timestamp: new Date(iso), ...partial })
  const order = (iso: string, user: string, properties: Record<string, unknown>) => e(iso, { event: 'Order Completed', user_id: user, properties })
  return [
    order('2026-03-01T10:00:00Z', 'u1', { total: 99.5, coupon: 'SAVE10', shipping: { method: 'express' }, items: ['a', 'b'], placed_at: '2026-03-01T10:00:00Z', gift: false, [ODD_KEY]: 'x', 'a.b': 'dotted' }),
    order('2026-02-20T10:00:00Z', 'u2', { total: 12, coupon: 10, shipping: { method: 'standard' } }),
    order('2026-02-10T10:00:00Z', 'u3', { total: 12, shipping: { method: 'express' } }),
    // 40 days ago: outside the volume's window, still in the dictionary.
    order('2026-01-21T10:00:00Z', 'u4', { total: 5, shipping: { method: 'express' } }),
    e('2026-01-21T10:00:00Z', { event: 'Old Event', user_id: 'u4' }),
    e('2026-03-02T08:00:00Z', { event: 'Signed Up', user_id: 'u5' }),
    e('2026-03-02T08:30:00Z', { event: ODD_EVENT, user_id: 'u5', properties: { format: 'csv' } }),
    e('2026-03-02T08:31:00Z', { event: ODD_EVENT, user_id: 'u5', properties: { format: 'pdf' } }),
    e('2026-03-02T08:32:00Z', { event: ODD_EVENT, user_id: 'u6', properties: { format: 'csv' } }),
    // After "now": not in the last 30 days.
    e('2026-03-03T08:00:00Z', { event: 'Signed Up', user_id: 'u6' }),
    e('2026-03-01T09:00:00Z', { type: 'page', name: 'Pricing', user_id: 'u1', properties: { path: '/pricing' } }),
    e('2026-02-01T09:00:00Z', { type: 'identify', user_id: 'u1', traits: { email: 'ada@acme.com', age: 36, address: { city: 'London' }, plan: 'pro' } }),
    e('2026-02-02T09:00:00Z', { type: 'identify', user_id: 'u1', traits: { plan: 'enterprise' } }),
    e('2026-02-03T09:00:00Z', { type: 'identify', user_id: 'u2', traits: { email: 'bob@acme.com', age: 'unknown', address: { city: 'London' }, plan: 'pro' } }),
    e('2026-02-03T09:00:00Z', { type: 'identify', anonymous_id: 'anon-1', traits: { plan: 'pro', address: { city: 'Paris' } } }),
    e('2026-02-04T09:00:00Z', { type: 'group', user_id: 'u1', group_id: 'g1', traits: { name: 'Acme', employees: 120, plan: 'pro' } }),
    e('2026-02-05T09:00:00Z', { type: 'group', user_id: 'u2', group_id: 'g1', traits: { plan: 'pro' } }),
    e('2026-02-05T09:00:00Z', { type: 'group', user_id: 'u3', group_id: 'g2', traits: { name: 'Globex', plan: 'free' } }),
    e('2026-02-06T09:00:00Z', { type: 'group', user_id: 'u4', group_id: 'g3', traits: { plan: 'pro' } }),
  ]
}

async function store(rows: IngestedEvent[]) {
  await insertEvents(t.events, rows)
  await indexRecords(t.events, rows.map((r) => JSON.stringify(r)))
}

const get = async <T>(path: string) => {
  const res = await t.call('GET', path, { cookie })
  return { status: res.status, body: (await res.json()) as T }
}

beforeAll(async () => {
  t = await createTestApi()
  cookie = (await t.signUp('Ada')).cookie
  await t.createOrg(cookie, 'Acme')
  await t.createOrg(cookie, 'Globex')
  acme = await orgIdOf('acme')
  globex = await orgIdOf('globex')
  await store(fixture(acme))
  // Another organisation with many events, for the mapping's pages, and none of Acme's.
  await store(Array.from({ length: 25 }, (_, i) => eventRow({ org_id: globex, event: `Event ${String(i + 1).padStart(2, '0')}`, properties: { n: i } })))
})
afterAll(() => t?.close())

describe('lexicon events', () => {
  it('lists track event names with their 30-day volume, most first; page names are not events', async () => {
    const { status, body } = await get<LexiconEventList>('/api/orgs/acme/lexicon/events')
    expect(status).toBe(200)
    expect(body.events.map(({ name, volume }) => [name, volume])).toEqual([
      ['Order Completed', 3],
      [ODD_EVENT, 3],
      ['Signed Up', 1],
      ['Old Event', 0],
    ])
    // A tagId per name, the same in every answer.
    const ids = body.events.map((e) => e.tagId)
    expect(new Set(ids).size).toBe(4)
    expect((await get<LexiconEventList>('/api/orgs/acme/lexicon/events')).body.events.map((e) => e.tagId)).toEqual(ids)
  })

  it("lists an event's properties with their types, by path; none for an event without any or unknown", async () => {
    expect((await get('/api/orgs/acme/lexicon/events/Order%20Completed/properties')).body).toEqual({
      properties: [
        { name: 'a.b', propertyType: 'string' },
        // 'SAVE10' and 10: widened to string.
        { name: 'coupon', propertyType: 'string' },
        { name: 'gift', propertyType: 'boolean' },
        { name: ODD_KEY, propertyType: 'string' },
        { name: 'items', propertyType: 'stringArray' },
        { name: 'placed_at', propertyType: 'date' },
        { name: 'shipping.method', propertyType: 'string' },
        // 99.5 and 12: both numbers.
        { name: 'total', propertyType: 'number' },
      ],
    })
    expect((await get('/api/orgs/acme/lexicon/events/Signed%20Up/properties')).body).toEqual({ properties: [] })
    expect((await get('/api/orgs/acme/lexicon/events/Nothing/properties')).body).toEqual({ properties: [] })
    expect((await get(`/api/orgs/acme/lexicon/events/${encodeURIComponent(ODD_EVENT)}/properties`)).body).toEqual({ properties: [{ name: 'format', propertyType: 'string' }] })
    // Another organisation's dictionary is its own.
    expect((await get('/api/orgs/globex/lexicon/events/Order%20Completed/properties')).body).toEqual({ properties: [] })
  })

  it('refuses an event name longer than any the ingest accepts', async () => {
    const { status, body } = await get(`/api/orgs/acme/lexicon/events/${'x'.repeat(201)}/properties`)
    expect(status).toBe(400)
    expect(body).toEqual({ success: false, message: LEXICON_ERRORS.eventTooLong, errors: [{ name: 'eventName', message: LEXICON_ERRORS.eventTooLong }] })
  })

  it('lists traits of users (SegmentIdentify) and companies (SegmentGroup) with their types', async () => {
    expect((await get('/api/orgs/acme/lexicon/traits')).body).toEqual({
      traits: [
        { name: 'address.city', traitType: 'string', eventType: 'SegmentIdentify' },
        // 36 and 'unknown': widened to string.
        { name: 'age', traitType: 'string', eventType: 'SegmentIdentify' },
        { name: 'email', traitType: 'string', eventType: 'SegmentIdentify' },
        { name: 'employees', traitType: 'number', eventType: 'SegmentGroup' },
        { name: 'name', traitType: 'string', eventType: 'SegmentGroup' },
        { name: 'plan', traitType: 'string', eventType: 'SegmentIdentify' },
        { name: 'plan', traitType: 'string', eventType: 'SegmentGroup' },
      ],
    })
    expect((await get('/api/orgs/globex/lexicon/traits')).body).toEqual({ traits: [] })
  })
})

describe('shared look-ups', () => {
  it('maps trait names to types for companies and users', async () => {
    expect((await get('/api/orgs/acme/audiences/traits')).body).toEqual({
      company_traits: { employees: 'number', name: 'string', plan: 'string' },
      user_traits: { 'address.city': 'string', age: 'string', email: 'string', plan: 'string' },
    })
  })

  it("lists a trait's values by how many users or companies have them", async () => {
    // plan: 'pro' for u1, u2 and anon-1 (u1 twice counts once), 'enterprise' for u1.
    expect((await get('/api/orgs/acme/audiences/traits/user/plan/values')).body).toEqual({ values: ['pro', 'enterprise'] })
    expect((await get('/api/orgs/acme/audiences/traits/user/address.city/values')).body).toEqual({ values: ['London', 'Paris'] })
    // g1 said 'pro' twice (once), g3 'pro', g2 'free'.
    expect((await get('/api/orgs/acme/audiences/traits/company/plan/values')).body).toEqual({ values: ['pro', 'free'] })
    expect((await get('/api/orgs/acme/audiences/traits/company/nothing/values')).body).toEqual({ values: [] })
    const bad = await get('/api/orgs/acme/audiences/traits/people/plan/values')
    expect(bad).toEqual({ status: 400, body: { success: false, message: LEXICON_ERRORS.audienceType, errors: [{ name: 'audienceType', message: LEXICON_ERRORS.audienceType }] } })
  })

  it('lists more values than a picker shows, so that it can say how many there were', async () => {
    await store(Array.from({ length: 150 }, (_, i) => eventRow({ org_id: globex, type: 'identify', user_id: `v${i}`, traits: { city: `City ${String(i).padStart(3, '0')}` } })))
    const { body } = await get<{ values: string[] }>('/api/orgs/globex/audiences/traits/user/city/values')
    expect(body.values).toHaveLength(150)
    expect(body.values.slice(0, 2)).toEqual(['City 000', 'City 001'])
  })

  it("lists an event's property paths, and a property's values most frequent first", async () => {
    expect((await get(`/api/orgs/acme/events/${encodeURIComponent(ODD_EVENT)}/properties`)).body).toEqual({ items: [{ path: 'format' }] })
    expect((await get(`/api/orgs/acme/events/${encodeURIComponent(ODD_EVENT)}/properties/format/values`)).body).toEqual({ items: [{ value: 'csv' }, { value: 'pdf' }] })
    expect((await get('/api/orgs/acme/events/Order%20Completed/properties/shipping.method/values')).body).toEqual({ items: [{ value: 'express' }, { value: 'standard' }] })
    expect((await get('/api/orgs/acme/events/Order%20Completed/properties/total/values')).body).toEqual({ items: [{ value: '12' }, { value: '5' }, { value: '99.5' }] })
  })

  it('addresses awkward paths as given, and only them: quotes, backticks, dots, SQL', async () => {
    const values = async (path: string) => (await get(`/api/orgs/acme/events/Order%20Completed/properties/${encodeURIComponent(path)}/values`)).body
    expect(await values(ODD_KEY)).toEqual({ items: [{ value: 'x' }] })
    expect(await values('a.b')).toEqual({ items: [{ value: 'dotted' }] })
    expect(await values("total') OR 1=1 --")).toEqual({ items: [] })
    expect(await values('`total`')).toEqual({ items: [] })
    expect(await values('items')).toEqual({ items: [{ value: "['a','b']" }] })
    const trait = async (path: string) => (await get(`/api/orgs/acme/audiences/traits/user/${encodeURIComponent(path)}/values`)).body
    expect(await trait("plan'); DROP TABLE events; --")).toEqual({ values: [] })
    // The store is intact.
    expect((await get('/api/orgs/acme/audiences/traits/user/plan/values')).body).toEqual({ values: ['pro', 'enterprise'] })
  })
})

describe('lexicon mapping', () => {
  it('starts with every event in the model and no property, and keeps what is saved, per organisation', async () => {
    expect((await get('/api-v2/orgs/acme/lexicon/mapping')).body).toEqual({ featureSelections: { excludedEvents: [], includedProperties: [] } })
    const featureSelections = {
      excludedEvents: ['Old Event'],
      includedProperties: [
        { event: 'Order Completed', property: 'total' },
        { event: 'Old Event', property: 'total' },
        { event: ODD_EVENT, property: 'format' },
      ],
    }
    const res = await t.call('POST', '/api-v2/orgs/acme/lexicon/mapping', { cookie, body: { featureSelections } })
    expect(res.status).toBe(200)
    // The excluded event's property is dropped: switching an event off removes its properties.
    const stored = {
      excludedEvents: ['Old Event'],
      includedProperties: [
        { event: 'Order Completed', property: 'total' },
        { event: ODD_EVENT, property: 'format' },
      ],
    }
    expect(await res.json()).toEqual({ featureSelections: stored })
    expect((await get('/api-v2/orgs/acme/lexicon/mapping')).body).toEqual({ featureSelections: stored })
    expect((await get('/api-v2/orgs/globex/lexicon/mapping')).body).toEqual({ featureSelections: { excludedEvents: [], includedProperties: [] } })
  })

  it('refuses a bad selection with the field and the rule, and keeps the last good one', async () => {
    const res = await t.call('POST', '/api-v2/orgs/acme/lexicon/mapping', { cookie, body: { featureSelections: { excludedEvents: [''], includedProperties: [{ event: 'E' }] } } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      success: false,
      message: LEXICON_ERRORS.eventBlank,
      errors: [
        { name: 'featureSelections.excludedEvents.0', message: LEXICON_ERRORS.eventBlank },
        { name: 'featureSelections.includedProperties.0.property', message: LEXICON_ERRORS.propertyBlank },
      ],
    })
    expect((await get<{ featureSelections: { excludedEvents: string[] } }>('/api-v2/orgs/acme/lexicon/mapping')).body.featureSelections.excludedEvents).toEqual(['Old Event'])
  })

  it('pages the events by name, 20 a page from page 1, with their properties and the total; search narrows them', async () => {
    const page = (q: string) => get<MappingEventList>(`/api-v2/orgs/globex/lexicon/mapping/events${q}`)
    const first = (await page('')).body
    expect(first.totalEvents).toBe(25)
    expect(first.events).toHaveLength(MAPPING_PAGE_SIZE)
    expect(first.events[0]).toEqual({ name: 'Event 01', properties: [{ name: 'n', propertyType: 'number' }] })
    expect((await page('?page=1')).body).toEqual(first)
    expect((await page('?page=2')).body.events.map((e) => e.name)).toEqual(['Event 21', 'Event 22', 'Event 23', 'Event 24', 'Event 25'])
    expect((await page('?page=3')).body).toEqual({ events: [], totalEvents: 25 })
    expect((await page('?search=event%202&page=1')).body.events.map((e) => e.name)).toEqual(['Event 20', 'Event 21', 'Event 22', 'Event 23', 'Event 24', 'Event 25'])
    expect((await page('?search=EVENT%202')).body.totalEvents).toBe(6)
    expect((await page('?search=zzz')).body).toEqual({ events: [], totalEvents: 0 })
    for (const bad of ['0', '-1', '1.5', 'two']) {
      const { status, body } = await page(`?page=${bad}`)
      expect([status, body]).toEqual([400, { success: false, message: LEXICON_ERRORS.page, errors: [{ name: 'page', message: LEXICON_ERRORS.page }] }])
    }
    const acmePage = (await get<MappingEventList>('/api-v2/orgs/acme/lexicon/mapping/events')).body
    expect(acmePage.events.map((e) => e.name)).toEqual(['Old Event', 'Order Completed', ODD_EVENT, 'Signed Up'])
    expect(acmePage.events.find((e) => e.name === 'Signed Up')).toEqual({ name: 'Signed Up', properties: [] })
  })
})
