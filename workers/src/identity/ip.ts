import ipaddr from 'ipaddr.js'

/**
 * Addresses as 128-bit integers in one space: IPv6 as itself, IPv4 as its
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d), which is also how ClickHouse's
 * IPv6 columns store IPv4 (clickhouse/0003_identification.sql). So an
 * IPv4-mapped IPv6 address and the IPv4 address it maps are the same key, and
 * one sort order holds both families.
 *
 * Parsing is strict: IPv4 only as four decimal parts (ipaddr.js would also
 * read "127.1" or hex parts, which no event or partner file means).
 */
export const V4_MAPPED_BASE = 0xffff_0000_0000n
export const V4_MAPPED_LAST = 0xffff_ffff_ffffn
export const MAX_ADDRESS = (1n << 128n) - 1n

/** An IPv4 address's 32-bit value, or undefined: the hot path (every event), without ipaddr.js. */
export function parseIpv4(text: string): number | undefined {
  let value = 0
  let part = -1
  let parts = 0
  let digits = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46 // a final '.'
    if (c === 46) {
      if (part < 0 || part > 255 || digits > 3) return undefined
      value = value * 256 + part
      parts++
      part = -1
      digits = 0
    } else if (c >= 48 && c <= 57) {
      part = part < 0 ? c - 48 : part * 10 + (c - 48)
      digits++
    } else return undefined
  }
  return parts === 4 ? value : undefined
}

/** An address as a 128-bit key; undefined when it is not an address. Zone ids (fe80::1%eth0) are dropped. */
export function addressKey(text: string): bigint | undefined {
  const t = text.trim()
  const v4 = parseIpv4(t)
  if (v4 !== undefined) return V4_MAPPED_BASE + BigInt(v4)
  const bare = t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return undefined
  return bytesToBigint(ipaddr.IPv6.parse(bare).toByteArray())
}

export function isV4Key(key: bigint): boolean {
  return key >= V4_MAPPED_BASE && key <= V4_MAPPED_LAST
}

/** A key as text: IPv4 keys as dotted quads, others as RFC 5952 IPv6. */
export function keyToText(key: bigint, asV6 = false): string {
  if (!asV6 && isV4Key(key)) {
    const n = Number(key - V4_MAPPED_BASE)
    return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
  }
  const bytes: number[] = []
  for (let shift = 120n; shift >= 0n; shift -= 8n) bytes.push(Number((key >> shift) & 0xffn))
  return (ipaddr.fromByteArray(bytes) as ipaddr.IPv6).toRFC5952String()
}

/** A CIDR block (1.2.3.0/24, 2001:db8::/48, ::ffff:1.2.3.0/120) as its first and last keys. */
export function cidrKeys(text: string): { first: bigint; last: bigint } | undefined {
  const t = text.trim()
  const slash = t.lastIndexOf('/')
  if (slash < 0) return undefined
  const base = addressKey(t.slice(0, slash))
  const bitsText = t.slice(slash + 1)
  if (base === undefined || !/^\d{1,3}$/.test(bitsText)) return undefined
  const isV4Text = parseIpv4(t.slice(0, slash).trim()) !== undefined
  const bits = Number(bitsText) + (isV4Text ? 96 : 0)
  if (bits > 128 || (isV4Text && Number(bitsText) > 32)) return undefined
  const hostBits = BigInt(128 - bits)
  const mask = (1n << hostBits) - 1n
  const first = base & ~mask & MAX_ADDRESS
  return { first, last: first | mask }
}

/** The prefix length when [first, last] is exactly one CIDR block, else undefined. */
export function cidrOf(first: bigint, last: bigint): string | undefined {
  const size = last - first + 1n
  if (size <= 0n || (size & (size - 1n)) !== 0n || (first & (size - 1n)) !== 0n) return undefined
  const hostBits = size.toString(2).length - 1
  const v4 = isV4Key(first) && isV4Key(last)
  const bits = 128 - hostBits - (v4 ? 96 : 0)
  return `${keyToText(first, !v4)}/${bits}`
}

function bytesToBigint(bytes: number[]): bigint {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  return n
}
