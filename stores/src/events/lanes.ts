/**
 * Who goes next to chDB with a call that binds parameters: chDB runs those
 * one at a time in a process, in the order they reach it (client.ts).
 *
 * Two lanes: a reader's (the dashboard's queries, someone waiting on them) and
 * the background's (the bus's consumers, scoring, the admin's jobs). A reader's
 * call goes ahead of waiting background calls, but not always: while both have
 * calls waiting, the background gets at least `backgroundShare` of chDB's time
 * (measured over the last few seconds), so that a dashboard read without pause
 * cannot starve the event writer and let it fall behind the ingest for good.
 * Within a lane, calls keep their order. A call whose signal aborts while it
 * waits leaves its lane without reaching chDB.
 *
 * No queue library we know of shares time between priorities (p-queue's
 * priorities are strict: measured, the writer then got one call in between two
 * of the reader's and fell 150,000 events behind a 10,000 events/s ingest).
 */
export type Lane = 'reader' | 'background'

interface Waiting {
  run: () => void
  onAbort?: () => void
}

export interface LanesOptions {
  /** The least share of chDB's time the background gets while both lanes wait (default 0.4). */
  backgroundShare?: number
  /** Over how long the shares are measured (time constant of their decay, default 2,000 ms). */
  windowMs?: number
  now?: () => number
}

export class Lanes {
  private readonly waiting: Record<Lane, Waiting[]> = { reader: [], background: [] }
  private readonly spent: Record<Lane, number> = { reader: 0, background: 0 }
  private spentAt: number
  private busy = false
  private readonly share: number
  private readonly windowMs: number
  private readonly now: () => number

  constructor(options: LanesOptions = {}) {
    this.share = options.backgroundShare ?? 0.4
    this.windowMs = options.windowMs ?? 2_000
    this.now = options.now ?? (() => performance.now())
    this.spentAt = this.now()
  }

  run<T>(lane: Lane, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        run: () => {
          if (entry.onAbort) signal!.removeEventListener('abort', entry.onAbort)
          const started = this.now()
          call()
            .then(resolve, reject)
            .finally(() => {
              this.account(lane, this.now() - started)
              this.busy = false
              this.next()
            })
        },
      }
      if (signal) {
        entry.onAbort = () => {
          const list = this.waiting[lane]
          const i = list.indexOf(entry)
          if (i >= 0) list.splice(i, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', entry.onAbort, { once: true })
      }
      this.waiting[lane].push(entry)
      this.next()
    })
  }

  private next(): void {
    if (this.busy) return
    const lane = this.pick()
    if (!lane) return
    this.busy = true
    this.waiting[lane].shift()!.run()
  }

  private pick(): Lane | undefined {
    const reader = this.waiting.reader.length > 0
    const background = this.waiting.background.length > 0
    if (!reader) return background ? 'background' : undefined
    if (!background) return 'reader'
    this.decay()
    const total = this.spent.reader + this.spent.background
    return total > 0 && this.spent.background < this.share * total ? 'background' : 'reader'
  }

  private account(lane: Lane, ms: number): void {
    this.decay()
    this.spent[lane] += ms
  }

  private decay(): void {
    const t = this.now()
    const f = Math.exp(-(t - this.spentAt) / this.windowMs)
    this.spent.reader *= f
    this.spent.background *= f
    this.spentAt = t
  }
}
