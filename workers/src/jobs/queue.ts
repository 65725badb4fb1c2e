import { ALREADY_RUNNING, claimAdminJob, failUnclaimedAdminJob, findAdminJob, JOB_SILENCE_MS, startAdminJob, type EventStore, type Sql } from '@fl0/stores'
import type { JobKind } from '@fl0/contracts'
import { loadNetworks, type IpDataMode } from '../identity/range-source.ts'
import { copyToExportDatabase } from './copy-export.ts'
import { JobFailure } from './progress.ts'
import { refreshPagesAndActivities } from './refresh-pages.ts'
import { refreshSessions } from './refresh-sessions.ts'
import { executeJob, jobOf, type JobDeps, type JobOutcome, type JobWork } from './runner.ts'

/**
 * The admin's jobs that the workers role runs: the refreshes and the copy.
 * The API queues one (its row, 'running' and not yet claimed, with the
 * organisations it was asked for) and waits for it (awaitJob); a workers
 * process claims it (claimAdminJob: one process gets each), does its work
 * here and finishes the row. Imports are not queued: they read their upload
 * as it arrives, in the API process that receives it.
 */
export const QUEUED_JOB_KINDS = ['refresh-sessions', 'refresh-pages-and-activities', 'copy-pages-to-supabase'] as const satisfies readonly JobKind[]
export type QueuedJobKind = (typeof QUEUED_JOB_KINDS)[number]

export const NO_WORKERS = 'No workers process took the job: run fl0 with the workers role (FL0_ROLES)'

export interface JobQueueDeps extends JobDeps {
  events: EventStore
  /** EXPORT_DATABASE_URL opened, for the copy; undefined when none is configured. */
  exportDatabase?: () => Promise<Sql>
  /** Whether refreshes also match addresses against the free network data (FL0_IP_DATA); 'free' by default. */
  ipData?: IpDataMode
}

/** Queues a job for the workers role; ALREADY_RUNNING while one of its kind runs. */
export async function queueJob(deps: Pick<JobDeps, 'sql' | 'now'>, kind: QueuedJobKind, params: { orgIds?: string[] }, startedBy: string | null) {
  return startAdminJob(deps.sql, { kind, startedBy, now: deps.now(), queued: params })
}

/**
 * Waits for a queued job to end, and returns its outcome. One that no workers
 * process claims within JOB_SILENCE_MS (none runs) is failed, saying so.
 */
export async function awaitJob(
  deps: Pick<JobDeps, 'sql' | 'now'>,
  id: string,
  options: { pollMs?: number; silenceMs?: number } = {},
): Promise<Exclude<JobOutcome, typeof ALREADY_RUNNING>> {
  const { pollMs = 250, silenceMs = JOB_SILENCE_MS } = options
  const waitingSince = Date.now()
  for (;;) {
    const row = await findAdminJob(deps.sql, id)
    if (!row) throw new Error(`admin job ${id} is gone`)
    if (row.status !== 'running') return { ok: row.status === 'succeeded', job: jobOf(row) } as Exclude<JobOutcome, typeof ALREADY_RUNNING>
    if (!row.claimed_at && Date.now() - waitingSince > silenceMs) {
      const failed = await failUnclaimedAdminJob(deps.sql, id, NO_WORKERS, deps.now())
      if (failed) return { ok: false, job: jobOf(failed) }
      continue // claimed at the last moment: wait for it
    }
    await new Promise((r) => setTimeout(r, pollMs))
  }
}

/** A queued job's work: `now` is when it was asked for, as if it had run at once. */
function workOf(deps: JobQueueDeps, kind: QueuedJobKind, params: { orgIds?: string[] }, now: Date): JobWork {
  const client = deps.events.client
  const orgIds = params.orgIds
  switch (kind) {
    case 'refresh-sessions':
      return async (progress) => refreshSessions(deps.events, await loadNetworks(deps.events, deps.ipData), orgIds, progress, now)
    case 'refresh-pages-and-activities':
      return (progress) => refreshPagesAndActivities(client, orgIds, progress, now)
    case 'copy-pages-to-supabase':
      return async (progress) => {
        if (!deps.exportDatabase) throw new JobFailure('EXPORT_DATABASE_URL is not set for the workers role')
        const target = await deps.exportDatabase().catch((err: Error) => {
          throw new JobFailure(`Cannot reach the database at EXPORT_DATABASE_URL: ${err.message}`)
        })
        try {
          return await copyToExportDatabase(deps.events, target, orgIds, progress)
        } finally {
          await target.close()
        }
      }
  }
}

export interface JobRunner {
  start(): void
  /** Stops claiming, and resolves once the job under way (if any) has finished. */
  stop(): Promise<void>
  /** A job may have been queued: claim now rather than at the next poll (nothing when a claim is under way). */
  nudge(): void
}

/**
 * The workers role's loop: claims queued jobs one at a time, every `pollMs` when there is none, and
 * at once when nudged (the API in the same process queued one).
 */
export function createJobRunner(deps: JobQueueDeps & { pollMs?: number }): JobRunner {
  const pollMs = deps.pollMs ?? 1000
  /** After a failed claim, the next comes within a second whatever the poll: the api fails a job no runner takes within a minute. */
  const retryMs = Math.min(pollMs, 1000)
  let failed = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> = Promise.resolve()
  let claiming = false
  /** Nudged while claiming: the job may have been queued after the claim looked, so look again at once. */
  let again = false
  const tick = () => {
    timer = undefined
    claiming = true
    current = (async () => {
      try {
        for (;;) {
          if (stopped) return
          const row = await claimAdminJob(deps.sql, QUEUED_JOB_KINDS, deps.now())
          if (!row) return
          await executeJob(deps, row, workOf(deps, row.kind as QueuedJobKind, row.params as { orgIds?: string[] }, new Date(row.started_at)))
        }
      } catch (err) {
        failed = true
        deps.logger.error({ err }, 'admin jobs: claiming failed; trying again')
      }
    })().finally(() => {
      claiming = false
      if (stopped) return
      if (again) {
        again = false
        tick()
      } else {
        timer = setTimeout(tick, failed ? retryMs : pollMs)
        failed = false
      }
    })
  }
  return {
    start() {
      if (!timer && !stopped) timer = setTimeout(tick, 0)
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await current
    },
    nudge() {
      if (stopped) return
      if (claiming) again = true
      else if (timer) {
        clearTimeout(timer)
        tick()
      }
    },
  }
}


