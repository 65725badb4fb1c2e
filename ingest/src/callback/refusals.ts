import type { CallbackRefusalReason } from '@fl0/contracts'

/**
 * What the callback refused, counted in memory and written out in the
 * background: at most one write in flight, the next carrying everything
 * counted meanwhile, so that a flood of thousands of refusals a second costs
 * the store about one write a second per ingest process. Where the counts go
 * is the caller's (the metadata store's callback_refusals in fl0, summed
 * across ingest processes: stores/src/metadata/callback-refusals.ts); each
 * write is also one log line with its counts. A failed write keeps its counts
 * for the next; what is counted in the last second before a crash is lost.
 */
export type RefusalCounts = Partial<Record<CallbackRefusalReason, number>>

export interface RefusalCounter {
  count(reason: CallbackRefusalReason): void
  /** Writes what was counted and not yet written; resolves when that write (and any before it) is done. */
  flush(): Promise<void>
  /** Flushes and stops counting: for shutdown. */
  close(): Promise<void>
  /** This process's counts since it started. */
  totals(): RefusalCounts
}

export interface RefusalCounterDeps {
  /** Adds counts to the day's (UTC, YYYY-MM-DD) totals. */
  store: (day: string, counts: RefusalCounts) => Promise<void>
  logger?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  /** How long counts wait to be written with the ones that follow; 1 s. */
  delayMs?: number
  now?: () => Date
}

export function createRefusalCounter(deps: RefusalCounterDeps): RefusalCounter {
  const delayMs = deps.delayMs ?? 1000
  const now = deps.now ?? (() => new Date())
  const totals: RefusalCounts = {}
  let pending: RefusalCounts = {}
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> = Promise.resolve()
  let closed = false

  const add = (into: RefusalCounts, counts: RefusalCounts) => {
    for (const [reason, n] of Object.entries(counts) as Array<[CallbackRefusalReason, number]>) into[reason] = (into[reason] ?? 0) + n
  }
  const schedule = () => {
    if (timer || closed) return
    timer = setTimeout(() => {
      timer = undefined
      void flush()
    }, delayMs)
    timer.unref?.()
  }

  async function writeRefusals() {
    const batch = pending
    if (Object.keys(batch).length === 0) return
    pending = {}
    try {
      await deps.store(now().toISOString().slice(0, 10), batch)
      deps.logger?.warn({ refused: batch }, 'identity callbacks refused')
    } catch (err) {
      add(pending, batch)
      deps.logger?.error({ err, refused: batch }, 'identity callback refusals: write failed; kept for the next')
      schedule()
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = undefined
    writing = writing.then(writeRefusals)
    return writing
  }

  return {
    count(reason) {
      if (closed) return
      totals[reason] = (totals[reason] ?? 0) + 1
      pending[reason] = (pending[reason] ?? 0) + 1
      schedule()
    },
    flush,
    async close() {
      closed = true
      await flush()
    },
    totals: () => ({ ...totals }),
  }
}
