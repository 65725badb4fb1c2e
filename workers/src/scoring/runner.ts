import { claimRescore, claimScoringRun, completeScoringRun, failScoringRun, heartbeatScoringRun, postponeRescore, releaseScoringRun, type EventStore, type Sql } from '@fl0/stores'
import { rescoreModel } from './rescore.ts'
import { ScoringFailure, trainModel } from './train.ts'

/**
 * The scoring runner: trains the models waiting, one at a time, off the
 * request path. It runs in the process with the workers role (embedded, the
 * one process that runs every role), polling the scoring_models table, which
 * is the queue: the api only writes a model as pending. Several workers
 * processes may poll one PostgreSQL; FOR UPDATE SKIP LOCKED gives each run to
 * one of them.
 *
 * While a run trains, its heartbeat is refreshed every `heartbeatMs`; a run
 * whose heartbeat is older than `staleAfterMs` lost its runner (a crash, a
 * kill) and is claimed again, at most MAX_ATTEMPTS times in all. The learner
 * yields to the event loop between slices of work (learner/logistic.ts) and
 * ClickHouse runs its queries off it, so the api and the ingest in the same
 * process stay responsive while a model trains.
 *
 * A run made moot while training (rebuilt, its settings changed, deleted) is
 * dropped at its next checkpoint. On stop, a run under way is put back in
 * the queue for the next start.
 *
 * When no training waits, the runner re-scores the completed model most
 * overdue by its refresh setting (rescore.ts): one claim at a time, a
 * claim left by a runner that died taken again after `staleAfterMs`.
 */
export const MAX_ATTEMPTS = 3
export const ABANDONED = 'The training stopped unexpectedly several times; rebuild the model to try again'
export const UNEXPECTED = 'The training stopped on an unexpected error: rebuild the model to try again; if it fails again, the server log says why.'

export interface ScoringRunnerDeps {
  sql: Sql
  events: EventStore
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
  now?: () => Date
  pollMs?: number
  heartbeatMs?: number
  staleAfterMs?: number
}

export type RunOutcome = 'idle' | 'completed' | 'failed' | 'moot' | 'released' | 'rescored'

class Moot extends Error {}

export function createScoringRunner(deps: ScoringRunnerDeps) {
  const now = deps.now ?? (() => new Date())
  const pollMs = deps.pollMs ?? 2000
  const heartbeatMs = deps.heartbeatMs ?? 10_000
  const staleAfterMs = deps.staleAfterMs ?? 5 * 60_000
  let stopping = false
  let loop: Promise<void> | undefined
  let wake: (() => void) | undefined
  /** Nudged since the loop last looked: a run may have been queued after it did. */
  let nudged = false

  async function runOnce(): Promise<RunOutcome> {
    const model = await claimScoringRun(deps.sql, { staleAfterMs, maxAttempts: MAX_ATTEMPTS, abandoned: ABANDONED })
    if (!model) return 'idle'
    const log = { orgId: model.org_id, modelId: model.id, generation: model.generation, attempt: model.attempts }
    deps.logger.info(log, 'scoring: training started')
    let moot = false
    const beat = setInterval(() => {
      heartbeatScoringRun(deps.sql, model.id, model.generation)
        .then((current) => {
          if (!current) moot = true
        })
        .catch((err: unknown) => deps.logger.warn({ ...log, err }, 'scoring: heartbeat failed'))
    }, heartbeatMs)
    const checkpoint = async () => {
      if (moot || stopping) throw new Moot()
    }
    const started = performance.now()
    try {
      const results = await trainModel(deps, { model, now: now(), checkpoint })
      if (!(await completeScoringRun(deps.sql, model.id, model.generation, results))) {
        deps.logger.info(log, 'scoring: run became moot; results dropped')
        return 'moot'
      }
      deps.logger.info({ ...log, users: results.totalUsers, seconds: Math.round(performance.now() - started) / 1000 }, 'scoring: training completed')
      return 'completed'
    } catch (err) {
      if (err instanceof Moot) {
        if (stopping && !moot && (await releaseScoringRun(deps.sql, model.id, model.generation))) return 'released'
        deps.logger.info(log, 'scoring: run became moot; stopped')
        return 'moot'
      }
      const reason = err instanceof ScoringFailure ? err.message : UNEXPECTED
      if (!(err instanceof ScoringFailure)) deps.logger.error({ ...log, err }, 'scoring: training failed')
      else deps.logger.info({ ...log, reason }, 'scoring: training failed')
      await failScoringRun(deps.sql, model.id, model.generation, reason)
      return 'failed'
    } finally {
      clearInterval(beat)
    }
  }

  /** Re-scores one model due by its refresh setting; 'idle' when none is. */
  async function rescoreOnce(): Promise<RunOutcome> {
    const at = now()
    const claim = await claimRescore(deps.sql, { now: at, staleAfterMs })
    if (!claim) return 'idle'
    const log = { orgId: claim.row.org_id, modelId: claim.row.id, generation: claim.row.generation }
    try {
      const outcome = await rescoreModel(deps, claim, at, async () => {
        if (stopping) throw new Moot()
      })
      if (!outcome.written) {
        deps.logger.info(log, 'scoring: re-score became moot; dropped')
        return 'moot'
      }
      deps.logger.info({ ...log, users: outcome.users, ratings: outcome.ratings }, 'scoring: users re-scored')
      return 'rescored'
    } catch (err) {
      if (err instanceof Moot) return 'moot'
      if (err instanceof ScoringFailure) {
        // It cannot be scored as it is (its metric deleted, say): a day later, unless rebuilt meanwhile.
        deps.logger.info({ ...log, reason: err.message }, 'scoring: re-score postponed')
        await postponeRescore(deps.sql, claim.row.id, new Date(at.getTime() + 86_400_000))
        return 'failed'
      }
      // Left claimed: taken again once the claim is stale, by this runner or another.
      deps.logger.error({ ...log, err }, 'scoring: re-score failed')
      return 'failed'
    }
  }

  async function poll() {
    while (!stopping) {
      let outcome: RunOutcome = 'idle'
      let wait = pollMs
      nudged = false
      try {
        outcome = await runOnce()
        if (outcome === 'idle' && !stopping) outcome = await rescoreOnce()
      } catch (err) {
        // Soon again, whatever the poll: a queued run must not wait a minute for a passing failure.
        wait = Math.min(pollMs, 1000)
        deps.logger.error({ err }, 'scoring: runner could not claim a run')
      }
      if (outcome === 'idle' && !stopping && !nudged) await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  return {
    runOnce,
    rescoreOnce,
    /** Starts polling; idempotent. */
    start() {
      loop ??= poll()
    },
    /** A run may have been queued: look now rather than at the next poll (nothing while a run is under way). */
    nudge() {
      nudged = true
      wake?.()
    },
    /** Stops polling; a run under way goes back to the queue at its next checkpoint. */
    async stop() {
      stopping = true
      wake?.()
      await loop
    },
  }
}

export type ScoringRunner = ReturnType<typeof createScoringRunner>
