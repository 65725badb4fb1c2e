import { ratingsOf, scoreRating, type DateRange, type RatingName } from '@fl0/contracts'
import { completeRescore, type EventStore, type RescoreClaim, type Sql } from '@fl0/stores'
import { prepare } from './learnable.ts'
import type { LogisticModel } from './learner/logistic.ts'
import { predict } from './learner/logistic.ts'
import { orderByScore } from './learner/order.ts'
import { SparseRowsBuilder } from './learner/sparse.ts'
import { SPANS, stageFeatures } from './sql/features.ts'
import { reachedSql } from './sql/labels.ts'
import { factorsOf, rankThresholds, type LearnedModel } from './train.ts'

/**
 * A re-score: a completed model scores every user on their latest events
 * (the LOOKBACK days up to now) with the model it learned, without training
 * again, so that users active since the run (a visitor who signed up
 * yesterday) get a rating and everyone a fresh score. Its features are the
 * learned vocabulary, read as training reads them (sql/features.ts); its
 * ratings the learned cut-offs; the excluded audience is read again, as of
 * now. What the Correlation and Backtest tabs show stays the run's.
 *
 * The runner (runner.ts) re-scores when no training waits, each model as
 * often as its refresh setting says (daily by default). A re-score made moot
 * (the model rebuilt, its settings changed or deleted meanwhile) writes nothing.
 */
const NOBODY = "SELECT '' AS person WHERE 0"
const SCORE = SPANS.indexOf('score')

export interface RescoreOutcome {
  users: number
  ratings: Record<RatingName, number>
  written: boolean
}

export async function rescoreModel(deps: { sql: Sql; events: EventStore }, claim: RescoreClaim, now: Date, checkpoint: () => Promise<void>): Promise<RescoreOutcome> {
  const { row } = claim
  const learned = claim.learned as LearnedModel
  const orgId = row.org_id
  // The metric (who has reached it already is not scored), the periods as of now, the excluded audience as of now.
  const { plan, windows, exclusion } = await prepare(deps, { orgId, metricId: row.metric_id, dateRange: row.date_range as DateRange, excludedAudience: row.excluded_audience, now })
  const { vocabulary } = learned
  const staging = await stageFeatures(deps.events, {
    orgId,
    windows,
    excludedEvents: [],
    includedProperties: [],
    vocabulary,
    table: `scoring_rescore_${row.id.replace(/[^A-Za-z0-9]/g, '_')}_${-claim.tag}`,
    reached: () => NOBODY,
    reachedBefore: () => NOBODY,
    // Only the scoring span's users are read here: who had reached the metric in the others is not asked.
    reachedIn: (p, span) => (span === windows.score ? reachedSql(p, plan, orgId, span) : NOBODY),
    exclusion,
  })
  const d = learned.weights.length
  const builder = new SparseRowsBuilder(d)
  const persons: string[] = []
  const names: string[] = []
  try {
    for await (const page of staging.pages()) {
      for (const user of page) {
        const f = user.features[SCORE]!
        if (f.indices.length === 0 || user.had[SCORE]) continue
        builder.add(f.indices, f.counts.map(Math.log1p))
        persons.push(user.person)
        names.push(user.name)
      }
      await checkpoint()
    }
  } finally {
    await staging.drop()
  }
  const X = builder.build()
  const model: LogisticModel = {
    intercept: learned.intercept,
    weights: Float64Array.from(learned.weights),
    means: Float64Array.from(learned.means),
    stds: Float64Array.from(learned.stds),
    lambda: 0,
    iterations: 0,
    converged: true,
  }
  const scores = await predict(model, X)
  const rated = rankThresholds(scores)
  const order = await orderByScore(scores)
  const counts: Record<RatingName, number> = { poor: 0, fair: 0, good: 0, excellent: 0 }
  for (const s of scores) counts[scoreRating(s, rated)]++
  await checkpoint()
  function* users() {
    for (let rank = 0; rank < order.length; rank++) {
      const r = order[rank]!
      const s = scores[r]!
      yield { rank: rank + 1, userId: persons[r]!, name: names[r]!, score: s, rating: scoreRating(s, rated), factors: factorsOf(model, vocabulary, X, r) }
    }
  }
  const written = await completeRescore(deps.sql, claim, { scoredAt: now, totalUsers: order.length, ratings: ratingsOf(counts), users: users() })
  return { users: order.length, ratings: counts, written }
}
