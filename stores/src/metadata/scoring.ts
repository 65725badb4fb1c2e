import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/**
 * Scoring models (migration 0012): a model is also its training job. The
 * store keeps what the api and the runner hand it, as they hand it (the
 * excluded audience and selections as the api normalised them; results as
 * the trainer made them): api/src/scoring reads and decides.
 */
export type ScoringStatusValue = 'pending' | 'running' | 'failed' | 'completed'

export interface ScoringModelRow {
  id: string
  org_id: string
  name: string
  metric_id: string
  date_range: string
  excluded_audience: unknown
  feature_selections: unknown
  status: ScoringStatusValue
  error: string | null
  generation: number
  attempts: number
  queued_at: Date
  trained_at: Date | null
  total_users: number
  ratings: unknown
  created_at: Date
}

/** The last completed run's results, beside the model's row. */
export interface ScoringResultsRow {
  summary: unknown
  activity: unknown
  backtest: unknown
}

export interface ScoredUserRow {
  rank: number
  user_id: string
  name: string
  score: number
  rating: string
  factors: unknown
}

const COLUMNS = `id, org_id, name, metric_id, date_range, excluded_audience, feature_selections, status, error, generation, attempts,
  queued_at, trained_at, total_users, ratings, created_at`

export interface ScoringModelInput {
  name: string
  metricId: string
  dateRange: string
  excludedAudience: unknown
  featureSelections: unknown
}

/** A new model, pending: the runner takes it from there. */
export async function createScoringModel(sql: Sql, input: ScoringModelInput & { orgId: string; id?: string }): Promise<ScoringModelRow> {
  const [row] = await sql.query<ScoringModelRow>(
    `INSERT INTO scoring_models (id, org_id, name, metric_id, date_range, excluded_audience, feature_selections)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) RETURNING ${COLUMNS}`,
    [input.id ?? newId(), input.orgId, input.name, input.metricId, input.dateRange, JSON.stringify(input.excludedAudience), JSON.stringify(input.featureSelections)],
  )
  return row!
}

/** The organisation's models, newest first (scoring_models_org_created). */
export async function listScoringModels(sql: Sql, orgId: string): Promise<ScoringModelRow[]> {
  return sql.query<ScoringModelRow>(`SELECT ${COLUMNS} FROM scoring_models WHERE org_id = $1 ORDER BY created_at DESC, id`, [orgId])
}

export async function findScoringModel(sql: Sql, orgId: string, id: string): Promise<ScoringModelRow | undefined> {
  const [row] = await sql.query<ScoringModelRow>(`SELECT ${COLUMNS} FROM scoring_models WHERE org_id = $1 AND id = $2`, [orgId, id])
  return row
}

/** The deleted model's id and name; its users go with it. A run under way finds it gone and drops its results. */
export async function deleteScoringModel(sql: Sql, orgId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await sql.query<{ id: string; name: string }>('DELETE FROM scoring_models WHERE org_id = $1 AND id = $2 RETURNING id, name', [orgId, id])
  return row
}

/**
 * Replaces the model's settings. With `requeue` (what it learns changed) a
 * new run is queued as by queueScoringRun, in the same statement.
 */
export async function updateScoringSettings(
  sql: Sql,
  orgId: string,
  id: string,
  input: Omit<ScoringModelInput, 'featureSelections'>,
  requeue: boolean,
): Promise<ScoringModelRow | undefined> {
  const [row] = await sql.query<ScoringModelRow>(
    `UPDATE scoring_models SET name = $3, metric_id = $4, date_range = $5, excluded_audience = $6::jsonb, updated_at = now()${requeue ? `, ${REQUEUE}` : ''}
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, input.name, input.metricId, input.dateRange, JSON.stringify(input.excludedAudience)],
  )
  return row
}

const REQUEUE = `status = 'pending', error = NULL, generation = generation + 1, attempts = 0, queued_at = now(), heartbeat_at = NULL`

/** Queues a new run (with new selections when given): a run under way becomes moot. */
export async function queueScoringRun(sql: Sql, orgId: string, id: string, featureSelections?: unknown): Promise<ScoringModelRow | undefined> {
  const [row] = await sql.query<ScoringModelRow>(
    `UPDATE scoring_models SET ${REQUEUE}, feature_selections = coalesce($3::jsonb, feature_selections), updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, featureSelections === undefined ? null : JSON.stringify(featureSelections)],
  )
  return row
}

export interface ClaimOptions {
  /** A running model whose heartbeat is older than this is taken to have lost its runner. */
  staleAfterMs: number
  /** Claims of one run before it is failed instead. */
  maxAttempts: number
  /** The failure a run gets after maxAttempts claims. */
  abandoned: string
}

/**
 * Claims the oldest run waiting (pending, or running with a stale heartbeat):
 * running, heartbeat now, one more attempt. Runs claimed maxAttempts times
 * already are failed first, so a run that kills its runner does not loop.
 */
export async function claimScoringRun(sql: Sql, options: ClaimOptions): Promise<ScoringModelRow | undefined> {
  const stale = `(status = 'running' AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000))`
  await sql.query(`UPDATE scoring_models SET status = 'failed', error = $3, heartbeat_at = NULL, updated_at = now() WHERE ${stale} AND attempts >= $2`, [
    options.staleAfterMs,
    options.maxAttempts,
    options.abandoned,
  ])
  const [row] = await sql.query<ScoringModelRow>(
    `UPDATE scoring_models SET status = 'running', attempts = attempts + 1, heartbeat_at = now(), updated_at = now()
     WHERE id = (
       SELECT id FROM scoring_models
       WHERE status = 'pending' OR ${stale}
       ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING ${COLUMNS}`,
    [options.staleAfterMs],
  )
  return row
}

/** Keeps a claimed run alive; false when it is moot (rebuilt, deleted, or claimed by another after going stale). */
export async function heartbeatScoringRun(sql: Sql, id: string, generation: number): Promise<boolean> {
  const rows = await sql.query(`UPDATE scoring_models SET heartbeat_at = now() WHERE id = $1 AND generation = $2 AND status = 'running' RETURNING id`, [id, generation])
  return rows.length > 0
}

/** Fails the run with its reason; false when it was moot already. */
export async function failScoringRun(sql: Sql, id: string, generation: number, error: string): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE scoring_models SET status = 'failed', error = $3, heartbeat_at = NULL, updated_at = now() WHERE id = $1 AND generation = $2 AND status = 'running' RETURNING id`,
    [id, generation, error],
  )
  return rows.length > 0
}

/** Puts a claimed run back in the queue (its runner is stopping), not counting the attempt. */
export async function releaseScoringRun(sql: Sql, id: string, generation: number): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE scoring_models SET status = 'pending', attempts = greatest(attempts - 1, 0), heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND generation = $2 AND status = 'running' RETURNING id`,
    [id, generation],
  )
  return rows.length > 0
}

export interface ScoringResults {
  trainedAt: Date
  totalUsers: number
  ratings: unknown
  summary: unknown
  activity: unknown
  backtest: unknown
  /** null: no backtest (too little history before the date range). */
  backtestImage: Uint8Array | null
  users: Array<{ rank: number; userId: string; name: string; score: number; rating: string; factors: unknown }>
}

/**
 * Users written per statement: bounded parameters and memory, whatever the
 * model's size; small enough that PGlite, which runs on the event loop, holds
 * it for tens of milliseconds at a time, not hundreds.
 */
const USER_BATCH = 1000

/**
 * Completes the run with its results, replacing the last run's, in one
 * transaction; false (and nothing written) when the run is moot.
 */
export async function completeScoringRun(sql: Sql, id: string, generation: number, results: ScoringResults): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const current = await tx.query('SELECT id FROM scoring_models WHERE id = $1 AND generation = $2 AND status = $3 FOR UPDATE', [id, generation, 'running'])
    if (current.length === 0) return false
    await tx.query('DELETE FROM scoring_users WHERE model_id = $1', [id])
    for (let i = 0; i < results.users.length; i += USER_BATCH) {
      const batch = results.users.slice(i, i + USER_BATCH)
      await tx.query(
        `INSERT INTO scoring_users (model_id, rank, user_id, name, score, rating, factors)
         SELECT $1, u.rank, u.user_id, u.name, u.score, u.rating, u.factors::jsonb
         FROM unnest($2::integer[], $3::text[], $4::text[], $5::double precision[], $6::text[], $7::text[]) AS u(rank, user_id, name, score, rating, factors)`,
        [
          id,
          batch.map((u) => u.rank),
          batch.map((u) => u.userId),
          batch.map((u) => u.name),
          batch.map((u) => u.score),
          batch.map((u) => u.rating),
          batch.map((u) => JSON.stringify(u.factors)),
        ],
      )
    }
    await tx.query(
      `UPDATE scoring_models SET status = 'completed', error = NULL, heartbeat_at = NULL, trained_at = $2, total_users = $3, ratings = $4::jsonb,
         summary = $5::jsonb, activity = $6::jsonb, backtest = $7::jsonb, backtest_image = $8, updated_at = now()
       WHERE id = $1`,
      [id, results.trainedAt, results.totalUsers, JSON.stringify(results.ratings), JSON.stringify(results.summary), JSON.stringify(results.activity), JSON.stringify(results.backtest), results.backtestImage ?? null],
    )
    return true
  })
}

/** The last completed run's results; undefined before the first. */
export async function findScoringResults(sql: Sql, orgId: string, id: string): Promise<ScoringResultsRow | undefined> {
  const [row] = await sql.query<ScoringResultsRow>('SELECT summary, activity, backtest FROM scoring_models WHERE org_id = $1 AND id = $2 AND trained_at IS NOT NULL', [orgId, id])
  return row
}

/** The backtest image's PNG bytes; undefined before the first completed run. */
export async function findBacktestImage(sql: Sql, orgId: string, id: string): Promise<Uint8Array | undefined> {
  const [row] = await sql.query<{ backtest_image: Uint8Array | null }>('SELECT backtest_image FROM scoring_models WHERE org_id = $1 AND id = $2', [orgId, id])
  return row?.backtest_image ? new Uint8Array(row.backtest_image) : undefined
}

/**
 * A page of a model's scored users in rank order; `search` matches the user id
 * or the name, ignoring case. total counts every match.
 */
export async function listScoredUsers(sql: Sql, modelId: string, q: { search: string; offset: number; limit: number }): Promise<{ users: ScoredUserRow[]; total: number }> {
  const pattern = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const where = q.search ? `model_id = $1 AND (lower(user_id) LIKE $2 OR lower(name) LIKE $2)` : 'model_id = $1 AND $2::text IS NOT NULL'
  const users = await sql.query<ScoredUserRow>(`SELECT rank, user_id, name, score, rating, factors FROM scoring_users WHERE ${where} ORDER BY rank LIMIT $3 OFFSET $4`, [
    modelId,
    pattern,
    q.limit,
    q.offset,
  ])
  const [count] = await sql.query<{ n: number | string }>(`SELECT count(*) AS n FROM scoring_users WHERE ${where}`, [modelId, pattern])
  return { users, total: Number(count?.n ?? 0) }
}

export async function findScoredUser(sql: Sql, modelId: string, userId: string): Promise<ScoredUserRow | undefined> {
  const [row] = await sql.query<ScoredUserRow>('SELECT rank, user_id, name, score, rating, factors FROM scoring_users WHERE model_id = $1 AND user_id = $2', [modelId, userId])
  return row
}

/** Every score of a model, for the per-user image that places one among all: a histogram's counts by hundredth. */
export async function scoreHistogram(sql: Sql, modelId: string): Promise<number[]> {
  const rows = await sql.query<{ bucket: number; n: number | string }>(
    'SELECT least(floor(score * 100), 99)::integer AS bucket, count(*) AS n FROM scoring_users WHERE model_id = $1 GROUP BY 1',
    [modelId],
  )
  const counts = new Array<number>(100).fill(0)
  for (const r of rows) counts[r.bucket] = Number(r.n)
  return counts
}
