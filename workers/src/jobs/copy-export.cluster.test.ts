import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type EventStore, type Sql } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { copyToExportDatabase } from './copy-export.ts'
import { Progress } from './progress.ts'

/**
 * The copy to an external PostgreSQL on a real server (npm run test:cluster
 * exports DATABASE_URL): people and pages upserted, a second copy adding and
 * changing nothing, a changed person updated in place.
 */
const url = process.env.DATABASE_URL
let events: EventStore
let target: Sql
beforeAll(async () => {
  if (!url) throw new Error('DATABASE_URL must be set (npm run test:cluster sets it)')
  events = await openTestEventStore()
  target = await openPostgres(url)
  await target.exec('DROP TABLE IF EXISTS fl0_people; DROP TABLE IF EXISTS fl0_pages')
  const visit = (visitor: string, start: string, extra: Record<string, unknown> = {}) => ({
    org_id: 'o1', visitor_id: visitor, anonymous_id: visitor, started_at: start, ended_at: start, ip: '45.12.3.9',
    ip_company: 'Acme', ip_domain: 'acme.com', ip_kind: 'company', ip_range_first: '::ffff:45.12.3.0', ip_range_last: '::ffff:45.12.3.255', version: 1, ...extra,
  })
  await events.client.insert({ table: 'identified_visits', values: [visit('a1', '2026-03-01 09:00:00.000'), visit('a2', '2026-03-01 10:00:00.000', { user_id: 'u2', email: 'bo@initech.com', name: 'Bo' })], format: 'JSONEachRow' })
  await events.client.insert({
    table: 'pages',
    values: [{ org_id: 'o1', message_id: 'm1', viewed_at: '2026-03-01 09:00:00.000', visitor_id: 'a1', anonymous_id: 'a1', visit_started_at: '2026-03-01 09:00:00.000', url: 'https://x.test/', path: '/', title: 'Home', referrer: '', time_on_page: 30, version: 1 }],
    format: 'JSONEachRow',
  })
})
afterAll(async () => {
  await target?.close()
  await events?.close()
})

describe('copy people and pages to PostgreSQL', () => {
  it('upserts, and a second run adds and changes nothing', async () => {
    const first = new Progress()
    await copyToExportDatabase(events, target, ['o1'], first)
    expect(first.counts).toEqual({ people: 2, peopleWritten: 2, pages: 1, pagesWritten: 1 })
    const second = new Progress()
    await copyToExportDatabase(events, target, ['o1'], second)
    expect(second.counts).toEqual({ people: 2, peopleWritten: 0, pages: 1, pagesWritten: 0 })
    expect(await target.query('SELECT person_key, name, company_domain, company_via, visits FROM fl0_people ORDER BY person_key')).toEqual([
      { person_key: 'anon:a1', name: null, company_domain: 'acme.com', company_via: 'ip', visits: 1 },
      { person_key: 'u2', name: 'Bo', company_domain: 'initech.com', company_via: 'email_domain', visits: 1 },
    ])
    await events.client.insert({ table: 'identified_visits', values: [{ org_id: 'o1', visitor_id: 'a1', anonymous_id: 'a1', started_at: '2026-03-01 09:00:00.000', ended_at: '2026-03-01 09:20:00.000', ip: '8.8.8.8', ip_range_first: '::', ip_range_last: '::', version: 2 }], format: 'JSONEachRow' })
    const third = new Progress()
    await copyToExportDatabase(events, target, ['o1'], third)
    expect(third.counts).toEqual({ people: 2, peopleWritten: 1, pages: 1, pagesWritten: 0 })
    expect((await target.query<{ company_domain: string | null }>(`SELECT company_domain FROM fl0_people WHERE person_key = 'anon:a1'`))[0]!.company_domain).toBeNull()
  })
})
