import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { addressKey, isV4Key, V4_MAPPED_BASE } from '../ip.ts'

/**
 * Which autonomous system announces an address, and the organisation behind
 * it: @ip-location-db/asn (RouteViews' BGP table, the five RIRs' delegations
 * through the NRO, and DB-IP's IP-to-ASN Lite for the names; CC BY 4.0; about
 * 412,000 IPv4 and 103,000 IPv6 ranges, disjoint and sorted).
 *
 * Held as sorted typed arrays and found with one binary search: the ranges
 * are disjoint, so no sweep is needed (ranges.ts handles overlapping partner
 * data). IPv6 ranges in BGP data start and end on /64 boundaries or wider, so
 * only the high 64 bits of an address are compared.
 */
export interface AsnEntry {
  asn: number
  /** The organisation as published ("Comcast Cable Communications, LLC"). */
  name: string
  /** Every IPv4 address the AS announces (across all its ranges): a provider's network is large. */
  v4Size: number
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
   * organisation`. `dir` defaults to the installed package; an operator can
   * point FL0_IP_DATA_DIR at a newer download of the same files.
   */
  static load(dir = packageDir()): AsnTable {
    const entries = new Map<number, AsnEntry>()
    const entry = (asn: number, name: string) => {
      let e = entries.get(asn)
      if (!e) entries.set(asn, (e = { asn, name, v4Size: 0 }))
      return e
    }
    // Each file is read record by record into typed arrays (on_record answering null keeps nothing else): the
    // rows never exist as arrays, so loading leaves no garbage of half a million string arrays behind.
    const v4Text = readFileSync(join(dir, 'asn-ipv4-num.csv'))
    const v4Rows = lines(v4Text)
    const v4Starts = new Uint32Array(v4Rows)
    const v4Ends = new Uint32Array(v4Rows)
    const v4Asns = new Uint32Array(v4Rows)
    let n4 = 0
    parse(v4Text, {
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: ([start, end, asn, name]: string[]) => {
        const s = Number(start)
        const e = Number(end)
        const a = Number(asn)
        if (s >= 0 && e >= s && e <= 0xffffffff && a > 0 && n4 < v4Rows) {
          v4Starts[n4] = s
          v4Ends[n4] = e
          v4Asns[n4] = a
          n4++
          entry(a, name ?? '').v4Size += e - s + 1
        }
        return null
      },
    })
    const v6Text = readFileSync(join(dir, 'asn-ipv6.csv'))
    const v6Rows = lines(v6Text)
    const v6Starts = new BigUint64Array(v6Rows)
    const v6Ends = new BigUint64Array(v6Rows)
    const v6Asns = new Uint32Array(v6Rows)
    let n6 = 0
    parse(v6Text, {
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: ([start, end, asn, name]: string[]) => {
        const s = addressKey(start ?? '')
        const e = addressKey(end ?? '')
        const a = Number(asn)
        if (s !== undefined && e !== undefined && e >= s && a > 0 && !isV4Key(s) && n6 < v6Rows) {
          v6Starts[n6] = s >> 64n
          v6Ends[n6] = e >> 64n
          v6Asns[n6] = a
          n6++
          entry(a, name ?? '')
        }
        return null
      },
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

function lastAtOrBefore<T extends number | bigint>(sorted: { readonly length: number; [i: number]: T }, key: T): number {
  let lo = 0
  let hi = sorted.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= key) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
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
