import { Hono, type Context } from 'hono'
import {
  createScoringModelSchema,
  excludedAudienceSchema,
  metricDefinitionSchema,
  NO_EXCLUDED_AUDIENCE,
  normaliseSelections,
  ratingQuality,
  ratingsOf,
  rebuildScoringModelSchema,
  saveScoringSettingsSchema,
  SCORING_ERRORS,
  SCORING_PAGE_SIZE,
  SCORING_TEXT,
  scoringCheckSchema,
  scoringPageQuerySchema,
  SCORE_THRESHOLDS,
  toFieldErrors,
  USER_IMAGES,
  type ActivityEvent,
  type ActivityEvents,
  type BacktestPredictions,
  type Correlation,
  type CreatedScoringModel,
  type DateRange,
  type ExcludedAudience,
  type FeatureSelections,
  type ModelOutput,
  type Rating,
  type RatingName,
  type RatingQuality,
  type ScoringCheck,
  type ScoringMetric,
  type ScoringModelDetail,
  type ScoringModelList,
  type ScoringModelQueued,
  type ScoringModelRatings,
  type ScoringModelSummary,
  type ScoringRefresh,
  type ScoringSettings,
  type UserImages,
} from '@fl0/contracts'
import {
  createScoringModel,
  deleteScoringModel,
  findBacktestImage,
  findMetric,
  findScoredUser,
  findScoringModel,
  findScoringResults,
  getFeatureSelections,
  listMetrics,
  listScoredUsers,
  listScoringModels,
  queueScoringRun,
  scoreHistogram,
  updateScoringSettings,
  type MetricRow,
  type ScoringModelRow,
} from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'
import { checkLearnable, exclusionFilters, factorsImage, scoreImage, ScoringFailure, traitTypes, type Factor, type StoredBacktest, type StoredSummary } from '@fl0/workers'

/** A metric can label users when its definition reads and it counts events (chosen ones, or any). */
function isEnabled(metric: MetricRow): boolean {
  const d = metricDefinitionSchema.safeParse(metric.definition)
  return d.success && (d.data.events.length > 0 || d.data.isAnyEvent)
}

const scoringMetric = (m: MetricRow): ScoringMetric => ({ metricId: m.id, name: m.name, isEnabled: isEnabled(m) })
const storedRatings = (r: unknown): Rating[] => (Array.isArray(r) ? (r as Rating[]) : ratingsOf({}))
const selectionsOf = (row: ScoringModelRow): FeatureSelections => normaliseSelections(row.feature_selections as FeatureSelections)
/** A model trained before ratings were judged has none: no users measured, so no verdict. */
const NO_QUALITY: RatingQuality = ratingQuality([])
const verdictOf = (v: string | null): ScoringModelSummary['verdict'] => (v === 'met' || v === 'notMet' || v === 'tooFew' ? v : null)
const excludedOf = (row: ScoringModelRow): ExcludedAudience => {
  const parsed = excludedAudienceSchema.safeParse(row.excluded_audience)
  return parsed.success ? parsed.data : NO_EXCLUDED_AUDIENCE
}

function pageQuery(c: Context<ApiEnv>) {
  const parsed = scoringPageQuerySchema.safeParse({ page: c.req.query('page') ?? undefined, search: c.req.query('search') ?? undefined })
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error)
    throw new ApiError(400, errors[0]!.message, errors)
  }
  return { page: parsed.data.page, search: parsed.data.search.trim() }
}

const png = (c: Context<ApiEnv>, bytes: Uint8Array) =>
  c.body(new Uint8Array(bytes), 200, { 'content-type': 'image/png', 'cache-control': 'private, max-age=60' })

/**
 * /api-v2/orgs/{organization}/scoring (part 3 §7 Scoring): the gallery, the
 * run modal's metrics and its create call, one model's detail, settings,
 * rebuild and delete, and its results (correlation, model output with each
 * user's images, backtest). Every member may do each (part 3 §6 has no roles
 * here). Another organisation's model, or none, is a 404 'Scoring model not
 * found'; a model without results yet, 404 'This scoring model has no results
 * yet' (the screens gate on status first). Training is the runner's
 * (scoring/runner.ts): these calls only queue it.
 */
export function createScoringRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  async function model(c: Context<ApiEnv>): Promise<ScoringModelRow> {
    const row = await findScoringModel(deps.sql, currentOrg(c).id, c.req.param('analysisId')!)
    if (!row) throw notFound(SCORING_ERRORS.notFound)
    return row
  }

  async function results(c: Context<ApiEnv>) {
    const row = await model(c)
    const stored = await findScoringResults(deps.sql, row.org_id, row.id)
    if (!stored) throw notFound(SCORING_ERRORS.noResults)
    return { row, summary: stored.summary as StoredSummary, activity: stored.activity as ActivityEvent[], backtest: stored.backtest as StoredBacktest }
  }

  /** The metric must be the organisation's and able to label users; the excluded audience must read as audience filters. */
  async function checkSettings(orgId: string, body: { metricId: string; excludedAudience: ExcludedAudience }): Promise<MetricRow> {
    const metric = await findMetric(deps.sql, orgId, body.metricId)
    if (!metric) throw fieldError('metricId', SCORING_ERRORS.metricNotFound)
    if (!isEnabled(metric)) throw fieldError('metricId', SCORING_ERRORS.metricNotEnabled)
    if (body.excludedAudience.filters.length) {
      const read = exclusionFilters(body.excludedAudience, await traitTypes(deps.events, orgId))
      if (!read.ok) throw new ApiError(400, read.errors[0]!.message, read.errors)
    }
    return metric
  }

  // ------------------------------------------------------------- gallery

  app.get('/scoring-models', async (c) => {
    const org = currentOrg(c)
    const [rows, metrics] = await Promise.all([listScoringModels(deps.sql, org.id), listMetrics(deps.sql, org.id)])
    const names = new Map(metrics.map((m) => [m.id, m.name]))
    const scoringModels = rows.map((r) => ({
      analysisId: r.id,
      name: r.name,
      status: r.status,
      totalUsers: r.total_users,
      ratings: storedRatings(r.ratings),
      metricName: names.get(r.metric_id) ?? SCORING_TEXT.unknown,
      error: r.error,
      createdAt: r.created_at.toISOString(),
      verdict: verdictOf(r.verdict),
    }))
    return c.json({ scoringModels } satisfies ScoringModelList)
  })

  // Before /scoring-models/:analysisId: 'metrics' is not a model's id.
  app.get('/scoring-models/metrics', async (c) => {
    const metrics = await listMetrics(deps.sql, currentOrg(c).id)
    return c.json(metrics.map(scoringMetric) satisfies ScoringMetric[])
  })

  app.get('/scoring-models/:analysisId', async (c) => {
    const row = await model(c)
    return c.json({ status: row.status, ratings: storedRatings(row.ratings), totalUsers: row.total_users } satisfies ScoringModelRatings)
  })

  app.post('/scoring-models/create-new-model', jsonBody(createScoringModelSchema), async (c) => {
    const org = currentOrg(c)
    const body = c.req.valid('json')
    await checkSettings(org.id, body)
    // The model's selections start as the lexicon's mapping; 'Rebuild model' changes the model's own.
    const featureSelections = await getFeatureSelections(deps.sql, org.id)
    const row = await createScoringModel(deps.sql, {
      orgId: org.id,
      name: body.name,
      metricId: body.metricId,
      dateRange: body.dateRange,
      excludedAudience: body.excludedAudience,
      featureSelections,
      refresh: body.refresh,
    })
    deps.logger.info({ orgId: org.id, modelId: row.id, by: sessionUser(c).id }, 'scoring model created')
    return c.json({ analysisId: row.id } satisfies CreatedScoringModel, 201)
  })

  /**
   * Can a model of this metric and date range learn (the trainer's rule,
   * workers/src/scoring/learnable.ts)? The run dialog asks as its fields
   * change. A new model's selections are the lexicon's mapping, so its
   * excluded events are left out here as the run will leave them out.
   */
  app.post('/scoring-models/check', jsonBody(scoringCheckSchema), async (c) => {
    const org = currentOrg(c)
    const body = c.req.valid('json')
    await checkSettings(org.id, body)
    const { excludedEvents } = await getFeatureSelections(deps.sql, org.id)
    try {
      const check = await checkLearnable(deps, { orgId: org.id, metricId: body.metricId, dateRange: body.dateRange, excludedAudience: body.excludedAudience, now: deps.now(), excludedEvents })
      return c.json(check satisfies ScoringCheck)
    } catch (err) {
      // What the run would fail with before reading any event (a metric whose filters cannot be used): the same words.
      if (err instanceof ScoringFailure) throw fieldError('metricId', err.message)
      throw err
    }
  })

  // ------------------------------------------------------------- one model

  app.get('/scoring-model/:analysisId', async (c) => {
    const row = await model(c)
    const metric = await findMetric(deps.sql, row.org_id, row.metric_id)
    return c.json({
      analysisId: row.id,
      name: row.name,
      metricId: row.metric_id,
      metricName: metric?.name ?? SCORING_TEXT.unknown,
      dateRange: row.date_range as DateRange,
      status: row.status,
      error: row.error,
      featureSelections: selectionsOf(row),
      createdAt: row.created_at.toISOString(),
      trainedAt: row.trained_at ? row.trained_at.toISOString() : null,
      scoredAt: row.scored_at ? row.scored_at.toISOString() : null,
      refresh: row.refresh as ScoringRefresh,
    } satisfies ScoringModelDetail)
  })

  app.delete('/scoring-model/:analysisId', async (c) => {
    const org = currentOrg(c)
    const deleted = await deleteScoringModel(deps.sql, org.id, c.req.param('analysisId'))
    if (!deleted) throw notFound(SCORING_ERRORS.notFound)
    deps.logger.info({ orgId: org.id, modelId: deleted.id, by: sessionUser(c).id }, 'scoring model deleted')
    return c.body(null, 204)
  })

  app.get('/scoring-model/:analysisId/settings', async (c) => {
    const row = await model(c)
    const metrics = await listMetrics(deps.sql, row.org_id)
    const metric = metrics.find((m) => m.id === row.metric_id)
    return c.json({
      name: row.name,
      metric: { metricId: row.metric_id, name: metric?.name ?? SCORING_TEXT.unknown },
      dateRange: row.date_range as DateRange,
      excludedAudience: excludedOf(row),
      refresh: row.refresh as ScoringRefresh,
      metrics: metrics.map(scoringMetric),
    } satisfies ScoringSettings)
  })

  app.post('/scoring-model/:analysisId/settings/saveSettings', jsonBody(saveScoringSettingsSchema), async (c) => {
    const body = c.req.valid('json')
    const row = await model(c)
    await checkSettings(row.org_id, body)
    // What the model learns changed: train it again. A new name alone keeps its results.
    const requeue = body.metricId !== row.metric_id || body.dateRange !== row.date_range || JSON.stringify(body.excludedAudience) !== JSON.stringify(excludedOf(row))
    const saved = await updateScoringSettings(deps.sql, row.org_id, row.id, body, requeue)
    if (!saved) throw notFound(SCORING_ERRORS.notFound)
    return c.json({ analysisId: saved.id, status: saved.status } satisfies ScoringModelQueued)
  })

  app.post('/scoring-model/:analysisId/rebuild-model', jsonBody(rebuildScoringModelSchema), async (c) => {
    const { featureSelections } = c.req.valid('json')
    const org = currentOrg(c)
    const queued = await queueScoringRun(deps.sql, org.id, c.req.param('analysisId'), featureSelections)
    if (!queued) throw notFound(SCORING_ERRORS.notFound)
    deps.logger.info({ orgId: org.id, modelId: queued.id, by: sessionUser(c).id }, 'scoring model rebuild queued')
    return c.json({ analysisId: queued.id, status: queued.status } satisfies ScoringModelQueued)
  })

  // ------------------------------------------------------------- results

  app.get('/scoring-model/:analysisId/correlation', async (c) => {
    const { summary: s } = await results(c)
    return c.json({
      fromTime: s.fromTime,
      toTime: s.toTime,
      trainingDataSize: s.trainingDataSize,
      audienceSize: s.audienceSize,
      totalFactors: s.totalFactors,
      accuracy: s.accuracy,
      ratings: s.ratings,
      heldOutSize: s.heldOutSize,
      auc: s.auc,
      baselineAccuracy: s.baselineAccuracy,
      balancedAccuracy: s.balancedAccuracy,
      positiveRate: s.positiveRate,
      trainedAt: s.trainedAt,
      thresholds: s.thresholds ?? SCORE_THRESHOLDS,
      quality: s.quality ?? NO_QUALITY,
      leaks: s.leaks ?? [],
    } satisfies Correlation)
  })

  app.get('/scoring-model/:analysisId/correlation/activity/events', async (c) => {
    const { page, search } = pageQuery(c)
    const { activity } = await results(c)
    const needle = search.toLowerCase()
    const matching = needle ? activity.filter((e) => e.name.toLowerCase().includes(needle)) : activity
    const from = (page - 1) * SCORING_PAGE_SIZE
    const events = matching.slice(from, from + SCORING_PAGE_SIZE).map((e) => ({ ...e, leak: e.leak ?? null }))
    return c.json({ events, totalEvents: matching.length } satisfies ActivityEvents)
  })

  app.get('/scoring-model/:analysisId/model-output', async (c) => {
    const { page, search } = pageQuery(c)
    const { row } = await results(c)
    const found = await listScoredUsers(deps.sql, row.id, { search, offset: (page - 1) * SCORING_PAGE_SIZE, limit: SCORING_PAGE_SIZE })
    return c.json({
      ratings: storedRatings(row.ratings),
      users: found.users.map((u) => ({ userId: u.user_id, name: u.name, number: u.rank, score: u.score, rating: u.rating as RatingName })),
      totalUsers: found.total,
      images: [...USER_IMAGES],
    } satisfies ModelOutput)
  })

  async function scoredUser(c: Context<ApiEnv>) {
    const { row } = await results(c)
    const user = await findScoredUser(deps.sql, row.id, c.req.param('userId')!)
    if (!user) throw notFound(SCORING_ERRORS.userNotScored)
    return { row, user }
  }

  app.get('/scoring-model/:analysisId/model-output/:userId/images', async (c) => {
    await scoredUser(c)
    return c.json({ images: [...USER_IMAGES] } satisfies UserImages)
  })

  app.get('/scoring-model/:analysisId/model-output/:userId/images/:file', async (c) => {
    const file = c.req.param('file')
    if (!(USER_IMAGES as readonly string[]).includes(file)) throw notFound(SCORING_ERRORS.imageNotFound)
    const { row, user } = await scoredUser(c)
    const rating = user.rating as RatingName
    if (file === 'factors.png') return png(c, factorsImage({ score: user.score, rating, factors: user.factors as Factor[] }))
    return png(c, scoreImage({ score: user.score, rating, histogram: await scoreHistogram(deps.sql, row.id) }))
  })

  app.get('/scoring-model/:analysisId/backtest-image', async (c) => {
    const { row, backtest } = await results(c)
    const image = await findBacktestImage(deps.sql, row.org_id, row.id)
    if (!image) throw new ApiError(404, SCORING_ERRORS.noBacktest, backtest.available ? [] : [{ name: 'backtest', message: backtest.reason }])
    return png(c, image)
  })

  app.get('/scoring-model/:analysisId/backtest-predictions', async (c) => {
    const { backtest } = await results(c)
    if (!backtest.available) throw new ApiError(404, SCORING_ERRORS.noBacktest, [{ name: 'backtest', message: backtest.reason }])
    const { available: _, ...predictions } = backtest
    return c.json({ ...predictions, quality: predictions.quality ?? NO_QUALITY } satisfies BacktestPredictions)
  })

  return app
}
