import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { orgParams, resolvedVisitsSql, SHARED_ADDRESS_VISITORS, WIDE_NETWORK_PREFIXES } from '@fl0/query'
import { storeHits } from '../index.ts'
import { rematchVisits } from '../rematch.ts'
import { refreshNetworkRules } from '../network-rules.ts'
import { cidrKeys, keyToText, V4_MAPPED_BASE } from '../ip.ts'
import { RangeTable } from '../ranges.ts'
import type { Hit } from '../visits.ts'
import { classifyNetwork, freeNetworkData, Networks, type FreeNetworkData } from './index.ts'

/**
 * Issue 20: with no data bought, the free data behind the identity worker
 * names the companies, universities and governments behind anonymous visits,
 * and never an internet provider, a carrier or a cloud. Addresses are drawn
 * from each network's own ranges in the installed data, as a visit from it
 * would come, and resolved as every screen resolves them (resolution.ts).
 */
let store: EventStore
let free: FreeNetworkData

const v4Text = (n: number) => keyToText(V4_MAPPED_BASE + BigInt(n))

/** An address in the middle of the AS's middle IPv4 range. */
function addressOf(asn: number, offset = 0): string {
  const ranges = free.asns.v4RangesOf(asn)
  expect(ranges.length).toBeGreaterThan(0)
  const [first, last] = ranges[Math.floor(ranges.length / 2)]!
  const n = first + ((Math.floor((last - first) / 2) + offset) % (last - first + 1))
  return v4Text(n)
}

const T = Date.parse('2026-11-20T10:00:00.000Z')
let seq = 0
const hit = (ip: string, extra: Partial<Hit> = {}): Hit => {
  const id = `anon-${++seq}`
  return { orgId: 'org', visitorId: id, at: T + seq * 1000, anonymousId: id, userId: '', puid: '', ip, email: '', name: '', ...extra }
}

/** The visits resolved, once the organisation's rules follow them (the network rules worker's pass, network-rules.ts). */
async function resolved(): Promise<Map<string, { company_name: string; company_domain: string; company_via: string; ip_kind: string; ip_network: string; ip_country: string; ip_city: string; ip_asn: number }>> {
  await refreshNetworkRules(store, ['org'])
  const result = await store.client.query({ query: resolvedVisitsSql(), query_params: orgParams('org'), format: 'JSONEachRow' })
  const rows = await result.json<{ visitor_id: string; company_name: string; company_domain: string; company_via: string; ip_kind: string; ip_network: string; ip_country: string; ip_city: string; ip_asn: number }>()
  return new Map(rows.map((r) => [r.visitor_id, { ...r, ip_asn: Number(r.ip_asn) }]))
}

beforeAll(async () => {
  store = await openTestEventStore()
  free = freeNetworkData()!
})
afterAll(async () => store?.close())

describe('company from the address, with the free data alone', () => {
  it('names companies and universities with their place, and never a provider, a carrier or a cloud', async () => {
    const apple = hit(addressOf(714))
    const stanford = hit(addressOf(32))
    const comcast = hit(addressOf(7922))
    const tmobile = hit(addressOf(21928))
    const aws = hit(addressOf(16509))
    await storeHits(store, new Networks(RangeTable.empty(), free), [apple, stanford, comcast, tmobile, aws])
    const r = await resolved()
    expect(r.get(apple.visitorId)).toMatchObject({ company_name: 'Apple', company_domain: 'apple.com', company_via: 'ip', ip_kind: 'company', ip_asn: 714, ip_network: 'Apple Inc.', ip_country: 'US' })
    expect(r.get(apple.visitorId)!.ip_city).not.toBe('')
    expect(r.get(stanford.visitorId)).toMatchObject({ company_name: 'Stanford University', company_domain: 'stanford.edu', company_via: 'ip', ip_kind: 'education' })
    for (const [v, kind] of [[comcast, 'isp'], [tmobile, 'mobile'], [aws, 'hosting']] as const) {
      expect(r.get(v.visitorId)).toMatchObject({ company_name: '', company_domain: '', company_via: '', ip_kind: kind })
      expect(r.get(v.visitorId)!.ip_network).not.toBe('')
    }
  })

  it('lets imported ranges decide first: a partner company inside a free network, a partner provider range over a business network', async () => {
    const inside = addressOf(714, 7)
    const covered = addressOf(4983)
    const partner = RangeTable.build([
      { ...cidrKeys(`${inside}/32`)!, companyName: 'Acme', domain: 'acme.com', kind: 'company' },
      { ...cidrKeys(`${covered}/32`)!, companyName: 'Hotel Wi-Fi', domain: '', kind: 'isp' },
    ])
    const a = hit(inside)
    const b = hit(covered)
    await storeHits(store, new Networks(partner, free), [a, b])
    const r = await resolved()
    expect(r.get(a.visitorId)).toMatchObject({ company_name: 'Acme', company_domain: 'acme.com', company_via: 'ip', ip_network: 'Apple Inc.' })
    expect(r.get(b.visitorId)).toMatchObject({ company_name: '', company_via: '', ip_kind: 'isp' })
  })

  it("learns a network's domain from the business e-mails of people identified from it, so anonymous colleagues open its company page", async () => {
    // AS7116 (Toyota Motor Sales) is on no list: the name rules make it a company, and the data gives no domain.
    expect(classifyNetwork(free.asns.entry(7116)!)).toMatchObject({ kind: 'company', domain: '' })
    const anonymousBefore = hit(addressOf(7116, 1))
    await storeHits(store, new Networks(RangeTable.empty(), free), [anonymousBefore])
    expect((await resolved()).get(anonymousBefore.visitorId)).toMatchObject({ company_name: 'Toyota Motor Sales, U.S.A., Inc.', company_domain: '', company_via: 'ip' })
    const one = hit(addressOf(7116, 2), { userId: 'u-1', email: 'kim@toyota.com' })
    const two = hit(addressOf(7116, 3), { userId: 'u-2', email: 'lee@toyota.com' })
    const gmail = hit(addressOf(7116, 4), { userId: 'u-3', email: 'x@gmail.com' })
    await storeHits(store, new Networks(RangeTable.empty(), free), [one, two, gmail])
    expect((await resolved()).get(anonymousBefore.visitorId)).toMatchObject({ company_domain: 'toyota.com', company_via: 'ip' })
  })

  it('names no company behind an address that many different visitors share in a day', async () => {
    const ip = addressOf(109, 11)
    const crowd = Array.from({ length: SHARED_ADDRESS_VISITORS }, () => hit(ip))
    const office = hit(addressOf(109, 12))
    await storeHits(store, new Networks(RangeTable.empty(), free), [...crowd, office])
    const r = await resolved()
    expect(r.get(crowd[0]!.visitorId)).toMatchObject({ company_via: '', network_kind: 'shared' })
    expect(r.get(office.visitorId)).toMatchObject({ company_name: 'Cisco', company_via: 'ip' })
  })

  it('names no company in a network seen from many places: a provider the name rules missed', async () => {
    // Boeing (AS196) is on no provider list; seen from 50 different /24s of its addresses, it is taken for a provider.
    const [first, last] = free.asns.v4RangesOf(196).find(([f, l]) => l - f >= WIDE_NETWORK_PREFIXES * 256)!
    expect(last - first).toBeGreaterThan(0)
    const spread = Array.from({ length: WIDE_NETWORK_PREFIXES }, (_, k) => {
      const n = first + k * 256 + 5
      return hit(v4Text(n))
    })
    const before = hit(addressOf(1742, 3))
    await storeHits(store, new Networks(RangeTable.empty(), free), [before, ...spread])
    const r = await resolved()
    expect(r.get(spread[0]!.visitorId)).toMatchObject({ company_via: '', network_kind: 'shared' })
    // Another network is not touched.
    expect(r.get(before.visitorId)).toMatchObject({ company_name: 'Harvard University', company_via: 'ip' })
  })

  it('stores and resolves an IPv6 visit, with its place', async () => {
    const networks = new Networks(RangeTable.empty(), free)
    const v6 = hit('2a00:1450:4001:82b::200e')
    await storeHits(store, networks, [v6])
    expect((await resolved()).get(v6.visitorId)).toMatchObject({ ip_asn: 15169, ip_kind: 'hosting', company_via: '', ip_country: 'DE' })
  })

  it('reads IPv6 addresses too', async () => {
    const networks = new Networks(RangeTable.empty(), free)
    const m = networks.match('2001:4860:4860::8888')
    expect(m).toMatchObject({ kind: 'hosting', source: 'free', asn: 15169 })
    expect(networks.match('not an address')).toMatchObject({ kind: '', asn: 0, country: '' })
  })

  it('matches stored visits again when the data changes, in place, and a second pass writes nothing', async () => {
    // Stored as before the free data (FL0_IP_DATA=off, or visits from before it): no network, no company.
    const before = hit(addressOf(11971, 21))
    await storeHits(store, new Networks(RangeTable.empty(), undefined), [before])
    expect((await resolved()).get(before.visitorId)).toMatchObject({ company_via: '', ip_asn: 0 })
    const first = await rematchVisits(store, new Networks(RangeTable.empty(), free))
    expect(first.written).toBeGreaterThanOrEqual(1)
    expect((await resolved()).get(before.visitorId)).toMatchObject({ company_name: 'Pfizer', company_via: 'ip', ip_asn: 11971 })
    expect(await rematchVisits(store, new Networks(RangeTable.empty(), free))).toMatchObject({ written: 0 })
    // And back: turned off, the free data's names go.
    await rematchVisits(store, new Networks(RangeTable.empty(), undefined))
    expect((await resolved()).get(before.visitorId)).toMatchObject({ company_via: '', ip_asn: 0 })
  })
})
