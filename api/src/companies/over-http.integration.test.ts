import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateEvents, openEventStore, type EventStore } from '@fl0/stores'
import { startChdbHttp, type ChdbHttpServer } from '@fl0/stores/events/chdb-http'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { buildFeed, loadFeedRows } from './feed.ts'
import { resolveCompanyMembers } from '@fl0/query'
import { loadPeople } from './people.ts'
import { loadCompanyIpPlace, loadIpPlaces } from './places.ts'
import { insertVisits } from './testing.ts'
import { loadDaily } from './summary.ts'
import { loadVisitors } from './visitors.ts'
import { companyWindow } from './window.ts'

/**
 * The company page's queries on the cluster's path: @clickhouse/client over
 * HTTP, where the member ids travel as bound array parameters in the URL
 * (ClickHouse's engine, served over HTTP by chDB).
 */
describe('company queries over HTTP', () => {
  let dir: string
  let server: ChdbHttpServer
  let store: EventStore
  const now = new Date('2026-03-02T09:00:00.000Z')

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl0-companies-http-'))
    server = await startChdbHttp({ path: dir })
    store = await openEventStore({ kind: 'http', url: server.url, database: 'companies_http' })
    await migrateEvents(store)
    const at = (iso: string) => new Date(iso)
    await insertEvents(store, [
      eventRow({ org_id: 'o', type: 'page', anonymous_id: 'anon-1', timestamp: at('2026-03-01T10:00:00Z'), page_path: '/pricing' }),
      eventRow({ org_id: 'o', type: 'identify', user_id: 'u-1', anonymous_id: 'anon-1', timestamp: at('2026-03-01T10:01:00Z'), traits: { name: 'Ada', email: 'ada@acme.com' } }),
      eventRow({ org_id: 'o', type: 'track', event: 'Signed Up', user_id: 'u-1', anonymous_id: 'anon-1', timestamp: at('2026-03-01T10:01:30Z') }),
      eventRow({ org_id: 'o', type: 'group', user_id: 'u-2', group_id: 'g', timestamp: at('2026-03-01T11:00:00Z'), traits: { domain: 'acme.com' } }),
      eventRow({ org_id: 'o', type: 'page', user_id: 'u-2', timestamp: at('2026-03-01T11:00:01Z'), page_path: '/docs' }),
    ])
    await insertVisits(store, [
      // Ada's anonymous visit, then a later one once signed up: the latest with a city is hers.
      { org_id: 'o', anonymous_id: 'anon-1', started_at: at('2026-02-20T10:00:00Z'), ip_country: 'GB', ip_region: 'England', ip_city: 'London' },
      { org_id: 'o', anonymous_id: 'anon-1', user_id: 'u-1', started_at: at('2026-03-01T10:00:00Z'), ended_at: at('2026-03-01T10:01:30Z'), ip_country: 'US', ip_region: 'California', ip_city: 'Cupertino' },
      // u-2: a server-side visit with a region only; a VPN's data centre, later, does not count.
      { org_id: 'o', user_id: 'u-2', started_at: at('2026-03-01T11:00:00Z'), ip_country: 'DE', ip_region: 'Bavaria' },
      { org_id: 'o', user_id: 'u-2', started_at: at('2026-03-01T12:00:00Z'), ip_kind: 'hosting', ip_country: 'US', ip_region: 'Virginia', ip_city: 'Ashburn' },
      // Another organisation's visit of the same ids.
      { org_id: 'x', anonymous_id: 'anon-1', started_at: at('2026-03-01T13:00:00Z'), ip_country: 'FR', ip_city: 'Paris' },
    ])
  })
  afterAll(async () => {
    await store?.close()
    await server?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('finds the members, counts, and builds the feed and the visitors list, located by their visits’ addresses', async () => {
    const members = await resolveCompanyMembers(store.client, 'o', 'acme.com')
    expect(members).toMatchObject({ identifiedBy: ['group', 'email'], groupIds: ['g'], users: ['u-1', 'u-2'], anons: ['anon-1'], persons: ['u-1'], people: 2 })
    const window = companyWindow(now, 'UTC')
    const daily = await loadDaily(store.client, 'o', members, window)
    expect(daily.windowVisitors).toBe(2)
    expect(daily.pageViews.find((p) => p.date === '2026-03-01')).toEqual({ date: '2026-03-01', value: 2 })
    const people = await loadPeople(store.client, 'o', members)
    const places = await loadIpPlaces(store.client, 'o', members, window.params.w_now)
    expect(Object.fromEntries(places)).toEqual({ 'u-1': 'Cupertino, United States', 'u-2': 'Bavaria, Germany' })
    expect(await loadCompanyIpPlace(store.client, 'o', members, window.params.w_now)).toBe('Cupertino, United States')
    const feed = buildFeed((await loadFeedRows(store.client, 'o', members, window)).rows, people, places)
    expect(feed[0]!.users.map((u) => [u.name, u.pageCount, u.timeSpentOnSite, u.location])).toEqual([
      ['u-2', 1, 0, 'Bavaria, Germany'],
      ['Ada', 1, 90, 'Cupertino, United States'],
    ])
    const visitors = await loadVisitors(store.client, 'o', members, window, people, places)
    expect(visitors.map((v) => [v.id, v.sessions, v.topPages, v.location])).toEqual([
      ['u-2', 1, [{ path: '/docs', views: 1 }], 'Bavaria, Germany'],
      ['u-1', 1, [{ path: '/pricing', views: 1 }], 'Cupertino, United States'],
    ])
  })
})
