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
  refresh: `Refresh must be one of ${['daily', 'weekly', 'off'].join(', ')}`,
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
  fields: { name: 'Name', metric: 'Metric', dateRange: 'Date range', excludedAudience: 'Excluded audience', modelName: 'Model name', refresh: 'Refresh ratings' },
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

/**
 * How often a completed model re-scores its users on their latest events,
 * with the model it learned (no retraining): new users get a rating, everyone
 * a fresh score. Set in the model's Settings tab; daily unless changed.
 */
export const SCORING_REFRESH = ['daily', 'weekly', 'off'] as const
export type ScoringRefresh = (typeof SCORING_REFRESH)[number]
export const SCORING_REFRESH_LABELS: Record<ScoringRefresh, string> = { daily: 'Every day', weekly: 'Every week', off: 'Only when the model is rebuilt' }
export const SCORING_REFRESH_MS: Record<Exclude<ScoringRefresh, 'off'>, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 }

/** Part 3 §3: the four ratings, worst first, and the colour each is shown in. */
export const RATINGS = ['poor', 'fair', 'good', 'excellent'] as const
export type RatingName = (typeof RATINGS)[number]
export const RATING_COLORS: Record<RatingName, 'red' | 'orange' | 'purple' | 'green'> = { poor: 'red', fair: 'orange', good: 'purple', excellent: 'green' }

/**
 * A user's score is the model's probability that they reach the metric in the
 * next period as long as the date range, 0 to 1. Its rating is its rank among
 * the users scored: the top RATING_SHARES.excellent of them are excellent,
 * the next RATING_SHARES.good good, the next fair, the rest poor (the
 * cut-offs in scores are Correlation.thresholds). They are judged the same
 * way: held-out users (and the backtest's) rated by rank among themselves. Ranks, because a probability's quarters say nothing when the
 * outcome is rare (most users under 25 % are all "poor", whatever the model
 * knows); whether the ranks mean anything is measured on users the model never
 * saw against RATING_BAR, and the screens say so when they do not.
 *
 * Users tied at a cut-off take the lower rating, so a rating never holds more
 * than its share of the users it was drawn on.
 */
export const RATING_SHARES: Record<Exclude<RatingName, 'poor'>, number> = { excellent: 0.1, good: 0.2, fair: 0.3 }
export interface RatingThresholds {
  fair: number
  good: number
  excellent: number
}
/** Fixed quarters of a probability: the cut-offs of models trained before ranks (a stored summary without thresholds). */
export const SCORE_THRESHOLDS: RatingThresholds = { fair: 0.25, good: 0.5, excellent: 0.75 }

/**
 * The bar lead-scoring vendors hold a model's ratings to (MadKudu's published
 * rule), on users it never saw: excellent and good together cover at most
 * topShare of the users, hold at least capture of those who reached the
 * metric, and excellent users reach it at least excellentVsPoor times as
 * often as poor ones. Judged only when at least minReached of the users it is
 * measured on reached the metric: fewer say nothing either way.
 */
export const RATING_BAR = { topShare: 0.35, capture: 0.6, excellentVsPoor: 10, minReached: 10 } as const

/** One rating's users where the outcome is known: how many, their share, how many reached the metric, their rate, and its lift over the average rate. */
export interface RatingLift {
  name: RatingName
  users: number
  share: number
  reached: number
  rate: number
  /** rate / the average rate of all users measured; 0 when no one reached the metric. */
  lift: number
}

/**
 * How a model's ratings fared on users whose outcome it never saw (held-out
 * users, or the backtest's), against RATING_BAR. excellentVsPoor is null when
 * no poor user reached the metric (excellent then beats poor by any factor) or
 * no user is rated excellent or poor.
 */
export interface RatingQuality {
  users: number
  reached: number
  averageRate: number
  ratings: RatingLift[]
  topShare: number
  capture: number
  excellentVsPoor: number | null
  verdict: 'met' | 'notMet' | 'tooFew'
}

/** The ratings' numbers on users with known outcomes, and the verdict against RATING_BAR. */
export function ratingQuality(rated: Array<{ rating: RatingName; reached: boolean }>): RatingQuality {
  const users = rated.length
  const reached = rated.filter((r) => r.reached).length
  const averageRate = users ? reached / users : 0
  const ratings = RATINGS.map((name): RatingLift => {
    const of = rated.filter((r) => r.rating === name)
    const hits = of.filter((r) => r.reached).length
    const rate = of.length ? hits / of.length : 0
    return { name, users: of.length, share: users ? of.length / users : 0, reached: hits, rate, lift: averageRate ? rate / averageRate : 0 }
  })
  const by = (n: RatingName) => ratings.find((r) => r.name === n)!
  const top = [by('excellent'), by('good')]
  const topShare = users ? (top[0]!.users + top[1]!.users) / users : 0
  const capture = reached ? (top[0]!.reached + top[1]!.reached) / reached : 0
  const excellent = by('excellent')
  const poor = by('poor')
  const excellentVsPoor = excellent.users > 0 && poor.users > 0 && poor.rate > 0 ? excellent.rate / poor.rate : null
  const ratioMet = excellent.users > 0 && excellent.rate > 0 && (poor.users === 0 || poor.rate === 0 || excellent.rate / poor.rate >= RATING_BAR.excellentVsPoor)
  const verdict = reached < RATING_BAR.minReached ? 'tooFew' : topShare <= RATING_BAR.topShare && capture >= RATING_BAR.capture && ratioMet ? 'met' : 'notMet'
  return { users, reached, averageRate, ratings, topShare, capture, excellentVsPoor, verdict }
}

const percent = (x: number) => `${(x * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
const times = (x: number) => `${x.toLocaleString('en-US', { maximumFractionDigits: x < 10 ? 1 : 0 })}×`

/** The verdict in a sentence or two, for the screens and the bench alike. `on` names the users measured ("held-out users"). */
export function ratingQualityText(q: RatingQuality, on: string): string {
  if (q.verdict === 'tooFew') {
    return `Only ${q.reached.toLocaleString('en-US')} of the ${q.users.toLocaleString('en-US')} ${on} reached the metric: too few to tell whether the ratings are good. Treat them as a rough ranking; a longer date range or more users give a verdict.`
  }
  const ratio =
    q.excellentVsPoor === null
      ? q.ratings[3]!.rate > 0
        ? 'no poor user reached it'
        : 'no excellent user reached it'
      : `excellent users reached it ${times(q.excellentVsPoor)} as often as poor ones (at least ${RATING_BAR.excellentVsPoor}×)`
  const facts = `excellent and good are ${percent(q.topShare)} of ${on} (at most ${percent(RATING_BAR.topShare)}), hold ${percent(q.capture)} of those who reached the metric (at least ${percent(RATING_BAR.capture)}), and ${ratio}`
  return q.verdict === 'met'
    ? `These ratings meet the bar of a good lead-scoring model: ${facts}.`
    : `These ratings fall short of the bar of a good lead-scoring model: ${facts}. Read them as a rough ranking, not as a verdict on each user.`
}

/** One-line explanations beside the summary's figures. */
export const SCORING_EXPLAIN = {
  accuracy: 'Share of held-out users the model labels right, counting a score of 50% or more as "will reach the metric".',
  baselineAccuracy: 'What always answering the commoner outcome would score: accuracy means something only above it.',
  auc: 'Chance that a user who reached the metric scores higher than one who did not: 50% is guessing, 100% perfect.',
  lift: 'How many times the average rate users of each rating reached the metric, on held-out users.',
} as const

/**
 * A factor's importance is its standardised coefficient in the model (the
 * change in the log-odds of reaching the metric for one standard deviation
 * more of log1p(count)); positive pushes towards the metric. Its rating reads
 * the odds ratio e^importance per standard deviation: excellent from 0.5
 * (odds ×1.65 or more), good from 0.25 (×1.28), fair from 0.1 (×1.1), poor
 * below, which takes in factors that push away from the metric and those the
 * model left out.
 */
export const IMPORTANCE_THRESHOLDS: RatingThresholds = { fair: 0.1, good: 0.25, excellent: 0.5 }

function rate(value: number, thresholds: RatingThresholds): RatingName {
  if (value >= thresholds.excellent) return 'excellent'
  if (value >= thresholds.good) return 'good'
  if (value >= thresholds.fair) return 'fair'
  return 'poor'
}
/** A score's rating under a model's cut-offs (SCORE_THRESHOLDS for a model trained before ranks). */
export const scoreRating = (score: number, thresholds: RatingThresholds = SCORE_THRESHOLDS): RatingName => rate(score, thresholds)
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
  refresh: z.enum(SCORING_REFRESH, { error: SCORING_ERRORS.refresh }).default('daily'),
})
export type CreateScoringModel = z.input<typeof createScoringModelSchema>
/** …/settings/saveSettings: the same, but a body without refresh keeps the model's. */
export const saveScoringSettingsSchema = createScoringModelSchema.extend({ refresh: z.enum(SCORING_REFRESH, { error: SCORING_ERRORS.refresh }).optional() })

/**
 * POST …/scoring/scoring-models/check: can a model of this metric and date
 * range learn anything (ScoringCheck)? The run dialog asks before a run.
 */
export const scoringCheckSchema = z.object({
  metricId: metricIdSchema,
  dateRange: z.enum(DATE_RANGES, { error: SCORING_ERRORS.dateRange }).default('last30Days'),
  excludedAudience: excludedAudienceSchema.default(NO_EXCLUDED_AUDIENCE),
})
export type ScoringCheckRequest = z.input<typeof scoringCheckSchema>
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
  /** How the ratings shown fared against RATING_BAR on held-out users; null before the first completion. */
  verdict: RatingQuality['verdict'] | null
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
  /** When the users shown were last scored (trained, or re-scored since); null before the first completion. */
  scoredAt: string | null
  refresh: ScoringRefresh
}

/** GET …/settings (part 3 §3 Scoring settings). metric.name is 'Unknown' once it is deleted. */
export interface ScoringSettings {
  name: string
  metric: { metricId: string; name: string }
  dateRange: DateRange
  excludedAudience: ExcludedAudience
  refresh: ScoringRefresh
  metrics: ScoringMetric[]
}

/**
 * POST …/scoring-models/check: whether a model of the metric and date range
 * can learn, by the rule the trainer applies (learnability in
 * workers/src/scoring/learnable.ts): usersBefore did an event of the model
 * before the date range (from–to), reached of them reached the metric in it,
 * reachedNew more reached it who were not active before (a model cannot
 * learn from them). message says in a sentence what to change when not
 * learnable, and what the run learns from when it is. ranges: the same for
 * every date range offered, so the dialog can point at one that works.
 */
export interface ScoringCheck {
  learnable: boolean
  message: string
  dateRange: DateRange
  from: string
  to: string
  usersBefore: number
  /** Active before the date range but had reached the metric then: a model predicts who reaches it anew, so they are left out. */
  alreadyReached: number
  reached: number
  reachedNew: number
  /** The first day with events of the organisation (YYYY-MM-DD), null with none. */
  firstDay: string | null
  ranges: Array<{ dateRange: DateRange; learnable: boolean; usersBefore: number; reached: number }>
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
  /** The model's rating cut-offs (RATING_SHARES of its training users' scores). */
  thresholds: RatingThresholds
  /** The ratings on held-out users: lift per rating and the verdict against RATING_BAR. */
  quality: RatingQuality
  /** Events left out of the features because they are the metric, or come only with it (ActivityEvent.leak). */
  leaks: Array<{ event: string; leak: LeakKind }>
}

/**
 * Why an event is left out of a model's features: it is one of the metric's
 * own events ('metric'), or in the data it happens only to users who have
 * reached the metric, at the same time or after ('companion'): either would
 * tell the model the answer, not predict it.
 */
export type LeakKind = 'metric' | 'companion'
export const LEAK_TEXT: Record<LeakKind, string> = {
  metric: 'Left out: an event of the metric itself',
  companion: 'Left out: happens only together with the metric',
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
  /** Left out of the features as a leak of the answer; null for every other event. */
  leak: LeakKind | null
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
  /** The backtest model's ratings (its own cut-offs) against what happened. */
  quality: RatingQuality
}
export const BACKTEST_TOP = 1000
