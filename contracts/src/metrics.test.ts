import { describe, expect, it } from 'vitest'
import { applyMetricRules, BETWEEN_MESSAGE, isEmptyMetric, METRIC_DEFAULTS, metricDefinitionSchema, metricType, saveMetricSchema, type MetricDefinition } from './metrics.ts'

const def = (over: Partial<MetricDefinition>): MetricDefinition => ({ ...METRIC_DEFAULTS, ...over })
const signup = { name: 'Signed Up' }
const upgrade = { name: 'Plan Upgraded' }

describe('the metric defaults (part 2 §3)', () => {
  it('are user, unique, any, daily, and, last 30 days, line, stacked', () => {
    expect(METRIC_DEFAULTS).toMatchObject({
      audienceType: 'user',
      measureBy: 'unique',
      operation: 'any',
      occurring: 'daily',
      audience: { traits: [], aggregate: 'and' },
      dateRange: 'last30Days',
      graphType: 'line',
      graphLayout: 'stacked',
    })
    expect(saveMetricSchema.parse({ name: 'x', definition: {} }).category).toBe('other')
  })
})

describe('the seven editor rules (part 2 §4)', () => {
  it('1: total with no events and not any event becomes unique', () => {
    expect(applyMetricRules(def({ measureBy: 'total' }), 'measureBy').measureBy).toBe('unique')
    expect(applyMetricRules(def({ measureBy: 'total', isAnyEvent: true }), 'measureBy').measureBy).toBe('total')
  })
  it('2: conversionRate only with ordered; otherwise unique', () => {
    expect(applyMetricRules(def({ measureBy: 'conversionRate', events: [signup] }), 'measureBy').measureBy).toBe('unique')
    expect(applyMetricRules(def({ measureBy: 'conversionRate', events: [signup, upgrade], operation: 'ordered' }), 'measureBy').measureBy).toBe('conversionRate')
  })
  it('2 and 3: total meeting ordered, the field the user just set stands', () => {
    const both = def({ measureBy: 'total', operation: 'ordered', events: [signup, upgrade] })
    expect(applyMetricRules(both, 'operation')).toMatchObject({ operation: 'ordered', measureBy: 'unique' })
    expect(applyMetricRules(both, 'measureBy')).toMatchObject({ operation: 'any', measureBy: 'total' })
    expect(applyMetricRules(both)).toMatchObject({ operation: 'ordered', measureBy: 'unique' })
  })
  it('1 wins over 2: a total of nothing becomes unique, and the event-less ordered becomes any (5)', () => {
    expect(applyMetricRules(def({ measureBy: 'total', operation: 'ordered' }), 'measureBy')).toMatchObject({ measureBy: 'unique', operation: 'any' })
  })
  it('4: all with no events becomes any', () => {
    expect(applyMetricRules(def({ operation: 'all' }), 'operation').operation).toBe('any')
    expect(applyMetricRules(def({ operation: 'all', isAnyEvent: true }), 'operation').operation).toBe('all')
  })
  it('5: ordered with no events becomes any, even with any event on', () => {
    expect(applyMetricRules(def({ operation: 'ordered', isAnyEvent: true }), 'operation').operation).toBe('any')
  })
  it('6: funnel only with ordered; otherwise line', () => {
    expect(applyMetricRules(def({ graphType: 'funnel', events: [signup] }), 'graphType').graphType).toBe('line')
    expect(applyMetricRules(def({ graphType: 'funnel', events: [signup, upgrade], operation: 'ordered' }), 'graphType').graphType).toBe('funnel')
  })
  it('6 after 5: removing the last event of a funnel leaves a line', () => {
    expect(applyMetricRules(def({ graphType: 'funnel', operation: 'ordered', events: [] }), 'events')).toMatchObject({ operation: 'any', graphType: 'line' })
  })
  it('7: weekly or monthly with the last 7 days becomes daily', () => {
    expect(applyMetricRules(def({ occurring: 'weekly', dateRange: 'last7Days' }), 'dateRange').occurring).toBe('daily')
    expect(applyMetricRules(def({ occurring: 'monthly', dateRange: 'last30Days' }), 'occurring').occurring).toBe('monthly')
  })
})

describe('validation (part 2 §5)', () => {
  it("names the metric's fields with the specification's messages", () => {
    const errors = (body: unknown) => saveMetricSchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message])
    expect(errors({ name: ' ', definition: {} })).toEqual([['name', 'Metric name must be provided']])
    expect(errors({ name: 'x'.repeat(51), definition: {} })).toEqual([['name', 'Metric name must have at most 50 characters']])
    expect(errors({ name: 'ok', description: 'd'.repeat(201), definition: {} })).toEqual([['description', 'Metric description must have at most 200 characters']])
  })
  it('refuses a between whose first value is above the last, and counts below 1', () => {
    const parse = (occurring: unknown) => metricDefinitionSchema.safeParse({ events: [{ name: 'A', occurring }] })
    expect(parse({ operation: 'between', value: 5, value2: 2 }).error?.issues[0]?.message).toBe(BETWEEN_MESSAGE)
    expect(parse({ operation: 'between', value: 2, value2: 5 }).success).toBe(true)
    expect(parse({ operation: 'atLeast', value: 0 }).success).toBe(false)
  })
})

describe('the derived metric type (part 2 §3)', () => {
  it('is audience, funnel, event, or unknown', () => {
    expect(metricType(def({}), 'aud-1')).toBe('audience')
    expect(metricType(def({ events: [signup], operation: 'ordered' }))).toBe('funnel')
    expect(metricType(def({ isAnyEvent: true }))).toBe('event')
    expect(metricType(def({}))).toBeUndefined()
    expect(isEmptyMetric(def({}))).toBe(true)
  })
})
