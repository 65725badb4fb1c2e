import {
  BACKTEST_TOP,
  importanceRating,
  normaliseSelections,
  RATING_SHARES,
  ratingQuality,
  ratingsOf,
  scoreRating,
  type ActivityEvent,
  type ActivityProperty,
  type BacktestPredictions,
  type Correlation,
  type DateRange,
  type FeatureSelections,
  type RatingQuality,
  type RatingThresholds,
} from '@fl0/contracts'
import { type EventStore, type ScoringModelRow, type ScoringResults, type Sql } from '@fl0/stores'
import { eventProperties } from '@fl0/query'
import { backtestImage, type Factor } from './images.ts'
import { findLeaks, type Leak } from './leaks.ts'
import { firstEventDay, learnability, learnCounts, MIN_PER_CLASS, prepare, ScoringFailure } from './learnable.ts'
import { contributions, fitLogisticTuned, predict, type LogisticModel } from './learner/logistic.ts'
import { evaluate } from './learner/metrics.ts'
import { orderByScore } from './learner/order.ts'
import { selectRows, SparseRowsBuilder, type SparseRows } from './learner/sparse.ts'
import { stratifiedSplit } from './learner/split.ts'
import { featureCount, readVocabulary, stageFeatures, type Vocabulary } from './sql/features.ts'
import { reachedSql } from './sql/labels.ts'
import { endOfDay, startOfDay, type ScoringWindows } from './windows.ts'

export { MIN_PER_CLASS, ScoringFailure }

/**
 * One training run: a model's settings in, its results out (or a
 * ScoringFailure saying why not, in words for the model page's error view).
 *
 *  1. The label: the metric's plan (the metric engine's meaning) and who
 *     reached it in the date range (sql/labels.ts).
 *  2. The users and their features, streamed by user from a staging table
 *     (sql/features.ts), the excluded audience left out (excluded-audience.ts).
 *  3. The learner (learner/): trained on 80% of the users active before the
 *     date range, stratified and seeded (SEED), λ tuned inside
 *     that 80%; accuracy and AUC measured on the other 20%.
 *  4. Importance per event, property and value: the learner's standardised
 *     coefficients (contracts' IMPORTANCE_THRESHOLDS rate them).
 *  5. Scores: every user active in the last LOOKBACK days, scored on those
 *     days (windows.ts), ranked, rated, with their top factors.
 *  6. The backtest: the same, one date range earlier, predicting the date
 *     range for users whose outcome the model never saw.
 *
 * Before any of it, the rule of learnable.ts (the run dialog's) on the users
 * before the date range, and the events that would leak the answer
 * (leaks.ts) are left out of the features.
 *
 * `checkpoint` is called between stages and pages: the runner makes it throw
 * when the run has become moot (rebuilt or deleted meanwhile).
 */

/** Lets the event loop run: the api and the ingest share the process (a resolved promise would not). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve))

export interface TrainDeps {
  sql: Sql
  events: EventStore
}

export interface TrainInput {
  model: ScoringModelRow
  now: Date
  checkpoint: () => Promise<void>
}

/** Users held out to measure the model. */
export const HOLD_OUT = 0.2
/** Factors kept per user for their images: the largest pushes each way. */
export const FACTORS_PER_SIDE = 5

/** What a run stores beside the users (the store keeps it as jsonb; routes/scoring.ts reads it). */
export interface StoredSummary extends Omit<Correlation, 'ratings'> {
  ratings: Correlation['ratings']
  lambda: number
  iterations: number
  converged: boolean
  seconds: number
}
export type StoredBacktest = ({ available: true } & BacktestPredictions) | { available: false; reason: string }

/**
 * The model as learned, kept with the results (scoring_models.learned) so a
 * re-score (rescore.ts) can score users on their latest events without
 * training again: its features, weights, cut-offs and what it left out.
 */
export interface LearnedModel {
  vocabulary: Vocabulary
  intercept: number
  weights: number[]
  means: number[]
  stds: number[]
}

/**
 * The split's seed: fixed, so the same users and events give the same
 * held-out users and the same model, run after run (a rebuild with nothing
 * changed changes nothing).
 */
export const SEED = 20_260_302

interface SpanRows {
  X: SparseRows
  /** Row → index into the users read. */
  users: number[]
}

export async function trainModel(deps: TrainDeps, input: TrainInput): Promise<ScoringResults> {
  const started = performance.now()
  const { model, now, checkpoint } = input
  const orgId = model.org_id

  // 1. The label, and whether it can be learned at all (the run dialog's rule).
  const prepared = await prepare(deps, { orgId, metricId: model.metric_id, dateRange: model.date_range as DateRange, excludedAudience: model.excluded_audience, now })
  const { plan, timezone, windows, exclusion } = prepared
  const selections = normaliseSelections(model.feature_selections as FeatureSelections)
  const counts = await learnCounts(deps.events, prepared, selections.excludedEvents, await firstEventDay(deps.events, prepared))
  const rule = (c: typeof counts) => learnability(c, { metricName: prepared.metricName, label: windows.label })
  const before = rule(counts)
  if (!before.learnable) throw new ScoringFailure(before.message)
  await checkpoint()

  // 2. Users and features, without the events that leak the answer.
  const leaks = await findLeaks(deps.events, prepared)
  const query = { orgId, windows, excludedEvents: [...new Set([...selections.excludedEvents, ...leaks.map((l) => l.event)])], includedProperties: selections.includedProperties }
  const vocabulary = await readVocabulary(deps.events, query)
  if (vocabulary.events.length === 0) throw new ScoringFailure(`No user did any event other than the metric's own between ${windows.backtestTrain.from} and ${windows.label.to}: a model needs other events to learn from`)
  await checkpoint()

  const staging = await stageFeatures(deps.events, {
    ...query,
    vocabulary,
    table: `scoring_stage_${model.id.replace(/[^A-Za-z0-9]/g, '_')}_${model.generation}`,
    reached: (p) => reachedSql(p, plan, orgId, windows.label),
    reachedBefore: (p) => reachedSql(p, plan, orgId, windows.backtestLabel),
    reachedIn: (p, span) => reachedSql(p, plan, orgId, span),
    exclusion,
  })
  const d = featureCount(vocabulary)
  const builders = [new SparseRowsBuilder(d), new SparseRowsBuilder(d), new SparseRowsBuilder(d)]
  const spanUsers: number[][] = [[], [], []]
  const persons: string[] = []
  const names: string[] = []
  const reached: boolean[] = []
  const reachedBefore: boolean[] = []
  try {
    for await (const page of staging.pages()) {
      for (const row of page) {
        const u = persons.length
        persons.push(row.person)
        names.push(row.name)
        reached.push(row.reached)
        reachedBefore.push(row.reachedBefore)
        row.features.forEach((f, s) => {
          // Who had reached the metric within the span is not predicted from it: the model predicts who reaches it anew.
          if (f.indices.length === 0 || row.had[s]) return
          builders[s]!.add(f.indices, f.counts.map(Math.log1p))
          spanUsers[s]!.push(u)
        })
      }
      await breathe()
      await checkpoint()
    }
  } finally {
    await staging.drop()
  }
  const [backtestTrain, train, score] = builders.map((b, s): SpanRows => ({ X: b.build(), users: spanUsers[s]! })) as [SpanRows, SpanRows, SpanRows]

  // 3. Learn, and measure on held-out users.
  const y = Uint8Array.from(train.users, (u) => (reached[u] ? 1 : 0))
  const positives = y.reduce((a, b) => a + b, 0)
  // The same rule on the users the features hold (companions and the vocabulary's cap can leave out a few more).
  const staged = rule({ ...counts, usersBefore: train.users.length, reached: positives })
  if (!staged.learnable) throw new ScoringFailure(staged.message)
  const seed = SEED
  const split = stratifiedSplit(y, HOLD_OUT, seed)
  const yTrain = Uint8Array.from(split.train, (i) => y[i]!)
  const learnt = await fitLogisticTuned(selectRows(train.X, split.train), yTrain, { seed: seed + 1 })
  await checkpoint()
  const baseRate = yTrain.reduce((a, b) => a + b, 0) / yTrain.length
  const heldOutScores = await predict(learnt, selectRows(train.X, split.test))
  const heldOutLabels = Uint8Array.from(split.test, (i) => y[i]!)
  const heldOut = evaluate(heldOutScores, heldOutLabels, baseRate, await orderByScore(heldOutScores, 'asc'))
  // Ratings are ranks among the users rated, as Model output rates everyone scored: judged so on those held out.
  const quality = qualityOf(heldOutScores, heldOutLabels, rankThresholds(heldOutScores))

  // 4. Importance.
  const activity = await activityOf(deps.events, orgId, vocabulary, learnt, selections, leaks)
  const inModel = activity.filter((e) => e.inModel)
  const eventRatings = ratingsOf(countBy(inModel.map((e) => e.rating)))

  // 5. Scores, rated by rank among the users scored.
  const scores = await predict(learnt, score.X)
  const rated = rankThresholds(scores)
  // Ties by row, which is by user id: users are read in id order.
  const order = await orderByScore(scores)
  // Each user's row is made as the store writes it: hundreds of thousands of users are never held as objects.
  function* scoredUsers() {
    for (let rank = 0; rank < order.length; rank++) {
      const r = order[rank]!
      const s = scores[r]!
      yield { rank: rank + 1, userId: persons[score.users[r]!]!, name: names[score.users[r]!]!, score: s, rating: scoreRating(s, rated), factors: factorsOf(learnt, vocabulary, score.X, r) }
    }
  }
  const userRatings = ratingsOf(countBy(Array.from(scores, (s) => scoreRating(s, rated))))
  await checkpoint()

  // 6. Backtest.
  const backtest = await runBacktest({ backtestTrain, train, reached, reachedBefore, persons, windows, seed, now, checkpoint })

  const trainedAt = now
  const summary: StoredSummary = {
    fromTime: startOfDay(windows.label.from, timezone),
    toTime: endOfDay(windows.label.to, timezone, now),
    trainingDataSize: split.train.length,
    audienceSize: order.length,
    totalFactors: d,
    accuracy: heldOut.accuracy,
    ratings: eventRatings,
    heldOutSize: split.test.length,
    auc: heldOut.auc,
    baselineAccuracy: heldOut.baselineAccuracy,
    balancedAccuracy: heldOut.balancedAccuracy,
    positiveRate: positives / train.users.length,
    trainedAt: trainedAt.toISOString(),
    thresholds: rated,
    quality,
    leaks,
    lambda: learnt.lambda,
    iterations: learnt.iterations,
    converged: learnt.converged,
    seconds: Math.round(performance.now() - started) / 1000,
  }
  return {
    trainedAt,
    totalUsers: order.length,
    ratings: userRatings,
    summary,
    activity,
    backtest: backtest.stored,
    backtestImage: backtest.image,
    learned: learnedOf(vocabulary, learnt),
    users: scoredUsers(),
  }
}

export function learnedOf(vocabulary: Vocabulary, model: LogisticModel): LearnedModel {
  return { vocabulary, intercept: model.intercept, weights: Array.from(model.weights), means: Array.from(model.means), stds: Array.from(model.stds) }
}

/** A score above any: the cut-off of a rating no one gets (JSON has no Infinity). */
const ABOVE_ANY = 2

/**
 * The ratings' cut-offs by rank (contracts' RATING_SHARES): the lowest score
 * such that at most that share of `scores` is at or above it. Users tied at
 * the edge fall below, so a rating never holds more than its share.
 */
export function rankThresholds(scores: ArrayLike<number>): RatingThresholds {
  const sorted = Float64Array.from(scores).sort().reverse()
  const n = sorted.length
  const cut = (share: number) => {
    const k = Math.floor(share * n)
    if (k >= n) return 0
    let i = k - 1
    while (i >= 0 && sorted[i] === sorted[k]) i--
    return i < 0 ? ABOVE_ANY : sorted[i]!
  }
  const excellent = cut(RATING_SHARES.excellent)
  const good = cut(RATING_SHARES.excellent + RATING_SHARES.good)
  const fair = cut(RATING_SHARES.excellent + RATING_SHARES.good + RATING_SHARES.fair)
  return { excellent, good, fair }
}

/** The ratings of scored users whose outcome is known, against the bar. */
export function qualityOf(scores: ArrayLike<number>, labels: ArrayLike<number>, thresholds: RatingThresholds): RatingQuality {
  return ratingQuality(Array.from(scores, (s, i) => ({ rating: scoreRating(s, thresholds), reached: labels[i] === 1 })))
}

function countBy<T extends string>(items: T[]): Partial<Record<T, number>> {
  const out: Partial<Record<T, number>> = {}
  for (const i of items) out[i] = (out[i] ?? 0) + 1
  return out
}

const round = (x: number) => Math.round(x * 10_000) / 10_000

export function featureName(v: Vocabulary, j: number): string {
  if (j < v.events.length) return v.events[j]!
  const x = v.values[j - v.events.length]!
  return `${x.event} · ${x.property}: ${x.value}`
}

/** A user's largest pushes each way, with how often they did each thing. */
export function factorsOf(model: LogisticModel, v: Vocabulary, X: SparseRows, r: number): Factor[] {
  const terms = contributions(model, X, r)
  const counts = new Map<number, number>()
  for (let k = X.indptr[r]!; k < X.indptr[r + 1]!; k++) counts.set(X.indices[k]!, Math.round(Math.expm1(X.values[k]!)))
  const ranked = Array.from(terms.keys()).filter((j) => Math.abs(terms[j]!) > 1e-6)
  const pick = (sign: 1 | -1) =>
    ranked
      .filter((j) => Math.sign(terms[j]!) === sign)
      .sort((a, b) => sign * (terms[b]! - terms[a]!))
      .slice(0, FACTORS_PER_SIDE)
  return [...pick(1), ...pick(-1)].map((j) => ({ name: featureName(v, j), contribution: round(terms[j]!), count: counts.get(j) ?? 0 }))
}

/**
 * The Correlation table's rows: every event of the model with its importance,
 * its selected properties with their values' importances, its other
 * properties (from the lexicon) not in the model; then the excluded events.
 * Most important first; number is the place in that order.
 */
async function activityOf(events: EventStore, orgId: string, v: Vocabulary, model: LogisticModel, selections: FeatureSelections, leaks: Leak[]): Promise<ActivityEvent[]> {
  const leaked = leaks.filter((l) => !selections.excludedEvents.includes(l.event))
  const known = await eventProperties(events, { orgId, events: [...v.events, ...selections.excludedEvents, ...leaked.map((l) => l.event)] })
  const rows: Array<Omit<ActivityEvent, 'number'>> = []
  v.events.forEach((name, j) => {
    const importance = round(model.weights[j]!)
    const included = selections.includedProperties.filter((p) => p.event === name)
    const properties: ActivityProperty[] = included.map((p) => {
      const values = v.values
        .map((x, k) => ({ x, k }))
        .filter(({ x }) => x.event === name && x.property === p.property)
        .map(({ x, k }) => {
          const w = round(model.weights[v.events.length + k]!)
          return { name: x.value, importance: w, rating: importanceRating(w) }
        })
        .sort((a, b) => b.importance - a.importance)
      const top = values.length ? Math.max(...values.map((x) => x.importance)) : 0
      return { name: p.property, importance: top, rating: importanceRating(top), inModel: true, values }
    })
    for (const p of known.get(name) ?? []) {
      if (!included.some((i) => i.property === p.name)) properties.push({ name: p.name, importance: 0, rating: 'poor', inModel: false, values: [] })
    }
    rows.push({ name, importance, rating: importanceRating(importance), inModel: true, properties, leak: null })
  })
  rows.sort((a, b) => b.importance - a.importance || a.name.localeCompare(b.name))
  const left = (name: string, leak: ActivityEvent['leak']): Omit<ActivityEvent, 'number'> => ({
    name,
    importance: 0,
    rating: 'poor',
    inModel: false,
    properties: (known.get(name) ?? []).map((p) => ({ name: p.name, importance: 0, rating: 'poor', inModel: false, values: [] })),
    leak,
  })
  // The leaks first among those left out: the reader should see why the metric's own event is not on top.
  for (const l of leaked) rows.push(left(l.event, l.leak))
  for (const name of selections.excludedEvents) rows.push(left(name, leaks.find((l) => l.event === name)?.leak ?? null))
  return rows.map((r, i) => ({ ...r, number: i + 1 }))
}

async function runBacktest(input: {
  backtestTrain: SpanRows
  train: SpanRows
  reached: boolean[]
  reachedBefore: boolean[]
  persons: string[]
  windows: ScoringWindows
  seed: number
  now: Date
  checkpoint: () => Promise<void>
}): Promise<{ stored: StoredBacktest; image: Uint8Array | null }> {
  const { windows: w } = input
  const y = Uint8Array.from(input.backtestTrain.users, (u) => (input.reachedBefore[u] ? 1 : 0))
  const positives = y.reduce((a, b) => a + b, 0)
  if (positives < MIN_PER_CLASS || y.length - positives < MIN_PER_CLASS) {
    return {
      stored: {
        available: false,
        reason: `A backtest learns from ${w.backtestTrain.from} to ${w.backtestTrain.to} who reached the metric between ${w.backtestLabel.from} and ${w.backtestLabel.to}: ${positives} of ${y.length} users active then did`,
      },
      image: null,
    }
  }
  const model = await fitLogisticTuned(input.backtestTrain.X, y, { seed: input.seed + 2 })
  await input.checkpoint()
  const actual = Uint8Array.from(input.train.users, (u) => (input.reached[u] ? 1 : 0))
  const scores = await predict(model, input.train.X)
  const ascending = await orderByScore(scores, 'asc')
  const e = evaluate(scores, actual, positives / y.length, ascending)
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, users: 0, meanScore: 0, reached: 0 }))
  scores.forEach((s, r) => {
    const b = buckets[Math.min(9, Math.floor(s * 10))]!
    b.users++
    b.meanScore += s
    b.reached += actual[r]!
  })
  for (const b of buckets) b.meanScore = b.users ? round(b.meanScore / b.users) : 0
  const top = Array.from((await orderByScore(scores)).subarray(0, BACKTEST_TOP))
    .map((r) => ({ userId: input.persons[input.train.users[r]!]!, score: round(scores[r]!), predicted: scores[r]! >= 0.5, reached: actual[r] === 1 }))
  const predictions: BacktestPredictions = {
    trainedOn: { fromTime: startOfDay(w.backtestTrain.from, w.label.timezone), toTime: endOfDay(w.backtestLabel.to, w.label.timezone, input.now) },
    predicted: { fromTime: startOfDay(w.label.from, w.label.timezone), toTime: endOfDay(w.label.to, w.label.timezone, input.now) },
    users: scores.length,
    accuracy: e.accuracy,
    baselineAccuracy: e.baselineAccuracy,
    auc: e.auc,
    positiveRate: scores.length ? e.positives / scores.length : 0,
    buckets,
    predictions: top,
    // Rated by rank among the users it predicts, as Model output rates the users scored.
    quality: qualityOf(scores, actual, rankThresholds(scores)),
  }
  const image = backtestImage({ buckets, auc: e.auc, accuracy: e.accuracy, baselineAccuracy: e.baselineAccuracy, users: scores.length, period: `${w.label.from} to ${w.label.to}` })
  return { stored: { available: true, ...predictions }, image: new Uint8Array(image) }
}
