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
 *
 * A visitor it holds no entry for is read, unless the organisation is
 * covered from the hit's time on: every stored visit of the organisation
 * that ends at or after `coveredFrom` belongs to a visitor with an entry.
 * Coverage starts at the latest end stored when the worker first folds for
 * the organisation (coverFrom), so from then on a visitor never seen before
 * costs no read: on a busy site most visitors of the last half hour are new
 * or known, and reading back those not known was a query over the whole
 * table for each batch (bench/README.md, issue 19). Letting an entry go
 * raises its organisation's coverage past that visitor's visits.
 *
 * Visitors whose visits all ended two hours before the batch's latest event
 * (or the clock, if earlier) are let go, and the least recently used past
 * `max` entries (about 600 bytes an entry). Letting a visitor go moves its
 * organisation's coverage to about then: on a site with more visitors in two
 * hours than `max`, a visitor not held is read back, known before or not, as
 * before coverage. A visitor with a visit ending after the clock (an event
 * stamped in the future) is held rather than let go, so that one such event
 * moves no coverage into the future; the worker learns those already stored
 * as it starts covering (coverFrom).
 */
export class KnownVisits {
  private readonly entries = new Map<string, Entry>()
  /** Per organisation: every stored visit ending at or after this belongs to a visitor with an entry. None: not known yet. */
  private readonly covered = new Map<string, number>()
  private epoch = rewrites

  constructor(
    private readonly max = 250_000,
    /** The clock: what is after it is the future (held, not let go), and expire() lets go by it at the latest. */
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /** Forgets everything if the stored visits were rewritten by a job since the last batch. */
  checkEpoch(): void {
    if (this.epoch === rewrites) return
    this.clear()
    this.epoch = rewrites
  }

  /** Whether the organisation's coverage is known (else coverFrom first, with the latest end stored). */
  isCovered(orgId: string): boolean {
    return this.covered.has(orgId)
  }

  /** From `from` on, every stored visit of the organisation is one the worker will write or learn: the latest end stored + 1 ms. */
  coverFrom(orgId: string, from: number): void {
    this.covered.set(orgId, from)
  }

  /**
   * The visitor's stored visits ending at or after `from`, if known; undefined means read them.
   * A visitor without an entry, in an organisation covered from `from` on, has none: an entry is
   * made for them (so that what the worker writes for them is followed) and none answered.
   */
  get(orgId: string, visitorId: string, from: number): readonly Visit[] | undefined {
    const key = keyOf(orgId, visitorId)
    const entry = this.entries.get(key)
    if (!entry) {
      const coveredFrom = this.covered.get(orgId)
      if (coveredFrom === undefined || coveredFrom > from) return undefined
      this.add(key, orgId, { from: coveredFrom, visits: [] })
      return []
    }
    if (entry.from > from) return undefined
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
    this.add(key, orgId, { from, visits: [...visits] })
  }

  /**
   * Visits just stored for a known visitor: the written ones in, those they
   * replace (same start, or tombstoned) out. Visits ended more than 30 minutes
   * before `latest` (the visitor's latest hit) are dropped and `from` moves up,
   * so an entry stays about one visit long. A visitor let go meanwhile (more
   * visitors in the batch than `max`) is not followed: its organisation's
   * coverage moves past what was written.
   */
  wrote(orgId: string, visitorId: string, written: Visit[], replaced: Visit[], latest: number): void {
    const entry = this.entries.get(keyOf(orgId, visitorId))
    if (!entry) {
      this.uncover(orgId, written)
      return
    }
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

  /**
   * Lets go of the least recently used visitors whose visits all ended two hours before `latest` (the
   * batch's latest event; the clock if earlier, so that one event from the future lets nobody go).
   * Going by the events' time, a backlog hours old is folded with what the worker knows of it.
   */
  expire(latest: number): void {
    const before = Math.min(this.now(), latest) - LET_GO_MS
    this.letGo((entry) => entry.visits.every((v) => v.endedAt < before), Infinity)
  }

  clear(): void {
    this.entries.clear()
    this.covered.clear()
  }

  private add(key: string, orgId: string, entry: Omit<Entry, 'orgId'>): void {
    this.entries.set(key, { orgId, ...entry })
    if (this.entries.size > this.max) this.letGo(() => true, this.entries.size - this.max)
  }

  /**
   * Lets go of visitors from the least recently used on, while `goes` says so and at most `count`,
   * coverage moving past each one's visits. A visitor with a visit in the future goes to the back
   * instead (HELD_PER_CALL at most): letting it go would move coverage past that visit.
   */
  private letGo(goes: (entry: Entry) => boolean, count: number): void {
    const now = this.now()
    let held = 0
    let gone = 0
    for (const [key, entry] of this.entries) {
      if (gone >= count) return
      const ahead = endsAfter(entry, now) && held++ < HELD_PER_CALL
      if (!ahead && !goes(entry)) return
      this.entries.delete(key)
      if (ahead) {
        this.entries.set(key, entry)
        continue
      }
      this.uncover(entry.orgId, entry.visits)
      gone++
    }
  }

  /** The organisation's visitors no longer include these visits' visitor: coverage starts after them. */
  private uncover(orgId: string, visits: readonly Visit[]): void {
    const from = this.covered.get(orgId)
    if (from === undefined) return
    let end = from - 1
    for (const v of visits) if (v.endedAt > end) end = v.endedAt
    this.covered.set(orgId, end + 1)
  }
}

interface Entry {
  orgId: string
  from: number
  visits: readonly Visit[]
}

/** Visitors with a visit in the future passed over a call, at most: past that many (a flood of such events), they are let go, coverage moving with them. */
const HELD_PER_CALL = 1_000

/** Whether one of the entry's visits ends after `now`. */
const endsAfter = (entry: Entry, now: number): boolean => entry.visits.some((v) => v.endedAt > now)

/** How long after a visitor's last visit ended the worker lets it go: well past the 30 minutes a hit can join it. */
const LET_GO_MS = 2 * 60 * 60 * 1000

const keyOf = (orgId: string, visitorId: string): string => `${orgId}\0${visitorId}`

let rewrites = 0

/** Says that visits were written by other than the identity worker (a refresh): every worker's KnownVisits forgets what it knew. */
export function visitsRewritten(): void {
  rewrites++
}
