import { describe, expect, it } from 'vitest'
import { toFieldErrors } from './errors.ts'
import { createScoringModelSchema, importanceRating, ratingQuality, ratingQualityText, ratingsOf, rebuildScoringModelSchema, SCORING_ERRORS, scoreRating, scoringPageQuerySchema, type RatingName } from './scoring.ts'

const errorsOf = (body: unknown) => {
  const parsed = createScoringModelSchema.safeParse(body)
  return parsed.success ? [] : toFieldErrors(parsed.error)
}

describe('scoring contract', () => {
  it("says the run modal's messages word for word (part 3 §5)", () => {
    expect(errorsOf({ metricId: 'm' })).toEqual([{ name: 'name', message: 'Analysis name must be provided' }])
    expect(errorsOf({ name: '   ', metricId: 'm' })).toEqual([{ name: 'name', message: 'Analysis name must be provided' }])
    expect(errorsOf({ name: 'x'.repeat(51), metricId: 'm' })).toEqual([{ name: 'name', message: 'Analysis name must have at most 50 characters' }])
    expect(errorsOf({ name: 'x'.repeat(50), metricId: 'm' })).toEqual([])
    expect(errorsOf({ name: 'Upgrades' })).toEqual([{ name: 'metricId', message: 'Metric must be given' }])
    expect(errorsOf({ name: 'Upgrades', metricId: ' ' })).toEqual([{ name: 'metricId', message: 'Metric must be given' }])
  })

  it('keeps only finished excluded-audience filters, with defaults for the rest', () => {
    const parsed = createScoringModelSchema.parse({
      name: ' Upgrades ',
      metricId: 'm1',
      excludedAudience: {
        filters: [
          { trait: 'email', operation: 'contains', value: '@acme.com' },
          { trait: 'plan', operation: '', value: 'pro' },
          { trait: '', operation: 'is', value: 'x' },
          { trait: 'age', operation: 'greater_than', value: '' },
          { trait: 'seats', operation: 'between', value: ['1', '5'] },
        ],
        aggregate: 'or',
        audienceType: 'user',
      },
    })
    expect(parsed).toEqual({
      name: 'Upgrades',
      metricId: 'm1',
      dateRange: 'last30Days',
      excludedAudience: {
        filters: [
          { trait: 'email', operation: 'contains', value: '@acme.com' },
          { trait: 'seats', operation: 'between', value: ['1', '5'] },
        ],
        aggregate: 'or',
        audienceType: 'user',
      },
      refresh: 'daily',
    })
    expect(errorsOf({ name: 'a', metricId: 'm', excludedAudience: { filters: [{ trait: 'a', operation: 'nope', value: '1' }] } })[0]!.message).toBe(SCORING_ERRORS.operation)
  })

  it('rates scores and importances at the documented thresholds', () => {
    expect([0, 0.2499, 0.25, 0.4999, 0.5, 0.7499, 0.75, 1].map((x) => scoreRating(x))).toEqual(['poor', 'poor', 'fair', 'fair', 'good', 'good', 'excellent', 'excellent'])
    expect([-2, 0, 0.0999, 0.1, 0.2499, 0.25, 0.4999, 0.5, 3].map(importanceRating)).toEqual(['poor', 'poor', 'poor', 'fair', 'fair', 'good', 'good', 'excellent', 'excellent'])
  })

  it('counts every rating, in order, with percentages of the whole', () => {
    expect(ratingsOf({ poor: 1, excellent: 2 })).toEqual([
      { name: 'poor', count: 1, percentage: 33.3 },
      { name: 'fair', count: 0, percentage: 0 },
      { name: 'good', count: 0, percentage: 0 },
      { name: 'excellent', count: 2, percentage: 66.7 },
    ])
    expect(ratingsOf({}).map((r) => r.percentage)).toEqual([0, 0, 0, 0])
  })

  it('normalises rebuilt selections and reads pages', () => {
    expect(rebuildScoringModelSchema.parse({ featureSelections: { excludedEvents: ['A', 'A'], includedProperties: [{ event: 'A', property: 'p' }, { event: 'B', property: 'q' }] } })).toEqual({
      featureSelections: { excludedEvents: ['A'], includedProperties: [{ event: 'B', property: 'q' }] },
    })
    expect(scoringPageQuerySchema.parse({})).toEqual({ page: 1, search: '' })
    expect(scoringPageQuerySchema.safeParse({ page: '0' }).success).toBe(false)
  })
})

describe('ratings judged against the bar', () => {
  const users = (rating: RatingName, n: number, reached: number) => Array.from({ length: n }, (_, i) => ({ rating, reached: i < reached }))

  it('meets the bar when the top ratings are few, hold most who reached the metric, and excellent beats poor tenfold', () => {
    const q = ratingQuality([...users('excellent', 10, 8), ...users('good', 20, 6), ...users('fair', 30, 3), ...users('poor', 40, 2)])
    expect(q).toMatchObject({ users: 100, reached: 19, topShare: 0.3, verdict: 'met' })
    expect(q.capture).toBeCloseTo(14 / 19)
    expect(q.excellentVsPoor).toBeCloseTo(0.8 / 0.05)
    expect(q.ratings.find((r) => r.name === 'excellent')!.lift).toBeCloseTo(0.8 / 0.19)
    expect(ratingQualityText(q, 'held-out users')).toBe(
      'These ratings meet the bar of a good lead-scoring model: excellent and good are 30% of held-out users (at most 35%), hold 73.7% of those who reached the metric (at least 60%), and excellent users reached it 16× as often as poor ones (at least 10×).',
    )
  })

  it('falls short, saying so plainly, when any of the three fails', () => {
    const flat = ratingQuality([...users('excellent', 10, 2), ...users('good', 20, 4), ...users('fair', 30, 6), ...users('poor', 40, 8)])
    expect(flat.verdict).toBe('notMet')
    expect(ratingQualityText(flat, 'held-out users')).toMatch(/^These ratings fall short of the bar of a good lead-scoring model: .* Read them as a rough ranking, not as a verdict on each user\.$/)
    // Too many on top.
    expect(ratingQuality([...users('excellent', 20, 18), ...users('good', 20, 1), ...users('poor', 60, 1)]).verdict).toBe('notMet')
  })

  it('gives no verdict on too few who reached the metric', () => {
    const q = ratingQuality([...users('excellent', 10, 3), ...users('poor', 90, 2)])
    expect(q.verdict).toBe('tooFew')
    expect(ratingQualityText(q, 'held-out users')).toBe(
      'Only 5 of the 100 held-out users reached the metric: too few to tell whether the ratings are good. Treat them as a rough ranking; a longer date range or more users give a verdict.',
    )
  })
})
