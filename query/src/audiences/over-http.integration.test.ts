import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audienceFiltersSchema } from '@fl0/contracts'
import { migrateEvents, migrateMetadata, openEventStore, openPglite, type EventStore, type Sql } from '@fl0/stores'
import { startChdbHttp, type ChdbHttpServer } from '@fl0/stores/events/chdb-http'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { countAudience, previewAudience } from './engine.ts'

/**
 * The audience engine on the cluster's path: @clickhouse/client over HTTP,
 * where every bound value (trait names, lists of event names, days, the zone)
 * travels in the URL in ClickHouse's text form (ClickHouse's engine, served
 * over HTTP by chDB), and the derived tables of migration 0004 are kept by
 * their views as a server keeps them.
 */
describe('audiences over HTTP', () => {
  let dir: string
  let server: ChdbHttpServer
  let store: EventStore
  let sql: Sql
  const now = new Date('2026-03-02T09:00:00.000Z')

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl0-audiences-http-'))
    server = await startChdbHttp({ path: dir })
    store = await openEventStore({ kind: 'http', url: server.url, database: 'audiences_http' })
    await migrateEvents(store)
    sql = await openPglite()
    await migrateMetadata(sql)
    await insertEvents(store, [
      eventRow({ org_id: 'o', type: 'page', anonymous_id: 'anon-1', timestamp: '2026-03-01 09:00:00.000' }),
      eventRow({ org_id: 'o', type: 'identify', user_id: 'u-1', anonymous_id: 'anon-1', timestamp: '2026-03-01 10:00:00.000', traits: { plan: "pro's", tags: ['a', 'b'] } }),
      eventRow({ org_id: 'o', type: 'track', event: "Report 'x'", anonymous_id: 'anon-1', timestamp: '2026-02-28 10:00:00.000' }),
      eventRow({ org_id: 'o', type: 'group', user_id: 'u-1', group_id: 'g', timestamp: '2026-03-01 10:00:00.000', traits: { name: 'Acme', employees: 40 } }),
      eventRow({ org_id: 'o', type: 'identify', user_id: 'u-2', timestamp: '2026-03-01 10:00:00.000', traits: { plan: 'free' } }),
    ])
  })
  afterAll(async () => {
    await store?.close()
    await server?.close()
    await sql?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('previews and counts an audience of traits, a company trait and an action, with awkward values', async () => {
    const filters = audienceFiltersSchema.parse({
      match_aggregation: 'and',
      matches: [
        { kind: 'user', trait: 'plan', string_op: 'is', value: "pro's" },
        { kind: 'user', trait: 'tags', stringArray_op: 'contains', value: 'b' },
        { kind: 'company', trait: 'employees', number_op: 'between', value1: 10, value2: 50 },
        { kind: 'user', trait: 'plan', string_op: 'is_not', value: '{p0:String}' },
      ],
      action_aggregation: 'and',
      actions: [{ kind: 'event', event_name: "Report 'x'", occurrence_op: 'equals', value: 1, date_range: { kind: 'last', value: 2, unit: 'week' } }],
    })
    const r = await previewAudience({ sql, events: store }, { orgId: 'o', filters, now, page: 1 })
    expect(r).toMatchObject({ totalUsers: 1, totalCompanies: 1, companies: [{ companyId: 'g', name: 'Acme', users: 1, 'company.employees': '40' }] })
    expect(r.users).toEqual([
      { userId: 'u-1', name: null, email: null, company: 'Acme', companyId: 'g', lastSeen: '2026-03-01T09:00:00.000Z', 'user.plan': "pro's", 'user.tags': 'a, b', 'company.employees': '40', 'action.0': 1 },
    ])
    expect(await countAudience({ sql, events: store }, { orgId: 'o', filters, now })).toEqual({ users: 1, companies: 1 })
    expect(await countAudience({ sql, events: store }, { orgId: 'o', filters: audienceFiltersSchema.parse({}), now })).toEqual({ users: 2, companies: 1 })
  })
})
