import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chTime, type IngestedEvent } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { eventRow, insertEvents, openTestEventStore } from '@fl0/stores/events/testing'
import { SHARED_ADDRESS_VISITORS } from '@fl0/query'
import { freeNetworkData, Networks } from '../identity/networks/index.ts'
import { RangeTable } from '../identity/ranges.ts'
import { Progress } from './progress.ts'
import { refreshSessions } from './refresh-sessions.ts'

/**
 * "Refresh sessions and people" reads an organisation's events a slice of
 * visitors at a time (so that chDB sorts a slice, not every event): the
 * visits are the same whatever the number of slices, each visitor's events
 * folded whole in one of them.
 */
let store: EventStore
beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(async () => {
  await store?.close()
})

const T0 = Date.parse('2026-03-02T09:00:00.000Z')
const at = (minutes: number) => chTime(new Date(T0 + minutes * 60_000))

/** Six visitors' events: two visits of a1 (an hour apart), an identify, a server-side user, one-event visitors. */
function eventsOf(org: string): IngestedEvent[] {
  const ev = (anonymous_id: string, minutes: number, extra: Partial<IngestedEvent> = {}) =>
    eventRow({ org_id: org, anonymous_id, type: 'page', timestamp: at(minutes), ip: '45.12.3.7', ...extra })
  return [
    ev('a1', 0),
    ev('a1', 10),
    ev('a1', 25),
    ev('a1', 90),
    ev('a2', 5, { type: 'identify', user_id: 'u2', traits: { email: 'Bo@Initech.com', name: 'Bo' } }),
    ev('a2', 20, { user_id: 'u2' }),
    ev('', 30, { user_id: 'u9', type: 'track', event: 'Exported' }),
    ev('', 100, { user_id: 'u9', type: 'track', event: 'Exported' }),
    ev('a3', 3),
    ev('a4', 4),
    ev('a5', 50),
  ]
}

async function visits(org: string) {
  const r = await store.client.query({
    query: `SELECT visitor_id, started_at, ended_at, user_id, ip, email, name FROM identified_visits FINAL
            WHERE org_id = {org:String} AND is_deleted = 0 ORDER BY visitor_id, started_at`,
    query_params: { org },
    format: 'JSONEachRow',
  })
  return r.json<Record<string, string>>()
}

describe('refresh sessions and people', () => {
  it('folds the same visits in one slice or in many', async () => {
    await insertEvents(store, [...eventsOf('whole'), ...eventsOf('sliced')])
    const networks = new Networks(RangeTable.empty(), undefined)
    const now = new Date(T0 + 200 * 60_000)
    const whole = new Progress()
    await refreshSessions(store, networks, ['whole'], whole, now)
    const sliced = new Progress()
    // 11 events, at most 2 a slice: 6 slices, so that visitors fall apart and some slices hold several.
    const streams: string[] = []
    const counted: EventStore = { ...store, streamRows: (query, params, format) => (streams.push(query), store.streamRows(query, params, format)) }
    await refreshSessions(counted, networks, ['sliced'], sliced, now, { eventsPerSlice: 2 })
    expect(streams).toHaveLength(6)

    const expected = [
      { visitor_id: 'a1', started_at: at(0), ended_at: at(25), user_id: '', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'a1', started_at: at(90), ended_at: at(90), user_id: '', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'a2', started_at: at(5), ended_at: at(20), user_id: 'u2', ip: '45.12.3.7', email: 'bo@initech.com', name: 'Bo' },
      { visitor_id: 'a3', started_at: at(3), ended_at: at(3), user_id: '', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'a4', started_at: at(4), ended_at: at(4), user_id: '', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'a5', started_at: at(50), ended_at: at(50), user_id: '', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'user:u9', started_at: at(30), ended_at: at(30), user_id: 'u9', ip: '45.12.3.7', email: '', name: '' },
      { visitor_id: 'user:u9', started_at: at(100), ended_at: at(100), user_id: 'u9', ip: '45.12.3.7', email: '', name: '' },
    ]
    expect(await visits('whole')).toEqual(expected)
    expect(await visits('sliced')).toEqual(expected)
    expect(sliced.counts).toMatchObject({ events: 11, visits: 8, written: 8 })
    expect(whole.counts).toEqual(sliced.counts)

    // A second run finds every visit as it is.
    const again = new Progress()
    await refreshSessions(store, networks, ['sliced'], again, now, { eventsPerSlice: 2 })
    expect(again.counts).toMatchObject({ events: 11, visits: 8, written: 0, removed: 0, unchanged: 8 })
  })

  it("works out the organisation's network rules as it ends: an address 50 visitors shared in a day names no company", async () => {
    const free = freeNetworkData()!
    // An address of Cisco's (AS109), a company to the free data.
    const n = free.asns.v4RangesOf(109)[0]![0] + 11
    const ip = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
    const crowd = Array.from({ length: SHARED_ADDRESS_VISITORS }, (_, i) => eventRow({ org_id: 'crowd', anonymous_id: `c${i}`, type: 'page', timestamp: at(i), ip }))
    await insertEvents(store, crowd)
    await refreshSessions(store, new Networks(RangeTable.empty(), free), ['crowd'], new Progress(), new Date(T0 + 200 * 60_000))
    const r = await store.client.query({ query: "SELECT rule, address, toString(day) AS day FROM network_rules FINAL WHERE org_id = 'crowd'", format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ rule: 'shared_address', address: `::ffff:${ip}`, day: '2026-03-02' }])
  })
})
