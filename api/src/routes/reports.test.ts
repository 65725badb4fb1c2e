import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report, ReportSummary } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'

/** Custom reports (spec part 3 §3, §5, §7) on PGlite: the list, one report, the save in both its forms, delete. */
let t: TestApi
let cookie: string
let stranger: string
const metrics: Record<string, string> = {}
let theirs: string

const base = '/api/orgs/acme/reports'
const save = (body: unknown, who = cookie) => t.call('POST', base, { cookie: who, body })
const list = async () => {
  const res = await t.call('GET', base, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as ReportSummary[]
}
const get = async (id: string) => {
  const res = await t.call('GET', `${base}/${id}`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Report
}
const idOf = async (res: Response) => ((await res.json()) as { report_id: string }).report_id

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: stranger } = await t.signUpWithOrg('Eve', 'Elsewhere'))
  const metric = async (org: string, who: string, name: string) => {
    const res = await t.call('POST', `/api/orgs/${org}/metrics`, { cookie: who, body: { name, definition: { events: [{ name: 'Signed Up' }] } } })
    expect(res.status).toBe(201)
    return ((await res.json()) as { metricId: string }).metricId
  }
  for (const name of ['Sign-ups', 'Activation', 'Churn']) metrics[name] = await metric('acme', cookie, name)
  theirs = await metric('elsewhere', stranger, 'Secret')
})
afterAll(() => t?.close())

describe('custom reports', () => {
  let id: string

  it("lists none at first ('No reports found' on screen)", async () => {
    expect(await list()).toEqual([])
  })

  it("is created by the first save, without report_id, and answers its id; 'Report name must be given' before that", async () => {
    const unnamed = await save({ name: '  ', description: 'Soon', metric_ids: [] })
    expect(unnamed.status).toBe(400)
    expect(await unnamed.json()).toEqual({ success: false, message: 'Report name must be given', errors: [{ name: 'name', message: 'Report name must be given' }] })
    expect(await list()).toEqual([])

    const res = await save({ report_id: null, name: ' Growth ', description: 'Weekly numbers', metric_ids: [metrics['Sign-ups'], metrics.Activation] })
    expect(res.status).toBe(201)
    id = await idOf(res)
    const report = await get(id)
    expect(report).toEqual({ id, name: 'Growth', description: 'Weekly numbers', metrics: [metrics['Sign-ups'], metrics.Activation], metric_count: 2, updated_date: report.updated_date })
    expect(Math.abs(Date.parse(report.updated_date) - Date.now())).toBeLessThan(60_000)
  })

  it('changes name and description alone, keeping the metrics; a metric list replaces them in its order', async () => {
    const renamed = await save({ report_id: id, name: 'Growth board', description: '' })
    expect(renamed.status).toBe(200)
    expect(await idOf(renamed)).toBe(id)
    expect(await get(id)).toMatchObject({ name: 'Growth board', description: '', metrics: [metrics['Sign-ups'], metrics.Activation] })

    await save({ report_id: id, name: 'Growth board', description: '', metric_ids: [metrics.Churn, metrics['Sign-ups'], metrics.Churn] })
    expect(await get(id)).toMatchObject({ metrics: [metrics.Churn, metrics['Sign-ups']], metric_count: 2 })
  })

  it('lists reports with their metric counts, most recently changed first', async () => {
    const other = await idOf(await save({ name: 'Empty', description: '' }))
    expect((await list()).map((r) => [r.id, r.name, r.metric_count])).toEqual([
      [other, 'Empty', 0],
      [id, 'Growth board', 2],
    ])
    await save({ report_id: id, name: 'Growth board', description: 'now first' })
    const rows = await list()
    expect(rows.map((r) => r.name)).toEqual(['Growth board', 'Empty'])
    expect(rows[0]).toEqual({ id, name: 'Growth board', description: 'now first', metric_count: 2, updated_date: rows[0]!.updated_date })
  })

  it("refuses another organisation's metric, or one that does not exist, beside the metric list, and saves nothing", async () => {
    for (const bad of [theirs, 'no-such-metric']) {
      const res = await save({ report_id: id, name: 'Taken over', description: '', metric_ids: [metrics.Activation, bad] })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ success: false, message: 'Metric not found', errors: [{ name: 'metric_ids', message: 'Metric not found' }] })
    }
    expect((await save({ name: 'New', description: '', metric_ids: [theirs] })).status).toBe(400)
    expect(await get(id)).toMatchObject({ name: 'Growth board', metrics: [metrics.Churn, metrics['Sign-ups']] })
    expect((await list()).map((r) => r.name)).toEqual(['Growth board', 'Empty'])
  })

  it('holds the input caps on the server too: name 50, description 500', async () => {
    const long = await save({ report_id: id, name: 'x'.repeat(51), description: 'y'.repeat(501) })
    expect(long.status).toBe(400)
    expect(((await long.json()) as { errors: unknown[] }).errors).toEqual([
      { name: 'name', message: 'Report name must have at most 50 characters' },
      { name: 'description', message: 'Report description must have at most 500 characters' },
    ])
    expect((await save({ report_id: id, name: 'x'.repeat(50), description: 'y'.repeat(500) })).status).toBe(200)
    expect(await get(id)).toMatchObject({ name: 'x'.repeat(50), description: 'y'.repeat(500) })
  })

  it('drops a deleted metric from the report', async () => {
    expect((await t.call('DELETE', `/api/orgs/acme/metrics/${metrics.Churn}`, { cookie })).status).toBe(204)
    expect(await get(id)).toMatchObject({ metrics: [metrics['Sign-ups']], metric_count: 1 })
  })

  it("is another organisation's business: 404 'Report not found' for reading, saving and deleting", async () => {
    expect((await t.call('GET', `/api/orgs/acme/reports/${id}`, { cookie: stranger })).status).toBe(404)
    const read = await t.call('GET', `/api/orgs/elsewhere/reports/${id}`, { cookie: stranger })
    expect(read.status).toBe(404)
    expect(await read.json()).toMatchObject({ message: 'Report not found' })
    expect((await t.call('POST', '/api/orgs/elsewhere/reports', { cookie: stranger, body: { report_id: id, name: 'Mine' } })).status).toBe(404)
    expect((await t.call('DELETE', `/api/orgs/elsewhere/reports/${id}`, { cookie: stranger })).status).toBe(404)
    expect(await get(id)).toMatchObject({ metric_count: 1 })
  })

  it('deletes a report, which is then gone; its metrics stay', async () => {
    expect((await t.call('DELETE', `${base}/${id}`, { cookie })).status).toBe(204)
    expect((await t.call('GET', `${base}/${id}`, { cookie })).status).toBe(404)
    expect((await t.call('DELETE', `${base}/${id}`, { cookie })).status).toBe(404)
    expect((await list()).map((r) => r.name)).toEqual(['Empty'])
    expect((await t.call('GET', `/api/orgs/acme/metrics/${metrics['Sign-ups']}`, { cookie })).status).toBe(200)
  })
})
