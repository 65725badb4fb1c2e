import { VISIT_GAP_MS, type Visit } from './visits.ts'

/**
 * What the identity worker knows of its visitors' stored visits, so that a
 * visitor seen again need not be read back from identified_visits: that read
 * (a FINAL over the table, by a list of visitors) was a quarter of the
 * worker's CPU per event, and on a busy site a visitor's next event comes
 * in a later batch, seconds on.
 *
 * Only sound where the worker is the one writer of its visitors' visits: the
 * embedded process, where the bus has one partition and one worker, and the
 * jobs that rewrite visits ("refresh sessions and people") run in the same
 * process and say so (`visitsRewritten`), which empties every cache. In a
 * cluster a visitor's events can reach two workers, so there the worker
 * reads every time.
 *
 * An entry holds every stored visit of the visitor that ends at or after
 * `from` (the read asked for exactly those), kept true by each write since.
 * A batch whose hits all lie after `from` + 30 minutes is folded with it;
 * an earlier hit (an event that came late) reads the store, as before.
 * Least recently used visitors go first past `max` entries.
 */
export class KnownVisits {
  private readonly entries = new Map<string, { from: number; visits: readonly Visit[] }>()
  private epoch = rewrites

  constructor(private readonly max = 100_000) {}

  get size(): number {
    return this.entries.size
  }

  /** Forgets everything if the stored visits were rewritten by a job since the last batch. */
  checkEpoch(): void {
    if (this.epoch === rewrites) return
    this.entries.clear()
    this.epoch = rewrites
  }

  /** The visitor's stored visits ending at or after `from`, if known; undefined means read them. */
  get(orgId: string, visitorId: string, from: number): readonly Visit[] | undefined {
    const key = keyOf(orgId, visitorId)
    const entry = this.entries.get(key)
    if (!entry || entry.from > from) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    // Nearly always all of them (an entry is about one visit long): then the list itself, which `wrote` replaces rather than changes.
    for (const v of entry.visits) if (v.endedAt < from) return entry.visits.filter((w) => w.endedAt >= from)
    return entry.visits
  }

  /** What a read found: every stored visit of the visitor ending at or after `from`. */
  learn(orgId: string, visitorId: string, from: number, visits: Visit[]): void {
    const key = keyOf(orgId, visitorId)
    this.entries.delete(key)
    this.entries.set(key, { from, visits: [...visits] })
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!)
  }

  /**
   * Visits just stored for a known visitor: the written ones in, those they
   * replace (same start, or tombstoned) out. Visits ended more than 30 minutes
   * before `latest` (the visitor's latest hit) are dropped and `from` moves up,
   * so an entry stays about one visit long.
   */
  wrote(orgId: string, visitorId: string, written: Visit[], replaced: Visit[], latest: number): void {
    const entry = this.entries.get(keyOf(orgId, visitorId))
    if (!entry) return
    const gone = new Set<number>()
    for (const v of written) gone.add(v.startedAt)
    for (const v of replaced) gone.add(v.startedAt)
    const keepFrom = Math.max(entry.from, latest - 2 * VISIT_GAP_MS)
    const visits: Visit[] = []
    for (const v of entry.visits) if (!gone.has(v.startedAt) && v.endedAt >= keepFrom) visits.push(v)
    for (const v of written) if (v.endedAt >= keepFrom) visits.push(v)
    entry.visits = visits
    entry.from = keepFrom
  }

  clear(): void {
    this.entries.clear()
  }
}

const keyOf = (orgId: string, visitorId: string): string => `${orgId}\0${visitorId}`

let rewrites = 0

/** Says that visits were written by other than the identity worker (a refresh): every worker's KnownVisits forgets what it knew. */
export function visitsRewritten(): void {
  rewrites++
}
