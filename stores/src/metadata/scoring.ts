import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/**
 * Scoring models (migration 0012): a model is also its training job. The
 * store keeps what the api and the runner hand it, as they hand it (the
 * excluded audience and selections as the api normalised them; results as
 * the trainer made them): workers/src/scoring reads and decides.
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
  /** How often the users are re-scored: daily, weekly or off (migration 0018). */
  refresh: string
  /** When the users shown were scored; null before the first completion. */
  scored_at: Date | null
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
  queued_at, trained_at, total_users, ratings, created_at, refresh, scored_at`

export interface ScoringModelInput {
  name: string
  metricId: string
  dateRange: string
  excludedAudience: unknown
  featureSelections: unknown
  /** daily unless given. */
  refresh?: string
}

/** A new model, pending: the runner takes it from there. */
export async function createScoringModel(sql: Sql, input: ScoringModelInput & { orgId: string; id?: string }): Promise<ScoringModelRow> {
  const [row] = await sql.query<ScoringModelRow>(
    `INSERT INTO scoring_models (id, org_id, name, metric_id, date_range, excluded_audience, feature_selections, refresh)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8) RETURNING ${COLUMNS}`,
    [input.id ?? newId(), input.orgId, input.name, input.metricId, input.dateRange, JSON.stringify(input.excludedAudience), JSON.stringify(input.featureSelections), input.refresh ?? 'daily'],
  )
  return row!
}

/**
 * The organisation's models, newest first (scoring_models_org_created), each
 * with its ratings' verdict on held-out users (the stored summary's, null
 * before the first completion or for a model trained before verdicts).
 */
export async function listScoringModels(sql: Sql, orgId: string): Promise<Array<ScoringModelRow & { verdict: string | null }>> {
  return sql.query<ScoringModelRow & { verdict: string | null }>(
    `SELECT ${COLUMNS}, summary -> 'quality' ->> 'verdict' AS verdict FROM scoring_models WHERE org_id = $1 ORDER BY created_at DESC, id`,
    [orgId],
  )
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
    `UPDATE scoring_models SET name = $3, metric_id = $4, date_range = $5, excluded_audience = $6::jsonb, refresh = coalesce($7, refresh), updated_at = now()${requeue ? `, ${REQUEUE}` : ''}
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, input.name, input.metricId, input.dateRange, JSON.stringify(input.excludedAudience), input.refresh ?? null],
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

export interface ScoredUserInput {
  rank: number
  userId: string
  name: string
  score: number
  rating: string
  factors: unknown
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
  /** The model as learned, for re-scoring (migration 0018); the store keeps it as given. */
  learned: unknown
  /**
   * The scored users, in rank order. Any iterable: a trainer can make each
   * row as it is written rather than hold hundreds of thousands at once.
   */
  users: Iterable<ScoredUserInput>
}

/**
 * Users written per statement: bounded parameters and memory, whatever the
 * model's size; small enough that PGlite, which runs on the event loop and
 * serialises every query, holds it for tens of milliseconds at a time.
 */
const USER_BATCH = 250
/** Rows of past runs deleted per statement, for the same reason. */
const DELETE_BATCH = 5000

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

const isCurrent = async (sql: Sql, id: string, generation: number) =>
  (await sql.query('SELECT id FROM scoring_models WHERE id = $1 AND generation = $2 AND status = $3', [id, generation, 'running'])).length > 0

/**
 * Completes the run with its results; false (and nothing shown) when the run
 * is moot. The users go in first, in small statements outside a transaction,
 * tagged with the run's generation, so other queries get their turn between
 * them; one short transaction then makes them the live results with the
 * rest; the users of earlier runs are deleted after, also a slice at a time.
 * Until the switch the previous results stay as they were.
 */
export async function completeScoringRun(sql: Sql, id: string, generation: number, results: ScoringResults): Promise<boolean> {
  const current = () => isCurrent(sql, id, generation)
  if (!(await current())) return false
  if (!(await writeUsers(sql, id, generation, results.users, current))) return false
  const switched = await sql.transaction(async (tx) => {
    const current = await tx.query('SELECT id FROM scoring_models WHERE id = $1 AND generation = $2 AND status = $3 FOR UPDATE', [id, generation, 'running'])
    if (current.length === 0) return false
    await tx.query(
      `UPDATE scoring_models SET status = 'completed', error = NULL, heartbeat_at = NULL, trained_at = $3, scored_at = $3, results_generation = $2, total_users = $4, ratings = $5::jsonb,
         summary = $6::jsonb, activity = $7::jsonb, backtest = $8::jsonb, backtest_image = $9, learned = $10::jsonb, rescore_claimed_at = NULL, updated_at = now()
       WHERE id = $1`,
      [
        id,
        generation,
        results.trainedAt,
        results.totalUsers,
        JSON.stringify(results.ratings),
        JSON.stringify(results.summary),
        JSON.stringify(results.activity),
        JSON.stringify(results.backtest),
        results.backtestImage ?? null,
        results.learned === undefined || results.learned === null ? null : JSON.stringify(results.learned),
      ],
    )
    return true
  })
  await deletePastUsers(sql, id)
  return switched
}

/**
 * Writes a run's (or a re-score's) users tagged `tag`, in small statements
 * outside any transaction, checking every 20 that the work is still wanted
 * (`current`); false, with what was written deleted, when it is not.
 */
async function writeUsers(sql: Sql, id: string, tag: number, users: Iterable<ScoredUserInput>, current: () => Promise<boolean>): Promise<boolean> {
  // Leftovers of an attempt of this same run that died half way.
  await sql.query('DELETE FROM scoring_users WHERE model_id = $1 AND generation = $2', [id, tag])
  let batch: ScoredUserInput[] = []
  let batches = 0
  const flush = async (): Promise<boolean> => {
    if (batches > 0 && batches % 20 === 0 && !(await current())) {
      await deletePastUsers(sql, id)
      return false
    }
    try {
      await insertUsers(sql, id, tag, batch)
    } catch (err) {
      // The model deleted meanwhile (its users' foreign key): moot, not an error.
      if (!(await current())) return false
      throw err
    }
    batch = []
    batches++
    await yieldToLoop()
    return true
  }
  for (const user of users) {
    batch.push(user)
    if (batch.length === USER_BATCH && !(await flush())) return false
  }
  if (batch.length > 0 && !(await flush())) return false
  return true
}

/** A completed model due a re-score, claimed by one runner. */
export interface RescoreClaim {
  row: ScoringModelRow
  learned: unknown
  /** The live users' tag when claimed: a re-score replaces them only if they still are. */
  resultsGeneration: number
  /** The re-score's own tag (−(rescores + 1)). */
  tag: number
}

const REFRESH_DUE = `CASE refresh WHEN 'daily' THEN interval '1 day' WHEN 'weekly' THEN interval '7 days' END`

/**
 * Claims the completed model whose users were scored longest ago, if its
 * refresh (daily, weekly) says they are due by `now`; a claim older than
 * `staleAfterMs` (its runner died) is taken again. A model with no learned
 * model (trained before migration 0018) is not re-scored.
 */
export async function claimRescore(sql: Sql, options: { now: Date; staleAfterMs: number }): Promise<RescoreClaim | undefined> {
  const [row] = await sql.query<ScoringModelRow & { learned: unknown; results_generation: number; rescores: number }>(
    `UPDATE scoring_models SET rescore_claimed_at = $1
     WHERE id = (
       SELECT id FROM scoring_models
       WHERE status = 'completed' AND learned IS NOT NULL AND refresh <> 'off' AND scored_at <= $1::timestamptz - ${REFRESH_DUE}
         AND (rescore_claimed_at IS NULL OR rescore_claimed_at < $1::timestamptz - make_interval(secs => $2::double precision / 1000))
       ORDER BY scored_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING ${COLUMNS}, learned, results_generation, rescores`,
    [options.now, options.staleAfterMs],
  )
  if (!row) return undefined
  const { learned, results_generation, rescores, ...rest } = row
  return { row: rest, learned, resultsGeneration: results_generation, tag: -(rescores + 1) }
}

/** Holds a re-score off until `until` (its metric gone, its audience unreadable): no runner claims it before, plus the stale limit. */
export async function postponeRescore(sql: Sql, id: string, until: Date): Promise<void> {
  await sql.query('UPDATE scoring_models SET rescore_claimed_at = $2 WHERE id = $1', [id, until])
}

export interface RescoreResults {
  scoredAt: Date
  totalUsers: number
  ratings: unknown
  users: Iterable<ScoredUserInput>
}

/**
 * Makes a re-score's users the live ones, as completeScoringRun does a run's;
 * false (and nothing changed) when the model was rebuilt, changed, retrained
 * or deleted meanwhile.
 */
export async function completeRescore(sql: Sql, claim: RescoreClaim, results: RescoreResults): Promise<boolean> {
  const id = claim.row.id
  const still = `id = $1 AND generation = $2 AND status = 'completed' AND results_generation = $3`
  const params = [id, claim.row.generation, claim.resultsGeneration]
  const current = async () => (await sql.query(`SELECT id FROM scoring_models WHERE ${still}`, params)).length > 0
  if (!(await writeUsers(sql, id, claim.tag, results.users, current))) return false
  const switched = await sql.transaction(async (tx) => {
    const rows = await tx.query(`SELECT id FROM scoring_models WHERE ${still} FOR UPDATE`, params)
    if (rows.length === 0) return false
    await tx.query(
      `UPDATE scoring_models SET results_generation = $2, rescores = rescores + 1, scored_at = $3, total_users = $4, ratings = $5::jsonb, rescore_claimed_at = NULL, updated_at = now() WHERE id = $1`,
      [id, claim.tag, results.scoredAt, results.totalUsers, JSON.stringify(results.ratings)],
    )
    return true
  })
  await deletePastUsers(sql, id)
  return switched
}

async function insertUsers(sql: Sql, id: string, generation: number, batch: ScoredUserInput[]): Promise<void> {
  await sql.query(
    `INSERT INTO scoring_users (model_id, generation, rank, user_id, name, score, rating, factors)
     SELECT $1, $2, u.rank, u.user_id, u.name, u.score, u.rating, u.factors::jsonb
     FROM unnest($3::integer[], $4::text[], $5::text[], $6::double precision[], $7::text[], $8::text[]) AS u(rank, user_id, name, score, rating, factors)`,
    [
      id,
      generation,
      batch.map((u) => u.rank),
      batch.map((u) => u.userId),
      batch.map((u) => u.name),
      batch.map((u) => u.score),
      batch.map((u) => u.rating),
      batch.map((u) => JSON.stringify(u.factors)),
    ],
  )
}

/** Deletes the users of every run but the live one, a slice at a time. */
async function deletePastUsers(sql: Sql, id: string): Promise<void> {
  for (;;) {
    const gone = await sql.query(
      `DELETE FROM scoring_users WHERE ctid IN (
         SELECT u.ctid FROM scoring_users u JOIN scoring_models m ON m.id = u.model_id
         WHERE u.model_id = $1 AND u.generation IS DISTINCT FROM m.results_generation LIMIT $2
       ) RETURNING 1`,
      [id, DELETE_BATCH],
    )
    if (gone.length < DELETE_BATCH) return
    await yieldToLoop()
  }
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

/** The generation whose users are the model's results ($1: the model's id). */
const LIVE = '(SELECT results_generation FROM scoring_models WHERE id = $1)'

/**
 * A page of a model's scored users in rank order; `search` matches the user id
 * or the name, ignoring case. total counts every match.
 */
export async function listScoredUsers(sql: Sql, modelId: string, q: { search: string; offset: number; limit: number }): Promise<{ users: ScoredUserRow[]; total: number }> {
  const pattern = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const live = `model_id = $1 AND generation = ${LIVE}`
  const where = q.search ? `${live} AND (lower(user_id) LIKE $2 OR lower(name) LIKE $2)` : `${live} AND $2::text IS NOT NULL`
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
  const [row] = await sql.query<ScoredUserRow>(`SELECT rank, user_id, name, score, rating, factors FROM scoring_users WHERE model_id = $1 AND generation = ${LIVE} AND user_id = $2`, [modelId, userId])
  return row
}

/** Every score of a model, for the per-user image that places one among all: a histogram's counts by hundredth. */
export async function scoreHistogram(sql: Sql, modelId: string): Promise<number[]> {
  const rows = await sql.query<{ bucket: number; n: number | string }>(
    `SELECT least(floor(score * 100), 99)::integer AS bucket, count(*) AS n FROM scoring_users WHERE model_id = $1 AND generation = ${LIVE} GROUP BY 1`,
    [modelId],
  )
  const counts = new Array<number>(100).fill(0)
  for (const r of rows) counts[r.bucket] = Number(r.n)
  return counts
}
