import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { orgParams, resolvedVisitsSql, SHARED_ADDRESS_VISITORS } from '@fl0/query'
import { storeHits } from './index.ts'
import { keyToText, V4_MAPPED_BASE } from './ip.ts'
import { RangeTable } from './ranges.ts'
import type { Hit } from './visits.ts'
import { freeNetworkData, Networks, type FreeNetworkData } from './networks/index.ts'
import { MAX_AGE_MS, NetworkRulesKeeper, refreshNetworkRules, startNetworkRulesWorker, type NetworkRulesChange } from './network-rules.ts'

/**
 * Issue 19: the free data's organisation-wide rules (an address many visitors
 * share, a network seen from many places, a network's learned domain) are
 * kept in network_rules by the workers instead of worked out in every
 * resolution. They must follow the organisation's visits and bots, and cost
 * nothing while those stay as they are.
 */
let store: EventStore
let free: FreeNetworkData
let networks: Networks

const T = Date.parse('2026-11-20T10:00:00.000Z')
let seq = 0
const hit = (org: string, ip: string, extra: Partial<Hit> = {}): Hit => {
  const id = `anon-${++seq}`
  return { orgId: org, visitorId: id, at: T + seq * 1000, anonymousId: id, userId: '', puid: '', ip, email: '', name: '', ...extra }
}

/** An address of Cisco's (AS109, a company to the free data), as a visit from its office would come. */
function ciscoAddress(offset: number): string {
  const [first, last] = free.asns.v4RangesOf(109)[0]!
  return keyToText(V4_MAPPED_BASE + BigInt(first + (offset % (last - first + 1))))
}

async function companyOf(org: string, visitorId: string): Promise<{ company_name: string; company_via: string; network_kind: string }> {
  const result = await store.client.query({ query: `SELECT company_name, company_via, network_kind FROM (${resolvedVisitsSql()}) WHERE visitor_id = {v:String}`, query_params: { ...orgParams(org), v: visitorId }, format: 'JSONEachRow' })
  const [row] = await result.json<{ company_name: string; company_via: string; network_kind: string }>()
  return row!
}

const orgsOf = (changes: NetworkRulesChange[]) => changes.map((c) => c.org).sort()

beforeAll(async () => {
  store = await openTestEventStore()
  free = freeNetworkData()!
  networks = new Networks(RangeTable.empty(), free)
})
afterAll(async () => store?.close())

describe('the network rules', () => {
  it('are worked out for an organisation whose visits changed, and not again while they stay as they are', async () => {
    let clock = T
    const keeper = new NetworkRulesKeeper(store, () => new Date(clock))
    const crowd = Array.from({ length: SHARED_ADDRESS_VISITORS }, () => hit('org-a', ciscoAddress(11)))
    const office = hit('org-a', ciscoAddress(12))
    const elsewhere = hit('org-b', ciscoAddress(13))
    await storeHits(store, networks, [...crowd, office, elsewhere])

    // Before any pass the resolution knows no rule: the crowd's address names Cisco.
    expect(await companyOf('org-a', crowd[0]!.visitorId)).toMatchObject({ company_name: 'Cisco', company_via: 'ip' })
    const first = await keeper.pass()
    expect(orgsOf(first)).toEqual(['org-a', 'org-b'])
    expect(first.find((c) => c.org === 'org-a')).toMatchObject({ written: 1, removed: 0 })
    expect(await companyOf('org-a', crowd[0]!.visitorId)).toMatchObject({ company_name: '', company_via: '', network_kind: 'shared' })
    expect(await companyOf('org-a', office.visitorId)).toMatchObject({ company_name: 'Cisco', company_via: 'ip' })

    // A visit more in org-a: not at once (it waits 100 times what the last working-out took), then worked out again,
    // its rule found as it was stored, so nothing is written and the address stays shared.
    await storeHits(store, networks, [hit('org-a', ciscoAddress(14))])
    clock += 1
    expect(await keeper.pass()).toEqual([])
    clock += 10 * 60_000
    expect(await keeper.pass()).toEqual([expect.objectContaining({ org: 'org-a', written: 0, removed: 0 })])
    expect(await companyOf('org-a', crowd[0]!.visitorId)).toMatchObject({ network_kind: 'shared' })

    // Nothing changed: nothing is worked out, however long after.
    clock += 10 * 60_000
    expect(await keeper.pass()).toEqual([])

    // A visit more in org-b: only org-b's rules are worked out again.
    await storeHits(store, networks, [hit('org-b', ciscoAddress(15))])
    clock += 10 * 60_000
    expect(await keeper.pass()).toEqual([expect.objectContaining({ org: 'org-b', written: 0, removed: 0 })])

    // The wide networks' rule reads the last 30 days: after an hour every organisation's rules are worked out again,
    // and none of them changes.
    clock += MAX_AGE_MS
    const hourly = await keeper.pass()
    expect(orgsOf(hourly)).toEqual(['org-a', 'org-b'])
    expect(hourly.every((c) => c.written === 0 && c.removed === 0)).toBe(true)
    expect(await companyOf('org-a', crowd[0]!.visitorId)).toMatchObject({ network_kind: 'shared' })
  })

  it('drop a rule that no longer holds: a visitor of the crowd found a bot leaves it one short', async () => {
    let clock = T
    const keeper = new NetworkRulesKeeper(store, () => new Date(clock))
    const crowd = Array.from({ length: SHARED_ADDRESS_VISITORS }, () => hit('org-c', ciscoAddress(21)))
    await storeHits(store, networks, crowd)
    expect((await keeper.pass()).find((c) => c.org === 'org-c')).toMatchObject({ written: 1, removed: 0 })
    expect(await companyOf('org-c', crowd[1]!.visitorId)).toMatchObject({ network_kind: 'shared', company_via: '' })

    await store.client.insert({
      table: 'bot_visitors',
      values: [{ org_id: 'org-c', anonymous_id: crowd[0]!.anonymousId, reason: 'user_agent', detected_at: '2026-11-20 10:30:00.000' }],
      format: 'JSONEachRow',
    })
    // Its visits did not change: the bots are part of what the keeper watches.
    clock += 10 * 60_000
    expect(await keeper.pass()).toEqual([expect.objectContaining({ org: 'org-c', written: 0, removed: 1 })])
    expect(await companyOf('org-c', crowd[1]!.visitorId)).toMatchObject({ company_name: 'Cisco', company_via: 'ip' })
  })

  it('remove a rule another process wrote with its clock an hour ahead', async () => {
    const ahead = (Date.now() + 60 * 60_000) * 1000
    await store.client.insert({
      table: 'network_rules',
      values: [{ org_id: 'org-e', rule: 'wide_network', address: '', day: '1970-01-01', ip_asn: 109, domain: '', version: ahead, is_deleted: 0 }],
      format: 'JSONEachRow',
    })
    // org-e has no visits: the rule no longer holds, and its tombstone must win over the row's version.
    expect(await refreshNetworkRules(store, ['org-e'])).toEqual([expect.objectContaining({ org: 'org-e', written: 0, removed: 1 })])
    const left = await store.client.query({ query: "SELECT count() AS n FROM network_rules FINAL WHERE org_id = 'org-e'", format: 'JSONEachRow' })
    expect((await left.json<{ n: number | string }>()).map((r) => Number(r.n))).toEqual([0])
  })

  it('follow the visits with no one asking, as the workers role runs them', async () => {
    const passes: NetworkRulesChange[][] = []
    const worker = startNetworkRulesWorker({ store, logger: { info: () => {}, warn: () => {} }, intervalMs: 20, onPass: (c) => passes.push(c) })
    try {
      const crowd = Array.from({ length: SHARED_ADDRESS_VISITORS }, () => hit('org-d', ciscoAddress(31)))
      await storeHits(store, networks, crowd)
      const deadline = Date.now() + 30_000
      while ((await companyOf('org-d', crowd[0]!.visitorId)).network_kind !== 'shared') {
        if (Date.now() > deadline) throw new Error(`the worker never made the address shared (${passes.length} passes)`)
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(passes.flat().some((c) => c.org === 'org-d' && c.written === 1)).toBe(true)
    } finally {
      await worker.stop()
    }
  })
})
