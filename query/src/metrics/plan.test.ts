import { describe, expect, it } from 'vitest'
import { METRIC_DEFAULTS, type MetricDefinition } from '@fl0/contracts'
import { planMetric, type MetricPlan } from './plan.ts'

const ctx = { now: new Date('2026-03-04T12:00:00Z'), timezone: 'UTC' }
const plan = (over: Partial<MetricDefinition>): MetricPlan => {
  const p = planMetric({ ...METRIC_DEFAULTS, ...over }, ctx)
  if (!p.ok) throw new Error(JSON.stringify(p.errors))
  return p.plan
}

describe('planning a metric', () => {
  it('turns events into steps, dropping filters without a value', () => {
    const p = plan({
      events: [
        { name: 'A', property: { path: 'plan', operation: 'is', value: '' }, occurring: { operation: 'atLeast', value: 2 } },
        { name: 'B', property: { path: 'total', operation: 'greaterThan', value: '10.5' } },
      ],
    })
    expect(p.steps).toEqual([
      { label: 'A', event: 'A', occurring: { operation: 'atLeast', value: 2 } },
      { label: 'B', event: 'B', property: { path: 'total', operation: 'greaterThan', value: 10.5 } },
    ])
  })

  it('ignores occurring filters when measuring total', () => {
    expect(plan({ measureBy: 'total', events: [{ name: 'A', occurring: { operation: 'equals', value: 2 } }] }).steps).toEqual([{ label: 'A', event: 'A' }])
  })

  it('adds any event as a step of any and all, not of an order', () => {
    expect(plan({ isAnyEvent: true, events: [{ name: 'A' }], operation: 'all' }).steps.map((s) => s.event)).toEqual(['A', null])
    expect(plan({ isAnyEvent: true, events: [{ name: 'A' }, { name: 'B' }], operation: 'ordered' }).steps.map((s) => s.event)).toEqual(['A', 'B'])
  })

  it('matches ordered steps with windowFunnel unless an event repeats', () => {
    expect(plan({ events: [{ name: 'A' }, { name: 'B' }], operation: 'ordered' }).matcher).toBe('windowFunnel')
    expect(plan({ events: [{ name: 'A' }, { name: 'A' }], operation: 'ordered' }).matcher).toBe('sequence')
    expect(plan({ events: [{ name: 'A' }] }).matcher).toBeUndefined()
  })

  it('counts metric and funnel graphs over the whole range as one period', () => {
    expect(plan({ events: [{ name: 'A' }], graphType: 'metric', occurring: 'weekly' }).window.bucket).toBe('range')
    expect(plan({ events: [{ name: 'A' }, { name: 'B' }], operation: 'ordered', graphType: 'funnel' }).window.bucket).toBe('range')
    expect(plan({ events: [{ name: 'A' }], occurring: 'monthly' }).window.bucket).toBe('month')
  })

  it('draws side by side only bars with a breakdown that are not ordered', () => {
    const breakdown = { trait: 'plan', type: 'string', values: [] }
    expect(plan({ events: [{ name: 'A' }], graphType: 'bar', graphLayout: 'side', breakdown }).layout).toBe('side')
    expect(plan({ events: [{ name: 'A' }], graphType: 'bar', graphLayout: 'side' }).layout).toBe('stacked')
    expect(plan({ events: [{ name: 'A' }], graphType: 'line', graphLayout: 'side', breakdown }).layout).toBe('stacked')
    expect(plan({ events: [{ name: 'A' }, { name: 'B' }], operation: 'ordered', graphType: 'bar', graphLayout: 'side', breakdown }).layout).toBe('stacked')
  })

  it('names the measure', () => {
    expect(plan({}).name).toBe('Unique users')
    expect(plan({ audienceType: 'company' }).name).toBe('Unique companies')
    expect(plan({ isAnyEvent: true, measureBy: 'total' }).name).toBe('Total events')
    expect(plan({ events: [{ name: 'A' }, { name: 'B' }], operation: 'ordered', measureBy: 'conversionRate' }).name).toBe('Conversion rate')
  })

  it('names the field of a value it cannot read', () => {
    const p = planMetric(
      {
        ...METRIC_DEFAULTS,
        events: [{ name: 'A', property: { path: 'n', operation: 'lessThan', value: 'ten' } }],
        audience: { aggregate: 'and', traits: [{ name: 'seats', operation: 'between', value: ['9', '3'] }] },
      },
      ctx,
    )
    expect(p).toEqual({
      ok: false,
      errors: [
        { name: 'events.0.property.value', message: 'Value must be a number' },
        { name: 'audience.traits.0.value', message: 'The first value must not be greater than the second' },
      ],
    })
  })
})
