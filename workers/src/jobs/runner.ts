import type { Job, JobKind } from '@fl0/contracts'
import { ALREADY_RUNNING, beatAdminJob, finishAdminJob, startAdminJob, type AdminJobRow, type Sql } from '@fl0/stores'
import { JobFailure, Progress } from './progress.ts'

/** What a job needs around it: the metadata store (its row), a logger and the clock. */
export interface JobDeps {
  sql: Sql
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
  now: () => Date
}

/**
 * Runs admin jobs: an import in the api process that received the call (it
 * reads its upload as it arrives, so it runs where the upload lands); a
 * refresh or the copy in the workers role, which claims it from the queue
 * (queue.ts) and runs it here with executeJob. The job's row in the metadata store
 * (migration 0010) is the record: at most one running job of a kind across
 * processes, progress saved every few seconds (the heartbeat that tells a
 * dead process's job from a live one), and the final counts, errors and
 * message. A job's work is written so that running it again is safe: what it
 * finds already stored as it would store it, it leaves.
 */
export const BEAT_MS = 2_000

export type JobWork = (progress: Progress) => Promise<string>

/**
 * Text for the job's row: a file's content can put the NUL character in a
 * message (a header naming its columns, a parser's complaint quoting a line),
 * and the metadata store refuses NUL in any text, which would leave the job
 * unrecorded and the call a 500. It is shown as U+FFFD, the replacement
 * character, as any unreadable character of the file would be.
 */
export const storable = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text)

export type JobOutcome = { ok: true; job: Job } | { ok: false; job: Job } | typeof ALREADY_RUNNING

export async function runJob(
  deps: JobDeps,
  start: { kind: JobKind; fileName?: string | null; startedBy?: string | null },
  work: JobWork,
  options: { onLine?: (line: string) => void; onStarted?: (job: Job) => void } = {},
): Promise<JobOutcome> {
  const row = await startAdminJob(deps.sql, { ...start, now: deps.now() })
  if (row === ALREADY_RUNNING) return ALREADY_RUNNING
  options.onStarted?.(jobOf(row))
  return executeJob(deps, row, work, options.onLine)
}

/** Does a started (or claimed) job's work: its progress saved as it goes, its row finished with the outcome. */
export async function executeJob(deps: JobDeps, row: AdminJobRow, work: JobWork, onLine?: (line: string) => void): Promise<Exclude<JobOutcome, typeof ALREADY_RUNNING>> {
  const progress = new Progress(onLine)
  let saving = Promise.resolve()
  const timer = setInterval(() => {
    saving = saving
      .then(() => beatAdminJob(deps.sql, row.id, { counts: progress.counts, log: storable(progress.drain()), now: deps.now() }))
      .catch((err) => deps.logger.warn({ err, jobId: row.id }, 'admin job: progress not saved'))
  }, BEAT_MS)
  let status: 'succeeded' | 'failed' = 'succeeded'
  let message: string
  try {
    message = await work(progress)
  } catch (error) {
    status = 'failed'
    if (error instanceof JobFailure) message = error.message
    else {
      deps.logger.error({ err: error, jobId: row.id, kind: row.kind }, 'admin job failed')
      message = `An error has occurred: ${(error as Error).message ?? String(error)}`
    }
    progress.log(`Failed: ${message}`)
  } finally {
    clearInterval(timer)
    await saving
  }
  const done = await finishAdminJob(deps.sql, row.id, {
    status,
    counts: progress.counts,
    errors: progress.errors.map((e) => ({ ...e, message: storable(e.message) })),
    message: storable(message),
    log: storable(progress.drain()),
    now: deps.now(),
  })
  deps.logger.info({ jobId: row.id, kind: row.kind, status, counts: progress.counts }, 'admin job finished')
  const job = jobOf(done ?? row)
  return status === 'succeeded' ? { ok: true, job } : { ok: false, job }
}

export function jobOf(r: AdminJobRow): Job {
  return {
    id: r.id,
    kind: r.kind as JobKind,
    status: r.status,
    fileName: r.file_name,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    startedBy: r.started_by,
    counts: r.counts,
    errors: r.errors,
    message: r.message,
  }
}
