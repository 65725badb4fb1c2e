import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMetric, saveOrgSettings } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { BETWEEN_MESSAGE, METRIC_DEFAULTS, type MetricCategories, type MetricGraph, type StoredMetric } from '@fl0/contracts'
import { createTestApi, TEST_PUBLIC_URL, type TestApi } from '../testing.ts'

/** Metrics CRUD, categories and the graph call's edges (spec part 2 §5, §7); the engine's numbers are in metrics/engine.integration.test.ts. */
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

const base = '/api/orgs/acme/metrics'
const json = async <T>(res: Response) => (await res.json()) as T
const signups = { events: [{ name: 'Signed Up' }] }

describe('metrics CRUD and categories', () => {
  it('starts with no categories', async () => {
    expect(await json(await t.call('GET', `${base}/category`, { cookie }))).toEqual({ categories: [] })
  })

  it('creates, reads, updates and deletes a metric', async () => {
    const created = await t.call('POST', base, { cookie, body: { name: '  Sign-ups ', description: 'New accounts', category: 'Growth', definition: signups } })
    expect(created.status).toBe(201)
    const { metricId } = await json<{ metricId: string }>(created)

    const read = await t.call('GET', `${base}/${metricId}`, { cookie })
    expect(await json(read)).toEqual({
      id: metricId,
      name: 'Sign-ups',
      description: 'New accounts',
      category: 'Growth',
      definition: { ...METRIC_DEFAULTS, events: [{ name: 'Signed Up' }] },
    } satisfies StoredMetric)

    const updated = await t.call('POST', `${base}/${metricId}`, { cookie, body: { name: 'Signups', definition: { ...signups, graphType: 'bar' } } })
    expect(await json(updated)).toEqual({ metricId })
    expect(await json(await t.call('GET', `${base}/${metricId}`, { cookie }))).toMatchObject({ name: 'Signups', description: '', category: 'other', definition: { graphType: 'bar' } })

    expect((await t.call('DELETE', `${base}/${metricId}`, { cookie })).status).toBe(204)
    expect((await t.call('GET', `${base}/${metricId}`, { cookie })).status).toBe(404)
  })

  it('groups metrics by category, other last, and marks those whose set-up is not valid', async () => {
    const create = async (name: string, category: string | undefined, definition: unknown) =>
      json<{ metricId: string }>(await t.call('POST', base, { cookie, body: { name, category, definition } }))
    const a = await create('Weekly actives', 'engagement', { isAnyEvent: true })
    const b = await create('Nothing yet', undefined, {})
    const c = await create('Activation', 'Engagement ', signups)
    const d = await create('Conversions', 'activation', { events: [{ name: 'Signed Up' }, { name: 'Plan Upgraded' }], operation: 'ordered' })
    // Saved by an older version, in a shape this one no longer reads.
    const e = await createMetric(t.sql, { orgId, name: 'Legacy', description: '', category: 'other', definition: { measureBy: 'pageviews' } })
    const res = await json<MetricCategories>(await t.call('GET', `${base}/category`, { cookie }))
    expect(res.categories).toEqual([
      { category: 'activation', metrics: [{ id: d.metricId, name: 'Conversions', valid: true }] },
      { category: 'engagement', metrics: [{ id: a.metricId, name: 'Weekly actives', valid: true }] },
      { category: 'Engagement', metrics: [{ id: c.metricId, name: 'Activation', valid: true }] },
      {
        category: 'other',
        metrics: [
          { id: e.id, name: 'Legacy', valid: false },
          { id: b.metricId, name: 'Nothing yet', valid: false },
        ],
      },
    ])
    // The stored definition comes back as it was, for the editor to mend.
    expect(await json(await t.call('GET', `${base}/${e.id}`, { cookie }))).toMatchObject({ definition: { measureBy: 'pageviews' } })
  })

  it("checks name and description with the specification's messages", async () => {
    const errors = async (body: unknown) => {
      const res = await t.call('POST', base, { cookie, body })
      expect(res.status).toBe(400)
      return (await json<{ errors: unknown[] }>(res)).errors
    }
    expect(await errors({ definition: {} })).toEqual([{ name: 'name', message: 'Metric name must be provided' }])
    expect(await errors({ name: '   ', definition: {} })).toEqual([{ name: 'name', message: 'Metric name must be provided' }])
    expect(await errors({ name: 'x'.repeat(51), definition: {} })).toEqual([{ name: 'name', message: 'Metric name must have at most 50 characters' }])
    expect(await errors({ name: 'ok', description: 'd'.repeat(201), definition: {} })).toEqual([{ name: 'description', message: 'Metric description must have at most 200 characters' }])
    expect(await errors({ name: 'ok', definition: { events: [{ name: 'A', occurring: { operation: 'between', value: 5, value2: 2 } }] } })).toEqual([
      { name: 'definition.events.0.occurring.value2', message: BETWEEN_MESSAGE },
    ])
    expect((await t.call('POST', base, { cookie, body: { name: 'x'.repeat(50), description: 'd'.repeat(200), definition: {} } })).status).toBe(201)
  })

  it("answers 404 for another organisation's metric, whatever the call", async () => {
    const { metricId } = await json<{ metricId: string }>(await t.call('POST', base, { cookie, body: { name: 'Mine', definition: signups } }))
    const theirs = '/api/orgs/elsewhere/metrics'
    const notFound = { success: false, message: 'Metric not found', errors: [] }
    for (const [method, body] of [['GET'], ['POST', { name: 'Stolen', definition: {} }], ['DELETE']] as const) {
      const res = await t.call(method, `${theirs}/${metricId}`, { cookie: stranger, body })
      expect([method, res.status, await res.json()]).toEqual([method, 404, notFound])
    }
    expect(await json(await t.call('GET', `${theirs}/category`, { cookie: stranger }))).toEqual({ categories: [] })
    expect(await json(await t.call('GET', `${base}/${metricId}`, { cookie }))).toMatchObject({ name: 'Mine' })
  })
})

describe('POST /api-v2/orgs/{organization}/metrics/graph', () => {
  const graphUrl = '/api-v2/orgs/acme/metrics/graph'

  it('answers 400 naming the field of a definition it cannot count', async () => {
    const errors = async (body: unknown) => {
      const res = await t.call('POST', graphUrl, { cookie, body })
      expect(res.status).toBe(400)
      return (await json<{ errors: unknown[] }>(res)).errors
    }
    expect(await errors({ events: [{ name: 'A', occurring: { operation: 'between', value: 5, value2: 2 } }] })).toEqual([{ name: 'events.0.occurring.value2', message: BETWEEN_MESSAGE }])
    expect(await errors({ events: [{ name: 'A', occurring: { operation: 'atLeast', value: 0 } }] })).toEqual([{ name: 'events.0.occurring.value', message: 'Occurring values have a minimum of 1' }])
    expect(await errors({ events: [{ name: 'A', property: { path: 'total', operation: 'greaterThan', value: 'lots' } }] })).toEqual([{ name: 'events.0.property.value', message: 'Value must be a number' }])
    expect(await errors({ events: [{ name: 'A' }], audience: { traits: [{ name: 'since', operation: 'before', value: 'yesterday' }] } })).toEqual([
      { name: 'audience.traits.0.value', message: 'Value must be a date' },
    ])
    expect(await errors({ graphType: 'pie' })).toMatchObject([{ name: 'graphType' }])
  })

  it('counts in UTC, with a warning, if the stored time zone is unknown', async () => {
    await saveOrgSettings(t.sql, orgId, { timezone: 'Mars/Olympus', company_paths: [] })
    t.clock.now = new Date('2026-03-02T12:00:00Z')
    await insertEvents(t.events, [eventRow({ org_id: orgId, event: 'Zoned', user_id: 'u1', timestamp: '2026-03-01 23:30:00.000' })])
    const res = await t.call('POST', graphUrl, { cookie, body: { events: [{ name: 'Zoned' }], dateRange: 'last7Days' } })
    expect((await json<MetricGraph>(res)).data.datasets[0]!.data).toEqual([0, 0, 0, 0, 0, 1, 0])
    expect(t.logs.find((l) => l.msg.includes('unknown time zone'))).toMatchObject({ level: 'warn', obj: { timezone: 'Mars/Olympus' } })
    await saveOrgSettings(t.sql, orgId, { timezone: 'UTC', company_paths: [] })
  })

  it('stops at once when the request is aborted, answers nothing and logs no error', async () => {
    // A slow query ahead on each of the dashboard's chDB sessions keeps the graph query waiting, as a busy engine would.
    const slow = () => t.events.client.query({ query: 'SELECT sleep({s:Float64}) AS slept', query_params: { s: 1.5 }, format: 'JSONEachRow' })
    const ahead = Promise.all([slow(), slow()])
    const controller = new AbortController()
    const started = Date.now()
    const pending = t.app.request(
      new Request(`${TEST_PUBLIC_URL}${graphUrl}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ isAnyEvent: true, dateRange: 'lastYear' }),
        signal: controller.signal,
      }),
    )
    setTimeout(() => controller.abort(), 100)
    const res = await pending
    const tookMs = Date.now() - started
    expect(res.status).toBe(499)
    expect(await res.text()).toBe('')
    expect(tookMs).toBeLessThan(1_000) // did not wait for the query ahead, nor run its own
    await ahead
    expect(t.logs.filter((l) => l.level === 'error')).toEqual([])
  })
})
