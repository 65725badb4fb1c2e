import { describe, expect, it } from 'vitest'
import { toFieldErrors } from './errors.ts'
import { FEATURE_REPORT_QUERIES, featureQuerySchema, REPORT_TEXT, saveReportSchema } from './reports.ts'

const errorsOf = (value: unknown) => {
  const r = saveReportSchema.safeParse(value)
  return r.success ? [] : toFieldErrors(r.error)
}

describe('the report save body', () => {
  it('trims name and description, keeps metric ids in order, each once; a new report has no report_id', () => {
    expect(saveReportSchema.parse({ name: '  Growth ', description: ' Weekly ', metric_ids: ['m2', 'm1', 'm2'] })).toEqual({
      name: 'Growth',
      description: 'Weekly',
      metric_ids: ['m2', 'm1'],
    })
    expect(saveReportSchema.parse({ report_id: 'r1', name: 'Growth', description: null })).toEqual({ report_id: 'r1', name: 'Growth', description: '' })
  })

  it.each([
    [{}, 'name', 'Report name must be given'],
    [{ name: '   ' }, 'name', 'Report name must be given'],
    [{ name: 5 }, 'name', 'Report name must be given'],
    [{ name: 'x'.repeat(51) }, 'name', 'Report name must have at most 50 characters'],
    [{ name: 'R', description: 'x'.repeat(501) }, 'description', 'Report description must have at most 500 characters'],
    [{ name: 'R', metric_ids: 'm1' }, 'metric_ids', 'Metrics must be a list of metric ids'],
    [{ name: 'R', metric_ids: Array.from({ length: 51 }, (_, i) => `m${i}`) }, 'metric_ids', 'A report can have at most 50 metrics'],
  ])('refuses %j: %s %s', (body, name, message) => {
    expect(errorsOf(body)).toEqual([{ name, message }])
  })

  it('accepts the input caps exactly: a name of 50 and a description of 500 characters', () => {
    expect(errorsOf({ name: 'x'.repeat(50), description: 'y'.repeat(500) })).toEqual([])
  })
})

describe('the feature query', () => {
  it('defaults to unique users over the last 7 days as one number', () => {
    expect(featureQuerySchema.parse({})).toEqual({ audienceType: 'user', measureBy: 'unique', dateRange: 'last7Days', occurring: 'daily', graphType: 'metric' })
  })

  it('refuses what the report never sends', () => {
    for (const body of [{ dateRange: 'last3Months' }, { measureBy: 'conversionRate' }, { graphType: 'funnel' }, { occurring: 'weekly' }, { audienceType: 'team' }]) {
      expect(featureQuerySchema.safeParse(body).success).toBe(false)
    }
  })

  it('the Feature Analysis report asks ten different questions, each one the schema accepts', () => {
    expect(FEATURE_REPORT_QUERIES).toHaveLength(10)
    expect(new Set(FEATURE_REPORT_QUERIES.map((q) => JSON.stringify(q.query))).size).toBe(10)
    for (const q of FEATURE_REPORT_QUERIES) expect(featureQuerySchema.parse(q.query)).toEqual({ audienceType: 'user', ...q.query })
  })

  it("says '{n} metric(s)' as the list shows it", () => {
    expect(REPORT_TEXT.metricCount(3)).toBe('3 metric(s)')
  })
})
