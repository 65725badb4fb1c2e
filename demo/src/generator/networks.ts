import { classifyNetwork, freeNetworkData, KNOWN_NETWORKS } from '@fl0/workers'
import { intToIpv4 } from './addresses.ts'
import { COUNTRIES } from './catalog.ts'

/**
 * Business networks of the free data that ships with fl0 (@ip-location-db/asn,
 * classified as fl0's identity worker classifies them), by country: the demo's
 * companies have their offices in them, so that a new install names the
 * companies behind anonymous visits with no data bought (issue 20). A company
 * takes its network's name; its domain is made from that name (the free data
 * gives none), and fl0 learns it from the people who identify from the network.
 *
 * A network qualifies when fl0 names it as a company (not a university or a
 * government, not one of the well-known networks), it announces between 256
 * and 65,536 IPv4 addresses (a firm, not a provider), its name reads as a firm's
 * (a legal form such as Inc. or GmbH; no registry handles like "FOO-AS-AP"),
 * and DB-IP places it in one of the demo's countries. Depends only on the installed data, which is pinned.
 */
export interface BusinessNetwork {
  asn: number
  name: string
  country: string
  /** Its largest IPv4 range, at least a /24's worth. */
  v4: [first: number, last: number]
  /** A /48 it announces, as its first three groups ('2a02:1234:5'), when it announces IPv6. */
  v6?: string
}

/** A firm's legal form in its name: the demo's companies read as firms, not as associations or agencies. */
const FIRM = /\b(inc|corp|corporation|llc|ltd|limited|gmbh|ag|s\.?a|b\.?v|plc|pty|s\.?r\.?l|s\.?p\.?a|company|co)\b\.?/i

let cached: ReadonlyMap<string, readonly BusinessNetwork[]> | undefined

export function businessNetworks(): ReadonlyMap<string, readonly BusinessNetwork[]> {
  if (cached) return cached
  const free = freeNetworkData()!
  const largest = new Map<number, [number, number]>()
  free.asns.forEachV4((first, last, asn) => {
    const seen = largest.get(asn)
    if (!seen || last - first > seen[1] - seen[0]) largest.set(asn, [first, last])
  })
  const v6 = new Map<number, string>()
  free.asns.forEachV6((first, last, asn) => {
    // A whole /48: 2^16 /64s from a /48 boundary.
    const start = (first + 0xffffn) & ~0xffffn
    if (v6.has(asn) || start + 0xffffn > last) return
    const p = start >> 16n
    v6.set(asn, [(p >> 32n) & 0xffffn, (p >> 16n) & 0xffffn, p & 0xffffn].map((g) => g.toString(16)).join(':'))
  })
  const countries = new Set(COUNTRIES.map((c) => c.code))
  const byCountry = new Map<string, BusinessNetwork[]>()
  for (const e of free.asns.all()) {
    if (KNOWN_NETWORKS.has(e.asn) || e.v4Size < 256 || e.v4Size > 65_536 || !FIRM.test(e.name) || /(^|[\s-])AS([\s-]|\d|$)|-AS\b/.test(e.name)) continue
    const classified = classifyNetwork(e)
    const range = largest.get(e.asn)
    if (classified.kind !== 'company' || !range || range[1] - range[0] < 255) continue
    const country = free.places.lookupKey(0xffff_0000_0000n + BigInt(range[0] + 1))?.country ?? ''
    if (!countries.has(country)) continue
    let list = byCountry.get(country)
    if (!list) byCountry.set(country, (list = []))
    list.push({ asn: e.asn, name: classified.name, country, v4: range, v6: v6.get(e.asn) })
  }
  for (const list of byCountry.values()) list.sort((a, b) => a.asn - b.asn)
  cached = byCountry
  return cached
}

/** The block of `2^(32 - bits)` addresses an office of the network gets: the first aligned one inside its range. */
export function officeBlock(network: BusinessNetwork, bits: number): { cidr: string; first: string; last: string } {
  const size = 2 ** (32 - bits)
  const [first, last] = network.v4
  const base = Math.ceil(first / size) * size
  const fits = base + size - 1 <= last
  const b = fits ? base : Math.ceil(first / 256) * 256
  const n = fits ? size : 256
  const prefix = fits ? bits : 24
  return { cidr: `${intToIpv4(b)}/${prefix}`, first: intToIpv4(b), last: intToIpv4(b + n - 1) }
}
