import type { Consumer, EventStore } from '@fl0/stores'
import { detectBots, LOOK_BACK_MS, type BotScan } from './scan.ts'
import { startPeriodic } from '../periodic.ts'

export { detectBots, LOOK_BACK_MS, MAX_AGENTS, STAMP_SLACK_MS, type BotScan } from './scan.ts'
export { MAX_MEDIAN_SPAN_MS, MAX_PAGES, MIN_SESSIONS } from './sql/behaviour.ts'

export interface BotsWorkerDeps {
  /** The store its scans read and write (the workers' background store). */
  store: EventStore
  logger: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }
  /** Between scans once caught up; a minute by default. */
  intervalMs?: number
  /** How far back the first scan after a start reaches (LOOK_BACK_MS, two days, by default). */
  lookBackMs?: number
  now?: () => Date
  /** Called after each scan (tests). */
  onScan?: (scan: BotScan) => void
}

/**
 * Each scan re-reads this much before its watermark: the event writer stores
 * a call a moment (under load, seconds) after the ingest stamped its
 * received_at, so a call received just before a scan may be stored just
 * after it. The rescan writes nothing twice (scan.ts).
 */
export const OVERLAP_MS = 10 * 60_000
/** The most a scan covers: after a long stop, the look-back is scanned in steps, one right after another. */
export const MAX_SPAN_MS = 6 * 60 * 60_000

/**
 * The bots worker: every `intervalMs`, marks the crawlers and headless
 * browsers among the visitors whose calls arrived since its last scan
 * (scan.ts; docs/identification.md, "Bots"). Its watermark, the received_at
 * its last scan reached, is kept in memory: a start scans the last
 * `lookBackMs` again, which marks nothing twice. In a cluster every workers
 * process scans; their writes are the same set.
 */
export function startBotsWorker(deps: BotsWorkerDeps): Consumer {
  const now = deps.now ?? (() => new Date())
  const intervalMs = deps.intervalMs ?? 60_000
  let watermark = now().getTime() - (deps.lookBackMs ?? LOOK_BACK_MS)

  async function scanOnce(): Promise<boolean> {
    const at = now()
    const until = Math.min(at.getTime(), watermark + MAX_SPAN_MS)
    const scan = await detectBots(deps.store, at, { since: new Date(watermark - OVERLAP_MS), until: new Date(until) })
    watermark = until
    if (scan.marked.user_agent + scan.marked.behaviour > 0) {
      deps.logger.info({ from: scan.from, until: scan.until, calls: scan.calls, botAgents: scan.botAgents, marked: scan.marked }, 'bots: visitors marked')
    }
    deps.onScan?.(scan)
    return until < at.getTime()
  }

  return startPeriodic(
    async () => ((await scanOnce()) ? 0 : intervalMs),
    intervalMs,
    (err) => deps.logger.warn({ err }, 'bots: scan failed; trying again'),
  )
}
