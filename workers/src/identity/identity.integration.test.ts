import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chTime, eventRecordText, type IngestedEvent } from '@fl0/contracts'
import { createDiskBus, type Bus, type EventStore } from '@fl0/stores'
import { eventRow, openTestEventStore } from '@fl0/stores/events/testing'
import { startIdentityWorker } from './index.ts'
import { RangeTable } from './ranges.ts'
import { Networks } from './networks/index.ts'
import { cidrKeys } from './ip.ts'

/**
 * The identity worker on the disk bus and chDB: visits as 30-minute sessions,
 * addresses matched as they are written (provider ranges never a company),
 * replays that change nothing, out-of-order events that join two visits, and
 * callback links stored once, a signed one apart from the same link unsigned.
 */
const silent = { info() {}, warn() {} }
let store: EventStore
let bus: Bus
beforeAll(async () => {
  store = await openTestEventStore()
  bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-identity-bus-')) })
})
afterAll(async () => {
  await bus?.close()
  await store?.close()
})

const ranges = RangeTable.build([
  { ...cidrKeys('45.12.3.0/24')!, companyName: 'Acme', domain: 'acme.com', kind: 'company' },
  { ...cidrKeys('71.160.0.0/11')!, companyName: 'Northwind Broadband', domain: '', kind: 'isp' },
  { ...cidrKeys('2001:db8:1f::/48')!, companyName: 'Acme', domain: 'acme.com', kind: 'company' },
])
// Partner ranges alone here (the free data's naming is networks.test.ts's and free-data.integration.test.ts's).
const fixed = { get: async () => new Networks(ranges, undefined) }

async function startCounted() {
  let visits = 0
  let links = 0
  const worker = await startIdentityWorker({ bus, store, logger: silent, ranges: fixed, maxWaitMs: 20, onVisits: (n) => (visits += n), onLinks: (n) => (links += n) })
  return { worker, visits: () => visits, links: () => links }
}

async function until(fn: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await fn()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('timed out')
}

/** As the ingest publishes (event-row.ts): each event's row, its place columns filled; the worker reads it off the value. */
const publish = (events: IngestedEvent[]) =>
  bus.publish('events', events.map((e) => ({ key: `${e.org_id}:${e.anonymous_id}`, value: eventRecordText({ context_city: '', context_region: '', context_country: '', context_timezone: '', ...e }) })))

async function visits(org: string) {
  const r = await store.client.query({
    query: `SELECT visitor_id, started_at, ended_at, user_id, puid, ip, ip_company, ip_domain, ip_kind, email, name
            FROM identified_visits FINAL WHERE org_id = {org:String} ORDER BY visitor_id, started_at`,
    query_params: { org },
    format: 'JSONEachRow',
  })
  return r.json<Record<string, string>>()
}
const physicalRows = async (org: string) => {
  const r = await store.client.query({ query: 'SELECT count() AS n FROM identified_visits WHERE org_id = {org:String}', query_params: { org }, format: 'JSONEachRow' })
  return Number((await r.json<{ n: string }>())[0]!.n)
}

const T0 = Date.parse('2026-03-02T09:00:00.000Z')
const at = (minutes: number) => chTime(new Date(T0 + minutes * 60_000))
const ev = (org: string, minutes: number, extra: Partial<IngestedEvent> = {}) =>
  eventRow({ org_id: org, anonymous_id: 'a1', type: 'page', timestamp: at(minutes), ip: '45.12.3.7', context: { puid: 'p-1' }, ...extra })

describe('identity worker', () => {
  it('folds events into 30-minute visits, matched to their address, and a replay changes nothing', async () => {
    const org = 'org-visits'
    const { worker, visits: seen } = await startCounted()
    const batch = [
      ev(org, 0),
      ev(org, 10, { type: 'identify', user_id: 'u1', traits: { email: ' Ada@Acme.com ', name: 'Ada Lovelace' } }),
      ev(org, 40), // 30 minutes after the last: the same visit
      ev(org, 71), // 31 minutes after: a new one, from home
      ev(org, 71.5, { ip: '71.160.4.4', context: { puid: 'p-2' } }),
      eventRow({ org_id: org, user_id: 'u1', type: 'track', event: 'Signed Up', timestamp: at(5), ip: '2001:db8:1f::9' }),
      eventRow({ org_id: org, user_id: 'u1', type: 'alias', previous_id: 'a1', timestamp: at(200) }),
    ]
    await publish(batch)
    await until(() => seen() >= batch.length)
    const expected = [
      { visitor_id: 'a1', started_at: at(0), ended_at: at(40), user_id: 'u1', puid: 'p-1', ip: '45.12.3.7', ip_company: 'Acme', ip_domain: 'acme.com', ip_kind: 'company', email: 'ada@acme.com', name: 'Ada Lovelace' },
      // 31 minutes on: a new visit, whose first address is still the office's.
      { visitor_id: 'a1', started_at: at(71), ended_at: at(71.5), user_id: '', puid: 'p-2', ip: '45.12.3.7', ip_company: 'Acme', ip_domain: 'acme.com', ip_kind: 'company', email: '', name: '' },
      { visitor_id: 'user:u1', started_at: at(5), ended_at: at(5), user_id: 'u1', puid: '', ip: '2001:db8:1f::9', ip_company: 'Acme', ip_domain: 'acme.com', ip_kind: 'company', email: '', name: '' },
    ]
    expect(await visits(org)).toEqual(expected)
    const rows = await physicalRows(org)

    await publish(batch)
    await until(() => seen() >= 2 * batch.length)
    expect(await visits(org)).toEqual(expected)
    expect(await physicalRows(org)).toBe(rows)
    await worker.stop()
  })

  it('marks provider ranges and never names them as the company', async () => {
    const org = 'org-home'
    const { worker, visits: seen } = await startCounted()
    await publish([ev(org, 0, { anonymous_id: 'home', ip: '71.160.4.4' }), ev(org, 0, { anonymous_id: 'nowhere', ip: '8.8.8.8' })])
    await until(() => seen() >= 2)
    expect((await visits(org)).map((v) => [v.visitor_id, v.ip_company, v.ip_domain, v.ip_kind])).toEqual([
      ['home', 'Northwind Broadband', '', 'isp'],
      ['nowhere', '', '', ''],
    ])
    await worker.stop()
  })

  it('joins two visits when a late event falls between them, and grows a visit earlier, leaving no stale rows', async () => {
    const org = 'org-late'
    const { worker, visits: seen } = await startCounted()
    await publish([ev(org, 0), ev(org, 50)])
    await until(() => seen() >= 2)
    expect((await visits(org)).map((v) => [v.started_at, v.ended_at])).toEqual([[at(0), at(0)], [at(50), at(50)]])
    await publish([ev(org, 25)])
    await until(() => seen() >= 3)
    expect((await visits(org)).map((v) => [v.started_at, v.ended_at])).toEqual([[at(0), at(50)]])
    await publish([ev(org, -20, { ip: '2001:db8:1f::1' })])
    await until(() => seen() >= 4)
    expect((await visits(org)).map((v) => [v.started_at, v.ended_at, v.ip])).toEqual([[at(-20), at(50), '2001:db8:1f::1']])
    await worker.stop()
  })

  it('stores callback links from the bus once, skipping unreadable records', async () => {
    const { worker, links } = await startCounted()
    const link = { puid: 'p-9', up_id: '5x5-00000000000000000000000000000042', hem: '', source: 'callback', linked_at: at(0) }
    const records = [link, link, { puid: 'p-9', up_id: 'nope', hem: '', linked_at: at(0) }, 'not json']
    await bus.publish('identity-links', records.map((r) => ({ key: 'p-9', value: typeof r === 'string' ? r : JSON.stringify(r) })))
    await until(() => links() >= records.length)
    const r = await store.client.query({ query: `SELECT puid, up_id, hem, source FROM identity_links FINAL WHERE puid = 'p-9'`, format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ puid: 'p-9', up_id: '5x5-00000000000000000000000000000042', hem: '', source: 'callback' }])
    await worker.stop()
  })

  it('keeps a signed link apart from the same link unsigned: a replayed unsigned callback cannot replace it', async () => {
    const { worker, links } = await startCounted()
    const link = { puid: 'p-10', up_id: '5x5-00000000000000000000000000000043', hem: '', source: 'callback', linked_at: at(0) }
    const records = [{ ...link, org_id: 'org-a' }, link, { ...link, org_id: '' }, { ...link, org_id: 'org-a', linked_at: at(5) }]
    await bus.publish('identity-links', records.map((r) => ({ key: 'p-10', value: JSON.stringify(r) })))
    await until(() => links() >= records.length)
    await store.client.command({ query: 'OPTIMIZE TABLE identity_links FINAL' })
    const r = await store.client.query({ query: `SELECT org_id, linked_at FROM identity_links FINAL WHERE puid = 'p-10' ORDER BY org_id`, format: 'JSONEachRow' })
    expect(await r.json()).toEqual([
      { org_id: '', linked_at: at(0) },
      { org_id: 'org-a', linked_at: at(5) },
    ])
    await worker.stop()
  })
})
