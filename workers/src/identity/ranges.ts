import { addressKey, isV4Key, parseIpv4, V4_MAPPED_BASE, V4_MAPPED_LAST } from './ip.ts'

/**
 * The IP-to-company matcher: imported ranges (CIDR blocks or first and last
 * address, IPv4 and IPv6, overlapping as they please) flattened into disjoint
 * segments, each owned by the narrowest range that covers it, so that an
 * address is found with one binary search.
 *
 * Why flatten once rather than search the ranges: overlaps are the rule in
 * partner data (a provider's /11 with a company's /24 inside it, a hosting
 * block inside a carrier's), and "the narrowest range wins" is then a
 * question about every range holding the address. A sweep over the sorted
 * range ends answers it for every address at once (O(n log n) when loaded);
 * each look-up after that is O(log n), about a microsecond.
 *
 * Ties between ranges of the same size go to the most recently imported, then
 * to the later in the input: the answer never depends on the order rows came
 * back in from the store.
 */
export const RANGE_KINDS = ['company', 'isp', 'hosting', 'mobile'] as const
export type RangeKind = (typeof RANGE_KINDS)[number]

export interface IpRange {
  first: bigint
  last: bigint
  companyName: string
  domain: string
  kind: RangeKind
  /** Milliseconds; newer wins a tie. */
  importedAt?: number
}

export class RangeTable {
  /** IPv4 segments: starts as offsets from ::ffff:0.0.0.0, and their owners (-1: no range). */
  private readonly v4Starts: Float64Array
  private readonly v4Owners: Int32Array
  /** All segments in the 128-bit space. */
  private readonly starts: bigint[]
  private readonly owners: Int32Array

  private constructor(
    readonly ranges: readonly IpRange[],
    starts: bigint[],
    owners: number[],
  ) {
    this.starts = starts
    this.owners = Int32Array.from(owners)
    // The IPv4 part again as plain numbers: the hot path compares doubles, not bigints.
    const from = Math.max(0, lastAtOrBefore(starts, V4_MAPPED_BASE))
    const v4s: number[] = []
    const v4o: number[] = []
    for (let i = from; i < starts.length && starts[i]! <= V4_MAPPED_LAST; i++) {
      v4s.push(starts[i]! <= V4_MAPPED_BASE ? 0 : Number(starts[i]! - V4_MAPPED_BASE))
      v4o.push(owners[i]!)
    }
    this.v4Starts = Float64Array.from(v4s)
    this.v4Owners = Int32Array.from(v4o)
  }

  static empty(): RangeTable {
    return new RangeTable([], [], [])
  }

  static build(input: readonly IpRange[]): RangeTable {
    const ranges = input.filter((r) => r.first <= r.last)
    const n = ranges.length
    if (n === 0) return RangeTable.empty()
    // Rank: narrowest first, then newest, then later in the input. Lower is better.
    const order = Array.from({ length: n }, (_, i) => i)
    const sizes = ranges.map((r) => r.last - r.first)
    order.sort((a, b) => {
      const sa = sizes[a]!
      const sb = sizes[b]!
      if (sa !== sb) return sa < sb ? -1 : 1
      const ta = ranges[a]!.importedAt ?? 0
      const tb = ranges[b]!.importedAt ?? 0
      if (ta !== tb) return tb - ta
      return b - a
    })
    const rank = new Int32Array(n)
    order.forEach((idx, r) => (rank[idx] = r))

    // Boundaries: a range opens at its first address and closes after its last.
    const points: Array<{ at: bigint; idx: number; open: boolean }> = []
    for (let i = 0; i < n; i++) {
      points.push({ at: ranges[i]!.first, idx: i, open: true })
      points.push({ at: ranges[i]!.last + 1n, idx: i, open: false })
    }
    points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))

    const heap = new MinHeap()
    const closed = new Uint8Array(n)
    const starts: bigint[] = []
    const owners: number[] = []
    for (let i = 0; i < points.length; ) {
      const at = points[i]!.at
      for (; i < points.length && points[i]!.at === at; i++) {
        const p = points[i]!
        if (p.open) heap.push(rank[p.idx]!)
        else closed[p.idx] = 1
      }
      while (heap.size > 0 && closed[order[heap.peek()]!]) heap.pop()
      const owner = heap.size > 0 ? order[heap.peek()]! : -1
      if (owners.length === 0 ? owner !== -1 : owners[owners.length - 1] !== owner) {
        starts.push(at)
        owners.push(owner)
      }
    }
    return new RangeTable(ranges, starts, owners)
  }

  get size(): number {
    return this.ranges.length
  }

  /** The narrowest range holding the address (IPv4, IPv6 or IPv4-mapped text); undefined when none does or it is no address. */
  match(address: string): IpRange | undefined {
    if (this.ranges.length === 0 || !address) return undefined
    const v4 = parseIpv4(address)
    if (v4 !== undefined) return this.matchV4(v4)
    const key = addressKey(address)
    return key === undefined ? undefined : this.matchKey(key)
  }

  matchKey(key: bigint): IpRange | undefined {
    if (isV4Key(key)) return this.matchV4(Number(key - V4_MAPPED_BASE))
    const i = lastAtOrBefore(this.starts, key)
    const owner = i < 0 ? -1 : this.owners[i]!
    return owner < 0 ? undefined : this.ranges[owner]
  }

  private matchV4(value: number): IpRange | undefined {
    const starts = this.v4Starts
    let lo = 0
    let hi = starts.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (starts[mid]! <= value) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    const owner = found < 0 ? -1 : this.v4Owners[found]!
    return owner < 0 ? undefined : this.ranges[owner]
  }
}

/** Index of the last element ≤ key in a sorted array, or -1. */
function lastAtOrBefore(sorted: readonly bigint[], key: bigint): number {
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

/** A binary min-heap of ranks. */
class MinHeap {
  private items: number[] = []
  get size(): number {
    return this.items.length
  }
  peek(): number {
    return this.items[0]!
  }
  push(v: number): void {
    const a = this.items
    a.push(v)
    let i = a.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (a[parent]! <= v) break
      a[i] = a[parent]!
      i = parent
    }
    a[i] = v
  }
  pop(): number {
    const a = this.items
    const top = a[0]!
    const last = a.pop()!
    if (a.length > 0) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= a.length) break
        const r = l + 1
        const c = r < a.length && a[r]! < a[l]! ? r : l
        if (a[c]! >= last) break
        a[i] = a[c]!
        i = c
      }
      a[i] = last
    }
    return top
  }
}
