import type { Rng } from './random.ts'

/**
 * The demo's address plan, so that IP-to-company matching has a ground truth.
 *
 * - Every company owns one IPv4 block (a /28, /26 or /24 by size) carved from
 *   CORPORATE_V4, and one IPv6 /48 under 2001:db8::/32; its office visitors come
 *   from a few egress addresses at the start of its block.
 * - People at home or on their phones come from provider pools (kind 'isp' or
 *   'mobile'), which must never be named as anyone's company.
 * The names of the providers are made up; their blocks are real providers'
 * blocks, which the free network data (@ip-location-db/asn) places in internet
 * providers and carriers (checked by addresses.test.ts), so that fl0 with no
 * data bought never names them as anyone's company, as it must not.
 */
export type PoolKind = 'isp' | 'mobile'

export interface ProviderPool {
  name: string
  kind: PoolKind
  /** Countries this provider serves; '*' serves any. */
  countries: readonly string[]
  v4: string
  v6: string
}

export const PROVIDER_POOLS: readonly ProviderPool[] = [
  { name: 'Northwind Broadband', kind: 'isp', countries: ['US'], v4: '73.0.0.0/11', v6: '2600:1700::/28' },
  { name: 'Liberty Fiber', kind: 'isp', countries: ['US'], v4: '98.32.0.0/11', v6: '2601::/28' },
  { name: 'Albion Telecom', kind: 'isp', countries: ['GB'], v4: '86.128.0.0/10', v6: '2a00:23c0::/28' },
  { name: 'Rheinnetz', kind: 'isp', countries: ['DE'], v4: '91.0.0.0/11', v6: '2003:e0::/28' },
  { name: 'Hexagone Telecom', kind: 'isp', countries: ['FR'], v4: '90.0.0.0/11', v6: '2a01:cb00::/28' },
  { name: 'Polder Net', kind: 'isp', countries: ['NL'], v4: '84.80.0.0/13', v6: '2a02:a400::/28' },
  { name: 'Maple Cable', kind: 'isp', countries: ['CA'], v4: '174.88.0.0/13', v6: '2607:fea8::/28' },
  { name: 'Southern Cross Internet', kind: 'isp', countries: ['AU'], v4: '101.160.0.0/11', v6: '2001:8000::/28' },
  { name: 'Deccan Broadband', kind: 'isp', countries: ['IN'], v4: '117.192.0.0/10', v6: '2401:4900::/28' },
  { name: 'Skyline Mobile', kind: 'mobile', countries: ['US', 'CA'], v4: '172.56.0.0/13', v6: '2607:fb90::/28' },
  { name: 'EuroMobile', kind: 'mobile', countries: ['GB', 'DE', 'FR', 'NL'], v4: '37.80.0.0/12', v6: '2a02:3030::/28' },
  { name: 'Pacific Mobile', kind: 'mobile', countries: ['*'], v4: '49.176.0.0/12', v6: '2402:8100::/28' },
]

/** Companies' blocks: one /24 slot each inside this /8 (65,536 companies at most). */
export const CORPORATE_V4 = '45.0.0.0/8'
/** Companies' IPv6: a /48 each under the documentation prefix. */
export const CORPORATE_V6_PREFIX = '2001:db8'

export interface IpRange {
  cidr: string
  first: string
  last: string
}

export function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number)
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`not an IPv4 address: ${ip}`)
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0
}

export function intToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
}

export function parseCidr4(cidr: string): { base: number; bits: number; size: number } {
  const [ip, bits] = cidr.split('/')
  const b = Number(bits)
  const size = 2 ** (32 - b)
  const base = ipv4ToInt(ip)
  if (base % size !== 0) throw new Error(`${cidr} is not aligned`)
  return { base, bits: b, size }
}

export function inCidr4(ip: string, cidr: string): boolean {
  const { base, size } = parseCidr4(cidr)
  const n = ipv4ToInt(ip)
  return n >= base && n < base + size
}

/** The block of company number `index`: slots scattered over CORPORATE_V4 so neighbours are not adjacent. */
export function companyRanges(index: number, employees: number): { v4: IpRange; v6: IpRange } {
  const corp = parseCidr4(CORPORATE_V4)
  const slots = corp.size / 256
  if (index >= slots) throw new Error(`the address plan holds at most ${slots} companies`)
  // 40503 is odd, so multiplying by it permutes the slots (mod a power of two).
  const slot = (Math.imul(index, 40503) + 12345) % slots
  const bits = employees <= 50 ? 28 : employees <= 500 ? 26 : 24
  const base = corp.base + slot * 256
  const last = base + 2 ** (32 - bits) - 1
  const group = slot.toString(16)
  return {
    v4: { cidr: `${intToIpv4(base)}/${bits}`, first: intToIpv4(base), last: intToIpv4(last) },
    v6: { cidr: `${CORPORATE_V6_PREFIX}:${group}::/48`, first: `${CORPORATE_V6_PREFIX}:${group}::`, last: `${CORPORATE_V6_PREFIX}:${group}:ffff:ffff:ffff:ffff:ffff` },
  }
}

/** One of the first few addresses of a company block (offices egress through a handful of NAT addresses). */
export function officeAddress(range: IpRange, pick: number): string {
  const first = ipv4ToInt(range.first)
  const size = ipv4ToInt(range.last) - first + 1
  return intToIpv4(first + 1 + (pick % Math.min(size - 2, 6)))
}

export function officeAddressV6(range: IpRange, pick: number): string {
  return `${range.first}${(1 + (pick % 6)).toString(16)}`
}

/** A random host address inside an IPv4 pool (never the network or broadcast address of a /24). */
export function randomIpv4(rng: Rng, cidr: string): string {
  const { base, size } = parseCidr4(cidr)
  const n = base + Math.floor(rng.next() * size)
  const last = n & 255
  return intToIpv4(last === 0 ? n + 1 : last === 255 ? n - 1 : n)
}

/** A random address inside an IPv6 pool given as "xxxx:yyyy::/28" (only prefixes of whole nibbles and /28 style are needed). */
export function randomIpv6(rng: Rng, cidr: string): string {
  const [prefix, bitsText] = cidr.split('/')
  const bits = Number(bitsText)
  const groups = expandV6(prefix)
  const out: number[] = []
  for (let g = 0; g < 8; g++) {
    const fixedBits = Math.max(0, Math.min(16, bits - g * 16))
    const randomPart = Math.floor(rng.next() * 65536)
    const mask = fixedBits === 0 ? 0 : (0xffff << (16 - fixedBits)) & 0xffff
    out.push((groups[g] & mask) | (randomPart & ~mask & 0xffff))
  }
  return out.map((g) => g.toString(16)).join(':')
}

function expandV6(prefix: string): number[] {
  const [head, tail = ''] = prefix.split('::')
  const h = head ? head.split(':').map((x) => parseInt(x, 16)) : []
  const t = tail ? tail.split(':').map((x) => parseInt(x, 16)) : []
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t]
}

export function poolsFor(country: string, kind: PoolKind): ProviderPool[] {
  const own = PROVIDER_POOLS.filter((p) => p.kind === kind && p.countries.includes(country))
  return own.length ? own : PROVIDER_POOLS.filter((p) => p.kind === kind && p.countries.includes('*'))
}
