import { z } from 'zod'
import { DATE_RANGES, TRAIT_OPERATIONS, type DateRange } from './metrics.ts'
import { featureSelectionsSchema, PROPERTY_PATH_MAX, type FeatureSelections } from './lexicon.ts'

/**
 * AI scoring (spec part 3 §2–§9): models that predict which users will reach
 * a chosen metric. The specification's texts are here word for word; what it
 * leaves open (page sizes, the rating thresholds, the messages of malformed
 * input, not found) is decided here once, for the server and the dashboard
 * alike. How a model is built is workers/src/scoring/README.md.
 */

export const SCORING_LIMITS = {
  /** Part 3 §5: at most 50 characters. */
  name: 50,
  /** Excluded-audience filters a model keeps: far more than the modal shows. */
  filters: 50,
  /** A typed filter value. */
  value: 1000,
  search: 200,
} as const

/** Correlation and model output are paged (part 3 §9 leaves the size open): the product's usual 20. Pages start at 1. */
export const SCORING_PAGE_SIZE = 20

export const SCORING_ERRORS = {
  nameRequired: 'Analysis name must be provided',
  nameTooLong: 'Analysis name must have at most 50 characters',
  metricRequired: 'Metric must be given',
  /** A metric id the organisation does not have (another's, a deleted one). */
  metricNotFound: 'Metric not found',
  /** A metric that cannot say who reached it (no events chosen). */
  metricNotEnabled: 'This metric cannot be used for scoring: it counts no events',
  dateRange: `Date range must be one of ${DATE_RANGES.join(', ')}`,
  excludedAudience: 'Excluded audience must have filters, aggregate and audienceType',
  audienceType: 'Audience type must be user or company',
  aggregate: 'Aggregate must be and or or',
  operation: 'Operation is not one of the audience operators',
  trait: `Trait must have at most ${PROPERTY_PATH_MAX} characters`,
  value: `Value must have at most ${SCORING_LIMITS.value} characters`,
  tooManyFilters: `At most ${SCORING_LIMITS.filters} filters can be used`,
  page: 'Page must be a whole number from 1',
  search: `Search must have at most ${SCORING_LIMITS.search} characters`,
  notFound: 'Scoring model not found',
  /** A results call on a model that has none yet (pending, running, or failed before its first completion). */
  noResults: 'This scoring model has no results yet',
  imageNotFound: 'Image not found',
  /** The backtest needs a date range of history before the one modelled, with users who reached the metric in it. */
  noBacktest: 'This scoring model has no backtest',
  userNotScored: 'This user has no score in this model',
  /** Part 3 §8: 'Rebuild model' failed. */
  rebuildFailed: 'An error has occurred',
} as const

/** The screens' texts (part 3 §2, §8). */
export const SCORING_TEXT = {
  gallery: 'AI Scoring Models',
  newModel: 'New model',
  empty: 'No scoring models found',
  runTitle: 'Run new scoring model',
  fields: { name: 'Name', metric: 'Metric', dateRange: 'Date range', excludedAudience: 'Excluded audience', modelName: 'Model name' },
  delete: 'Delete',
  deleteConfirm: (name: string) => `Are you sure you want to delete the scoring model "${name}"?`,
  deleted: 'Scoring model has been deleted',
  rebuild: 'Rebuild model',
  rebuilding: 'Rebuilding model...',
  rebuildError: 'An error has occurred',
  tabs: { correlation: 'Correlation', modelOutput: 'Model output', settings: 'Settings', backtest: 'Backtest predictions' },
  summary: { dateRange: 'Date range', trainingDataSize: 'Training data size', audienceSize: 'Audience size', totalFactors: 'Total factors', accuracy: 'Accuracy' },
  modes: { fit: 'Fit', activity: 'Activity' },
  columns: { inModel: 'In model', eventName: 'Event name', importance: 'Importance' },
  unknown: 'Unknown',
  noUsers: 'No users found',
  noEvents: 'No events found',
} as const

export const SCORING_STATUSES = ['pending', 'running', 'failed', 'completed'] as const
export type ScoringStatus = (typeof SCORING_STATUSES)[number]

/** Part 3 §3: the four ratings, worst first, and the colour each is shown in. */
export const RATINGS = ['poor', 'fair', 'good', 'excellent'] as const
export type RatingName = (typeof RATINGS)[number]
export const RATING_COLORS: Record<RatingName, 'red' | 'orange' | 'purple' | 'green'> = { poor: 'red', fair: 'orange', good: 'purple', excellent: 'green' }

/**
 * A user's score is the model's probability that they reach the metric in the
 * next period as long as the date range, 0 to 1. Its rating is the quarter it
 * falls in: poor below 0.25, fair from 0.25, good from 0.5, excellent from
 * 0.75. Fixed quarters of a probability, not ranks, so "excellent" always
 * means "three chances in four or better", whatever the organisation's base
 * rate: a rare outcome leaves most users poor, which is the truth of it.
 */
export const SCORE_THRESHOLDS: Record<Exclude<RatingName, 'poor'>, number> = { fair: 0.25, good: 0.5, excellent: 0.75 }

/**
 * A factor's importance is its standardised coefficient in the model (the
 * change in the log-odds of reaching the metric for one standard deviation
 * more of log1p(count)); positive pushes towards the metric. Its rating reads
 * the odds ratio e^importance per standard deviation: excellent from 0.5
 * (odds ×1.65 or more), good from 0.25 (×1.28), fair from 0.1 (×1.1), poor
 * below, which takes in factors that push away from the metric and those the
 * model left out.
 */
export const IMPORTANCE_THRESHOLDS: Record<Exclude<RatingName, 'poor'>, number> = { fair: 0.1, good: 0.25, excellent: 0.5 }

function rate(value: number, thresholds: Record<Exclude<RatingName, 'poor'>, number>): RatingName {
  if (value >= thresholds.excellent) return 'excellent'
  if (value >= thresholds.good) return 'good'
  if (value >= thresholds.fair) return 'fair'
  return 'poor'
}
export const scoreRating = (score: number): RatingName => rate(score, SCORE_THRESHOLDS)
export const importanceRating = (importance: number): RatingName => rate(importance, IMPORTANCE_THRESHOLDS)

/** A rating's share (part 3 §3): count of users (or factors) and their percentage of all, 0 to 100. */
export interface Rating {
  name: RatingName
  percentage: number
  count: number
}

/** Every rating in order with its count; percentages of the whole, rounded to one decimal. */
export function ratingsOf(counts: Partial<Record<RatingName, number>>): Rating[] {
  const total = RATINGS.reduce((n, r) => n + (counts[r] ?? 0), 0)
  return RATINGS.map((name) => {
    const count = counts[name] ?? 0
    return { name, count, percentage: total === 0 ? 0 : Math.round((count / total) * 1000) / 10 }
  })
}

// ---------------------------------------------------------------- requests

/**
 * One excluded-audience filter (part 3 §3): a trait of the audience type's
 * entity, one of the audience operators, and a value as typed. A range
 * (between, not_between) takes "a,b" or [a, b]; a relative date (last …)
 * takes "7" (days) or "7 week". Part 3 §5: only filters with trait,
 * operation and value are sent; the server drops any other as unfinished
 * (is_set and its kind take a value too, which they ignore).
 */
export const excludedAudienceFilterSchema = z.object({
  trait: z.string().max(PROPERTY_PATH_MAX, SCORING_ERRORS.trait).default(''),
  operation: z
    .string({ error: SCORING_ERRORS.operation })
    .refine((op) => op === '' || (TRAIT_OPERATIONS as readonly string[]).includes(op), SCORING_ERRORS.operation)
    .transform((op) => op as (typeof TRAIT_OPERATIONS)[number] | '')
    .default(''),
  value: z
    .union([z.string().max(SCORING_LIMITS.value, SCORING_ERRORS.value), z.number(), z.boolean(), z.array(z.union([z.string().max(SCORING_LIMITS.value, SCORING_ERRORS.value), z.number()])).max(2)])
    .nullish(),
})
export type ExcludedAudienceFilter = z.output<typeof excludedAudienceFilterSchema>

const isFinished = (f: ExcludedAudienceFilter) =>
  f.trait.trim() !== '' && f.operation !== '' && f.value !== undefined && f.value !== null && (typeof f.value !== 'string' || f.value.trim() !== '')

export const excludedAudienceSchema = z
  .object(
    {
      filters: z.array(excludedAudienceFilterSchema).max(SCORING_LIMITS.filters, SCORING_ERRORS.tooManyFilters).default([]),
      aggregate: z.enum(['and', 'or'], { error: SCORING_ERRORS.aggregate }).default('and'),
      audienceType: z.enum(['user', 'company'], { error: SCORING_ERRORS.audienceType }).default('user'),
    },
    { error: SCORING_ERRORS.excludedAudience },
  )
  .transform((a) => ({ ...a, filters: a.filters.filter(isFinished) }))
export type ExcludedAudience = z.output<typeof excludedAudienceSchema>
export const NO_EXCLUDED_AUDIENCE: ExcludedAudience = { filters: [], aggregate: 'and', audienceType: 'user' }

export const scoringNameSchema = z
  .string({ error: SCORING_ERRORS.nameRequired })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, SCORING_ERRORS.nameRequired)
  .refine((s) => s.length <= SCORING_LIMITS.name, SCORING_ERRORS.nameTooLong)

const metricIdSchema = z
  .string({ error: SCORING_ERRORS.metricRequired })
  .trim()
  .min(1, SCORING_ERRORS.metricRequired)
  .max(100, SCORING_ERRORS.metricNotFound)

/**
 * POST …/scoring/scoring-models/create-new-model (part 3 §7), and the body of
 * …/settings/saveSettings. The date range is the label window: a user counts
 * as reaching the metric when its definition holds for them in it. It
 * defaults to the last 30 days; an excluded audience left out excludes no one.
 */
export const createScoringModelSchema = z.object({
  name: scoringNameSchema,
  metricId: metricIdSchema,
  dateRange: z.enum(DATE_RANGES, { error: SCORING_ERRORS.dateRange }).default('last30Days'),
  excludedAudience: excludedAudienceSchema.default(NO_EXCLUDED_AUDIENCE),
})
export type CreateScoringModel = z.input<typeof createScoringModelSchema>
export const saveScoringSettingsSchema = createScoringModelSchema
export type SaveScoringSettings = z.input<typeof saveScoringSettingsSchema>

/** POST …/scoring-model/{analysisId}/rebuild-model: the model's new selections (part 3 §4), sent only by 'Rebuild model'. */
export const rebuildScoringModelSchema = z.object({ featureSelections: featureSelectionsSchema })
export type RebuildScoringModel = z.input<typeof rebuildScoringModelSchema>

/** ?page&search of the paged calls. */
export const scoringPageQuerySchema = z.object({
  page: z.coerce.number({ error: SCORING_ERRORS.page }).int(SCORING_ERRORS.page).min(1, SCORING_ERRORS.page).max(1_000_000, SCORING_ERRORS.page).default(1),
  search: z.string().max(SCORING_LIMITS.search, SCORING_ERRORS.search).default(''),
})

// ---------------------------------------------------------------- responses

/** A card of the gallery (part 3 §3 Scoring model summary). totalUsers and ratings are the scored users; empty until completed. */
export interface ScoringModelSummary {
  analysisId: string
  name: string
  status: ScoringStatus
  totalUsers: number
  ratings: Rating[]
  metricName: string
  /** Why the last run failed, in words; null otherwise. */
  error: string | null
  createdAt: string
}
/** GET …/scoring/scoring-models, newest first. */
export interface ScoringModelList {
  scoringModels: ScoringModelSummary[]
}

/** GET …/scoring/scoring-models/{analysisId}: the donut's numbers. */
export interface ScoringModelRatings {
  status: ScoringStatus
  ratings: Rating[]
  totalUsers: number
}

/** A metric the run modal offers (GET …/scoring-models/metrics answers a list of them). isEnabled: it chooses events, so it can label users. */
export interface ScoringMetric {
  metricId: string
  name: string
  isEnabled: boolean
}

/** POST …/create-new-model: 201 with the new model's id; it is pending and trains in the background. */
export interface CreatedScoringModel {
  analysisId: string
}

/**
 * GET …/scoring-model/{analysisId} (part 3 §3 Scoring model detail). metricName
 * is 'Unknown' once the metric is deleted. featureSelections are the model's
 * own: copied from the lexicon's mapping when it was created, changed by
 * 'Rebuild model' only.
 */
export interface ScoringModelDetail {
  analysisId: string
  name: string
  metricId: string
  metricName: string
  dateRange: DateRange
  status: ScoringStatus
  error: string | null
  featureSelections: FeatureSelections
  createdAt: string
  /** When the results shown were trained; null before the first completion. */
  trainedAt: string | null
}

/** GET …/settings (part 3 §3 Scoring settings). metric.name is 'Unknown' once it is deleted. */
export interface ScoringSettings {
  name: string
  metric: { metricId: string; name: string }
  dateRange: DateRange
  excludedAudience: ExcludedAudience
  metrics: ScoringMetric[]
}

/** POST …/rebuild-model and …/settings/saveSettings: the model's status after the call (pending when a new run was queued). */
export interface ScoringModelQueued {
  analysisId: string
  status: ScoringStatus
}

/**
 * GET …/correlation (part 3 §3 Correlation). fromTime and toTime bound the
 * label window (ISO 8601); trainingDataSize is the users the model learned
 * from (held-out users not counted), audienceSize the users it scored,
 * totalFactors the features it weighed, accuracy its accuracy on held-out
 * users (0 to 1). ratings count the events by their importance rating. The
 * rest is for those who want to judge the model: AUC on held-out users,
 * the accuracy of always answering the majority class on them, balanced
 * accuracy (the mean of the hit rates of both classes), the base rate.
 */
export interface Correlation {
  fromTime: string
  toTime: string
  trainingDataSize: number
  audienceSize: number
  totalFactors: number
  accuracy: number
  ratings: Rating[]
  heldOutSize: number
  auc: number
  baselineAccuracy: number
  balancedAccuracy: number
  positiveRate: number
  trainedAt: string
}

/** A value of an included property, with its importance (see IMPORTANCE_THRESHOLDS). */
export interface ActivityValue {
  name: string
  rating: RatingName
  importance: number
}
/** A property of an event: included ones carry their values; inModel false for those the model does not use. */
export interface ActivityProperty {
  name: string
  rating: RatingName
  importance: number
  inModel: boolean
  values: ActivityValue[]
}
/**
 * An event of the Correlation table (part 3 §3 Activity events). number is its
 * place by importance over all events (1 = most important); inModel is false
 * for an excluded event, which then has importance 0 and no properties' values.
 */
export interface ActivityEvent {
  name: string
  number: number
  rating: RatingName
  importance: number
  inModel: boolean
  properties: ActivityProperty[]
}
/** GET …/correlation/activity/events?search&page: a page of SCORING_PAGE_SIZE, most important first; totalEvents matches the search. */
export interface ActivityEvents {
  events: ActivityEvent[]
  totalEvents: number
}

/** A user of Model output (part 3 §3): number is their rank by score (1 = highest), score 0 to 1. */
export interface ScoredUser {
  userId: string
  name: string
  number: number
  score: number
  rating: RatingName
}
/**
 * GET …/model-output?search&page: ratings of every scored user, a page of
 * SCORING_PAGE_SIZE users by rank, totalUsers matching the search, and the
 * names of the images each user has (…/model-output/{userId}/images/{file}).
 */
export interface ModelOutput {
  ratings: Rating[]
  users: ScoredUser[]
  totalUsers: number
  images: string[]
}

/** GET …/model-output/{userId}/images: the user's image file names. */
export interface UserImages {
  images: string[]
}

/** The images every scored user has: the factors for and against their score, and where it sits among everyone's. */
export const USER_IMAGES = ['factors.png', 'score.png'] as const

/**
 * GET …/backtest-predictions: a model trained on the period before (features
 * before trainedTo's window, labels in it) predicting the date range; how
 * its predictions fared, by tenth of score, and the highest-scored users.
 */
export interface BacktestPredictions {
  trainedOn: { fromTime: string; toTime: string }
  predicted: { fromTime: string; toTime: string }
  users: number
  accuracy: number
  baselineAccuracy: number
  auc: number
  positiveRate: number
  /** Users by tenth of predicted score (0–0.1 … 0.9–1): how many, the mean score, and how many really reached the metric. */
  buckets: Array<{ from: number; to: number; users: number; meanScore: number; reached: number }>
  /** The highest-scored users (at most BACKTEST_TOP), with what happened. */
  predictions: Array<{ userId: string; score: number; predicted: boolean; reached: boolean }>
}
export const BACKTEST_TOP = 1000
