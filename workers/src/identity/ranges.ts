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
  private constructor(
    readonly ranges: readonly IpRange[],
    /** IPv4 segments: starts as offsets from ::ffff:0.0.0.0, and their owners (-1: no range). */
    private readonly v4Starts: Float64Array,
    private readonly v4Owners: Int32Array,
    /** The segments of the rest of the 128-bit space (IPv6), from the ranges that reach outside IPv4. */
    private readonly starts: bigint[],
    private readonly owners: Int32Array,
  ) {}

  static empty(): RangeTable {
    return new RangeTable([], new Float64Array(0), new Int32Array(0), [], new Int32Array(0))
  }

  /**
   * IPv4 is swept with plain numbers (start and index packed into one double,
   * sorted natively), IPv6 with bigints: partner tables are mostly IPv4, and a
   * million ranges then load in about a second rather than ten. A range that
   * reaches both families (::/0) takes part in both sweeps with its own size.
   */
  static build(input: readonly IpRange[]): RangeTable {
    const ranges = input.filter((r) => r.first <= r.last)
    if (ranges.length === 0) return RangeTable.empty()
    // Rank: narrowest first, then newest, then later in the input. Lower is better.
    const order = rankOrder(ranges)
    const n = ranges.length
    const rank = new Int32Array(n)
    order.forEach((idx, r) => (rank[idx] = r))

    // IPv4: the ranges' parts inside ::ffff:0.0.0.0/96, as offsets.
    const v4: number[] = []
    const v6: number[] = []
    for (let i = 0; i < n; i++) {
      const r = ranges[i]!
      if (r.last >= V4_MAPPED_BASE && r.first <= V4_MAPPED_LAST) v4.push(i)
      if (r.first < V4_MAPPED_BASE || r.last > V4_MAPPED_LAST) v6.push(i)
    }
    const offset = (k: bigint) => Number((k < V4_MAPPED_BASE ? V4_MAPPED_BASE : k > V4_MAPPED_LAST ? V4_MAPPED_LAST : k) - V4_MAPPED_BASE)
    const v4Segments = sweepNumbers(v4.map((i) => ({ start: offset(ranges[i]!.first), end: offset(ranges[i]!.last) + 1, idx: i })), rank, order)
    const v6Segments = sweepBigints(v6.map((i) => ({ start: ranges[i]!.first, end: ranges[i]!.last + 1n, idx: i })), rank, order)
    return new RangeTable(ranges, Float64Array.from(v4Segments.starts), Int32Array.from(v4Segments.owners), v6Segments.starts, Int32Array.from(v6Segments.owners))
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
    const found = lastAtOrBefore(this.v4Starts, value)
    const owner = found < 0 ? -1 : this.v4Owners[found]!
    return owner < 0 ? undefined : this.ranges[owner]
  }
}

/**
 * Range indices, narrowest first, then newest, then later in the input. When
 * the ranges come oldest import first (as the loader reads them), "later in
 * the input" is also "newer", and the sort compares doubles only (sizes as
 * numbers: exact below 2^53 addresses, and ranges wider than that differ in
 * their leading bits), on a typed array; otherwise bigints and import times.
 */
function rankOrder(ranges: readonly IpRange[]): number[] {
  const n = ranges.length
  let oldestFirst = true
  for (let i = 1; oldestFirst && i < n; i++) if ((ranges[i]!.importedAt ?? 0) < (ranges[i - 1]!.importedAt ?? 0)) oldestFirst = false
  if (oldestFirst) {
    const sizes = Float64Array.from(ranges, (r) => Number(r.last - r.first))
    const order = new Uint32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    order.sort((a, b) => sizes[a]! - sizes[b]! || b - a)
    return Array.from(order)
  }
  const sizes = ranges.map((r) => r.last - r.first)
  const order = Array.from({ length: n }, (_, i) => i)
  order.sort((a, b) => {
    if (sizes[a] !== sizes[b]) return sizes[a]! < sizes[b]! ? -1 : 1
    const ta = ranges[a]!.importedAt ?? 0
    const tb = ranges[b]!.importedAt ?? 0
    if (ta !== tb) return tb - ta
    return b - a
  })
  return order
}

/** Start and index packed into one double (start < 2^33, index < 2^20): sorted natively, no comparator. */
const PACK = 2 ** 20

/**
 * The sweep: ranges open at their start and close at their end (exclusive);
 * between two boundaries the narrowest open range (the lowest rank, a heap
 * with lazy deletion) owns the segment. Adjacent segments of one owner merge.
 */
function sweepNumbers(items: Array<{ start: number; end: number; idx: number }>, rank: Int32Array, order: number[]): { starts: number[]; owners: number[] } {
  if (items.length >= PACK) return sweepBigints(items.map((i) => ({ start: BigInt(i.start), end: BigInt(i.end), idx: i.idx })), rank, order, Number)
  const opens = Float64Array.from(items, (it, k) => it.start * PACK + k).sort()
  const closes = Float64Array.from(items, (it, k) => it.end * PACK + k).sort()
  const heap = new MinHeap()
  const closed = new Uint8Array(rank.length)
  const starts: number[] = []
  const owners: number[] = []
  let o = 0
  let c = 0
  while (o < opens.length || c < closes.length) {
    const nextOpen = o < opens.length ? Math.floor(opens[o]! / PACK) : Infinity
    const nextClose = c < closes.length ? Math.floor(closes[c]! / PACK) : Infinity
    const at = Math.min(nextOpen, nextClose)
    for (; o < opens.length && Math.floor(opens[o]! / PACK) === at; o++) heap.push(rank[items[opens[o]! % PACK]!.idx]!)
    for (; c < closes.length && Math.floor(closes[c]! / PACK) === at; c++) closed[items[closes[c]! % PACK]!.idx] = 1
    while (heap.size > 0 && closed[order[heap.peek()]!]) heap.pop()
    const owner = heap.size > 0 ? order[heap.peek()]! : -1
    if (owners.length === 0 ? owner !== -1 : owners[owners.length - 1] !== owner) {
      starts.push(at)
      owners.push(owner)
    }
  }
  return { starts, owners }
}

function sweepBigints<K = bigint>(
  items: Array<{ start: bigint; end: bigint; idx: number }>,
  rank: Int32Array,
  order: number[],
  toKey: (b: bigint) => K = (b) => b as unknown as K,
): { starts: K[]; owners: number[] } {
  const points: Array<{ at: bigint; idx: number; open: boolean }> = []
  for (const it of items) {
    points.push({ at: it.start, idx: it.idx, open: true })
    points.push({ at: it.end, idx: it.idx, open: false })
  }
  points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  const heap = new MinHeap()
  const closed = new Set<number>()
  const starts: K[] = []
  const owners: number[] = []
  for (let i = 0; i < points.length; ) {
    const at = points[i]!.at
    for (; i < points.length && points[i]!.at === at; i++) {
      const p = points[i]!
      if (p.open) heap.push(rank[p.idx]!)
      else closed.add(p.idx)
    }
    while (heap.size > 0 && closed.has(order[heap.peek()]!)) heap.pop()
    const owner = heap.size > 0 ? order[heap.peek()]! : -1
    if (owners.length === 0 ? owner !== -1 : owners[owners.length - 1] !== owner) {
      starts.push(toKey(at))
      owners.push(owner)
    }
  }
  return { starts, owners }
}

/** Index of the last element ≤ key in a sorted array (of numbers or of bigints, typed or not), or -1. */
export function lastAtOrBefore<T extends number | bigint>(sorted: { readonly length: number; readonly [i: number]: T }, key: T): number {
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
