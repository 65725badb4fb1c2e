import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/** An admin job's row (migration 0010). Times are ISO 8601, UTC. */
export interface AdminJobRow {
  id: string
  kind: string
  status: 'running' | 'succeeded' | 'failed'
  file_name: string | null
  started_by: string | null
  started_at: string
  heartbeat_at: string
  finished_at: string | null
  counts: Record<string, number>
  errors: Array<{ line: number | null; message: string }>
  message: string
  log: string
  /** When a process took it on: at once for a job run where it was asked (an import), by a workers process for a queued one; null until then. */
  claimed_at: string | null
  /** What a queued job was asked (a refresh's organisations). */
  params: Record<string, unknown>
}

/** A job silent this long is taken for dead (its process is gone), and the next start of its kind fails it. */
export const JOB_SILENCE_MS = 60_000
export const ALREADY_RUNNING = 'already-running' as const

const COLUMNS = 'id, kind, status, file_name, started_by, started_at, heartbeat_at, finished_at, counts, errors, message, log, claimed_at, params'
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString())
const parse = <T>(v: unknown, fallback: T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : ((v as T) ?? fallback))

function toRow(r: Record<string, unknown>): AdminJobRow {
  return {
    ...(r as unknown as AdminJobRow),
    started_at: iso(r.started_at)!,
    heartbeat_at: iso(r.heartbeat_at)!,
    finished_at: iso(r.finished_at),
    claimed_at: iso(r.claimed_at),
    params: parse(r.params, {}),
    counts: parse(r.counts, {}),
    errors: parse(r.errors, []),
  }
}

/**
 * Starts a job of `kind`, unless one is running: then ALREADY_RUNNING. A
 * running job silent for JOB_SILENCE_MS is failed first (its process died).
 */
export async function startAdminJob(
  sql: Sql,
  job: { kind: string; fileName?: string | null; startedBy?: string | null; now: Date; /** Left for a workers process to claim (claimAdminJob), with what it was asked. */ queued?: Record<string, unknown> },
): Promise<AdminJobRow | typeof ALREADY_RUNNING> {
  return sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE admin_jobs SET status = 'failed', finished_at = $3, message = 'Interrupted: the process running it stopped'
       WHERE kind = $1 AND status = 'running' AND heartbeat_at < $2`,
      [job.kind, new Date(job.now.getTime() - JOB_SILENCE_MS), job.now],
    )
    const rows = await tx.query<Record<string, unknown>>(
      `INSERT INTO admin_jobs (id, kind, status, file_name, started_by, started_at, heartbeat_at, claimed_at, params)
       VALUES ($1, $2, 'running', $3, $4, $5, $5, $6, $7::jsonb)
       ON CONFLICT (kind) WHERE status = 'running' DO NOTHING
       RETURNING ${COLUMNS}`,
      [newId(), job.kind, job.fileName ?? null, job.startedBy ?? null, job.now, job.queued ? null : job.now, JSON.stringify(job.queued ?? {})],
    )
    return rows[0] ? toRow(rows[0]) : ALREADY_RUNNING
  })
}

/**
 * Takes the oldest queued job of these kinds that no process has claimed
 * yet: one process gets it (FOR UPDATE SKIP LOCKED), the others the next.
 */
export async function claimAdminJob(sql: Sql, kinds: readonly string[], now: Date): Promise<AdminJobRow | undefined> {
  const rows = await sql.query<Record<string, unknown>>(
    `UPDATE admin_jobs SET claimed_at = $2, heartbeat_at = $2
     WHERE id = (
       SELECT id FROM admin_jobs WHERE status = 'running' AND claimed_at IS NULL AND kind = ANY($1::text[])
       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING ${COLUMNS}`,
    [kinds, now],
  )
  return rows[0] ? toRow(rows[0]) : undefined
}

/** Fails a queued job that no process has claimed (none runs the workers role); undefined if one has meanwhile. */
export async function failUnclaimedAdminJob(sql: Sql, id: string, message: string, now: Date): Promise<AdminJobRow | undefined> {
  const rows = await sql.query<Record<string, unknown>>(
    `UPDATE admin_jobs SET status = 'failed', finished_at = $3, heartbeat_at = $3, message = $2
     WHERE id = $1 AND status = 'running' AND claimed_at IS NULL RETURNING ${COLUMNS}`,
    [id, message, now],
  )
  return rows[0] ? toRow(rows[0]) : undefined
}

/** Progress of a running job: its counts, and log lines to append (the log keeps its last `maxLogChars`). */
export async function beatAdminJob(sql: Sql, id: string, progress: { counts: Record<string, number>; log?: string; now: Date; maxLogChars?: number }): Promise<void> {
  await sql.query(
    `UPDATE admin_jobs SET heartbeat_at = $2, counts = $3::jsonb, log = right(log || $4, $5) WHERE id = $1 AND status = 'running'`,
    [id, progress.now, JSON.stringify(progress.counts), progress.log ?? '', progress.maxLogChars ?? 200_000],
  )
}

export async function finishAdminJob(
  sql: Sql,
  id: string,
  end: { status: 'succeeded' | 'failed'; counts: Record<string, number>; errors: AdminJobRow['errors']; message: string; log?: string; now: Date; maxLogChars?: number },
): Promise<AdminJobRow | undefined> {
  const rows = await sql.query<Record<string, unknown>>(
    `UPDATE admin_jobs SET status = $2, finished_at = $3, heartbeat_at = $3, counts = $4::jsonb, errors = $5::jsonb, message = $6, log = right(log || $7, $8)
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, end.status, end.now, JSON.stringify(end.counts), JSON.stringify(end.errors), end.message, end.log ?? '', end.maxLogChars ?? 200_000],
  )
  return rows[0] ? toRow(rows[0]) : undefined
}

export async function findAdminJob(sql: Sql, id: string): Promise<AdminJobRow | undefined> {
  const rows = await sql.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM admin_jobs WHERE id = $1`, [id])
  return rows[0] ? toRow(rows[0]) : undefined
}

/** The newest job of a kind: the running one, else the last. */
export async function latestAdminJob(sql: Sql, kind: string): Promise<AdminJobRow | undefined> {
  const rows = await sql.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM admin_jobs WHERE kind = $1 ORDER BY seq DESC LIMIT 1`, [kind])
  return rows[0] ? toRow(rows[0]) : undefined
}

/** A page of jobs, newest first, and how many there are. */
export async function listAdminJobs(sql: Sql, page: { limit: number; offset: number }): Promise<{ rows: AdminJobRow[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    sql.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM admin_jobs ORDER BY seq DESC LIMIT $1 OFFSET $2`, [page.limit, page.offset]),
    sql.query<{ n: number | string }>('SELECT count(*) AS n FROM admin_jobs'),
  ])
  return { rows: rows.map(toRow), total: Number(count?.n ?? 0) }
}
