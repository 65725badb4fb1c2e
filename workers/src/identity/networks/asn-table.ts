import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { addressKey, isV4Key, V4_MAPPED_BASE } from '../ip.ts'
import { lastAtOrBefore } from '../ranges.ts'

/**
 * Which autonomous system announces an address, and the organisation behind
 * it: @ip-location-db/asn (RouteViews' BGP table, the five RIRs' delegations
 * through the NRO, and DB-IP's IP-to-ASN Lite for the names; CC BY 4.0; about
 * 412,000 IPv4 and 103,000 IPv6 ranges, disjoint and sorted).
 *
 * Held as sorted typed arrays and found with one binary search: the ranges
 * are disjoint, so no sweep is needed (ranges.ts handles overlapping partner
 * data). IPv6 ranges are compared on the high 64 bits of their ends: all but
 * 183 of the 103,000 are /64s or wider, and those few (anycast blocks such as
 * VeriSign's) can answer for a neighbour inside the same /64.
 */
export interface AsnEntry {
  asn: number
  /** The organisation as published ("Comcast Cable Communications, LLC"). */
  name: string
  /** Every IPv4 address the AS announces (across all its ranges): a provider's network is large. */
  v4Size: number
  /** How many separate IPv4 ranges it announces: a provider's network is scattered, a firm's in a few blocks. */
  v4Ranges: number
}

export class AsnTable {
  private constructor(
    private readonly v4Starts: Uint32Array,
    private readonly v4Ends: Uint32Array,
    private readonly v4Asns: Uint32Array,
    private readonly v6Starts: BigUint64Array,
    private readonly v6Ends: BigUint64Array,
    private readonly v6Asns: Uint32Array,
    private readonly entries: ReadonlyMap<number, AsnEntry>,
  ) {}

  static empty(): AsnTable {
    return new AsnTable(new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new BigUint64Array(0), new BigUint64Array(0), new Uint32Array(0), new Map())
  }

  /**
   * Reads the package's CSV files: `asn-ipv4-num.csv` (start, end as
   * numbers) and `asn-ipv6.csv` (start, end as text), each `start, end, asn,
   * organisation`. `dir` defaults to the installed package.
   */
  static load(dir = packageDir()): AsnTable {
    const entries = new Map<number, AsnEntry>()
    // The name is read once per AS (most ASes have many ranges).
    const entry = (asn: number, name: () => string) => {
      let e = entries.get(asn)
      if (!e) entries.set(asn, (e = { asn, name: name(), v4Size: 0, v4Ranges: 0 }))
      return e
    }
    // The files are read line by line from their bytes, numbers parsed in place: csv-parse took 2.3 s and left about
    // 130 MB of resident memory behind (its per-record arrays and strings, which V8 keeps the pages of), for a
    // format that is four fields, three of them numbers, and a name quoted only when it holds a comma.
    const v4Text = readFileSync(join(dir, 'asn-ipv4-num.csv'))
    const v4Rows = lines(v4Text)
    const v4Starts = new Uint32Array(v4Rows)
    const v4Ends = new Uint32Array(v4Rows)
    const v4Asns = new Uint32Array(v4Rows)
    let n4 = 0
    eachRow(v4Text, (text, at, fieldEnds) => {
      const s = numberAt(text, at, fieldEnds[0]!)
      const e = numberAt(text, fieldEnds[0]! + 1, fieldEnds[1]!)
      const a = numberAt(text, fieldEnds[1]! + 1, fieldEnds[2]!)
      if (!(s >= 0 && e >= s && e <= 0xffffffff && a > 0) || n4 >= v4Rows) return
      v4Starts[n4] = s
      v4Ends[n4] = e
      v4Asns[n4] = a
      n4++
      const en = entry(a, () => nameAt(text, fieldEnds[2]! + 1, fieldEnds[3]!))
      en.v4Size += e - s + 1
      en.v4Ranges++
    })
    const v6Text = readFileSync(join(dir, 'asn-ipv6.csv'))
    const v6Rows = lines(v6Text)
    const v6Starts = new BigUint64Array(v6Rows)
    const v6Ends = new BigUint64Array(v6Rows)
    const v6Asns = new Uint32Array(v6Rows)
    let n6 = 0
    eachRow(v6Text, (text, at, fieldEnds) => {
      const s = addressKey(text.toString('latin1', at, fieldEnds[0]!))
      const e = addressKey(text.toString('latin1', fieldEnds[0]! + 1, fieldEnds[1]!))
      const a = numberAt(text, fieldEnds[1]! + 1, fieldEnds[2]!)
      if (s === undefined || e === undefined || e < s || !(a > 0) || isV4Key(s) || n6 >= v6Rows) return
      v6Starts[n6] = s >> 64n
      v6Ends[n6] = e >> 64n
      v6Asns[n6] = a
      n6++
      entry(a, () => nameAt(text, fieldEnds[2]! + 1, fieldEnds[3]!))
    })
    return new AsnTable(v4Starts.subarray(0, n4), v4Ends.subarray(0, n4), v4Asns.subarray(0, n4), v6Starts.subarray(0, n6), v6Ends.subarray(0, n6), v6Asns.subarray(0, n6), entries)
  }

  get size(): number {
    return this.v4Starts.length + this.v6Starts.length
  }

  /** The AS of an address given as a 128-bit key (ip.ts); undefined when no range holds it. */
  lookupKey(key: bigint): AsnEntry | undefined {
    if (isV4Key(key)) return this.lookupV4(Number(key - V4_MAPPED_BASE))
    const high = key >> 64n
    const i = lastAtOrBefore(this.v6Starts, high)
    return i >= 0 && high <= this.v6Ends[i]! ? this.entries.get(this.v6Asns[i]!) : undefined
  }

  lookupV4(value: number): AsnEntry | undefined {
    const i = lastAtOrBefore(this.v4Starts, value)
    return i >= 0 && value <= this.v4Ends[i]! ? this.entries.get(this.v4Asns[i]!) : undefined
  }

  entry(asn: number): AsnEntry | undefined {
    return this.entries.get(asn)
  }

  /** Every IPv4 range of an AS, as [first, last] numbers: for tools that draw addresses from a network (the demo, the benchmark). */
  v4RangesOf(asn: number): Array<[number, number]> {
    const out: Array<[number, number]> = []
    for (let i = 0; i < this.v4Asns.length; i++) if (this.v4Asns[i] === asn) out.push([this.v4Starts[i]!, this.v4Ends[i]!])
    return out
  }

  /** Every IPv4 range in address order: (first, last, asn). */
  forEachV4(each: (first: number, last: number, asn: number) => void): void {
    for (let i = 0; i < this.v4Asns.length; i++) each(this.v4Starts[i]!, this.v4Ends[i]!, this.v4Asns[i]!)
  }

  /** Every IPv6 range in address order, as the high 64 bits of its first and last address: (first, last, asn). */
  forEachV6(each: (first: bigint, last: bigint, asn: number) => void): void {
    for (let i = 0; i < this.v6Asns.length; i++) each(this.v6Starts[i]!, this.v6Ends[i]!, this.v6Asns[i]!)
  }

  /** Every AS with its entry. */
  all(): IterableIterator<AsnEntry> {
    return this.entries.values()
  }
}

/**
 * Calls `each` for every line with the ends of its first four fields (commas
 * inside a quoted last field do not count: the name runs to the line's end).
 */
function eachRow(text: Buffer, each: (text: Buffer, at: number, fieldEnds: number[]) => void): void {
  const ends = [0, 0, 0, 0]
  let at = 0
  while (at < text.length) {
    let lineEnd = text.indexOf(10, at)
    if (lineEnd < 0) lineEnd = text.length
    let field = 0
    for (let i = at; i < lineEnd && field < 3; i++) if (text[i] === 44) ends[field++] = i
    ends[3] = lineEnd > at && text[lineEnd - 1] === 13 ? lineEnd - 1 : lineEnd
    if (field === 3) each(text, at, ends)
    at = lineEnd + 1
  }
}

/** A non-negative decimal integer in text[from, to); NaN when it is not one. */
function numberAt(text: Buffer, from: number, to: number): number {
  if (to <= from) return NaN
  let n = 0
  for (let i = from; i < to; i++) {
    const d = text[i]! - 48
    if (d < 0 || d > 9) return NaN
    n = n * 10 + d
  }
  return n
}

/** The last field as text: UTF-8, unquoted ("Cloudflare, Inc." and "" for a quote inside). */
function nameAt(text: Buffer, from: number, to: number): string {
  const raw = text.toString('utf8', from, to)
  return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw
}

/** Lines in a file (an upper bound on its rows: the arrays are sized once). */
function lines(text: Buffer): number {
  let n = 1
  for (let i = text.indexOf(10); i >= 0; i = text.indexOf(10, i + 1)) n++
  return n
}

function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json'))
}
