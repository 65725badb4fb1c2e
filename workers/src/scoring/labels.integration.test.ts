import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { insertEvents, openTestEventStore } from '@fl0/stores/events/testing'
import { metricDefinitionSchema } from '@fl0/contracts'
import { computeMetricGraph, metricWindow, Params, planMetric } from '@fl0/query'
import { FIXTURE_NOW, fixtureEvents, linkedEvents } from '@fl0/query/testing'
import { reachedSql } from './sql/labels.ts'
import { span } from './windows.ts'

/**
 * The label means what the metric engine means: over the engine's own window
 * (the last seven days of the metric fixture, query/src/metrics/fixture.ts),
 * the people reachedSql finds are as many as the engine's metric graph
 * counts, for every kind of definition; and over a span of the past, it
 * finds the people the fixture's table says.
 */
let store: EventStore
const ORG = 'org-labels'
const BERLIN = 'org-labels-berlin'
const LINKED = 'org-labels-linked'

beforeAll(async () => {
  store = await openTestEventStore()
  await insertEvents(store, [...fixtureEvents(ORG, 'another-org'), ...fixtureEvents(BERLIN, 'another-org'), ...linkedEvents(LINKED)])
})
afterAll(() => store?.close())

async function reached(definition: Record<string, unknown>, s: { from: string; to: string }, timezone = 'UTC', org = ORG): Promise<string[]> {
  const planned = planMetric(metricDefinitionSchema.parse(definition), { now: FIXTURE_NOW, timezone })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const p = new Params()
  const sql = reachedSql(p, planned.plan, org, span(s.from, s.to, timezone, FIXTURE_NOW))
  const result = await store.client.query({ query: `${sql} ORDER BY person`, query_params: p.values, format: 'JSONEachRow' })
  return (await result.json<{ person: string }>()).map((r) => r.person)
}

const S = { name: 'Signed Up' }
const R = { name: 'Report Created' }
const U = { name: 'Plan Upgraded' }

describe('who reached a metric', () => {
  const definitions: Array<[string, Record<string, unknown>]> = [
    ['one event', { events: [R] }],
    ['any of two', { events: [S, U] }],
    ['all of two', { events: [S, R], operation: 'all' }],
    ['in order', { events: [S, R], operation: 'ordered' }],
    ['in order, a step repeated', { events: [R, R], operation: 'ordered' }],
    ['in order, with an occurring filter', { events: [S, { ...R, occurring: { operation: 'atLeast', value: 2 } }], operation: 'ordered' }],
    ['occurring at least twice', { events: [{ ...R, occurring: { operation: 'atLeast', value: 2 } }] }],
    ['occurring between', { events: [{ ...R, occurring: { operation: 'between', value: 1, value2: 1 } }] }],
    ['a property filter', { events: [{ ...R, property: { path: 'rows', operation: 'greaterThan', value: '50' } }] }],
    ['any event', { isAnyEvent: true }],
    ['a user trait', { events: [R], audience: { traits: [{ name: 'plan', operation: 'is', value: 'pro' }] } }],
    ['traits with or', { events: [R], audience: { traits: [{ name: 'plan', operation: 'is', value: 'free' }, { name: 'seats', operation: 'greater_than', value: '10' }], aggregate: 'or' } }],
    ['total ignores occurring', { events: [{ ...R, occurring: { operation: 'atLeast', value: 5 } }], measureBy: 'total' }],
  ]
  for (const [name, definition] of definitions) {
    it(`counts as the metric engine counts: ${name}`, async () => {
      for (const [org, timezone] of [[ORG, 'UTC'], [BERLIN, 'Europe/Berlin']] as const) {
        const full = { ...definition, dateRange: 'last7Days', graphType: 'metric' }
        const graph = await computeMetricGraph(store, { orgId: org, definition: metricDefinitionSchema.parse(full), now: FIXTURE_NOW, timezone })
        if (!graph.ok) throw new Error(JSON.stringify(graph.errors))
        const w = metricWindow(FIXTURE_NOW, timezone, 'last7Days', 'range')
        const people = await reached(definition, { from: w.from, to: w.to }, timezone, org)
        const measure = (definition.measureBy as string) === 'total' ? undefined : graph.graph.header.value
        if (measure !== undefined) expect([name, org, people.length]).toEqual([name, org, measure])
        else expect(people.length).toBeGreaterThan(0)
      }
    })
  }

  it("reads a span of the past, by the organisation's days, and never another organisation", async () => {
    // jay's Report Created at 2026-02-25 23:00 UTC is 02-25 in UTC, 02-26 in Berlin; ivy's is 02-10.
    expect(await reached({ events: [R] }, { from: '2026-02-25', to: '2026-02-25' })).toEqual(['jay'])
    expect(await reached({ events: [R] }, { from: '2026-02-25', to: '2026-02-25' }, 'Europe/Berlin', BERLIN)).toEqual([])
    expect(await reached({ events: [R] }, { from: '2026-02-01', to: '2026-02-24' })).toEqual(['ivy'])
    expect(await reached({ events: [R] }, { from: '2026-02-01', to: '2026-02-24' }, 'UTC', 'org-nobody')).toEqual([])
  })
})

describe('company metrics', () => {
  it("label each person by their own events, the traits read on the person's company", async () => {
    const people = await reached({ audienceType: 'company', events: [R], audience: { traits: [{ name: 'industry', operation: 'is', value: 'Software' }] } }, { from: '2026-02-26', to: '2026-03-04' })
    // acme (Software) has ada and bob, who both did R in the week.
    expect(people).toEqual(['ada', 'bob'])
  })
})

describe('people who signed up after visiting', () => {
  it("label a user by their anonymous visits before signing up, as the engine counts them", async () => {
    const funnel = { events: [{ name: 'Pricing Viewed' }, S], operation: 'ordered' }
    // kim and max viewed pricing anonymously, then signed up on that device; ned's shared-machine visit is max's.
    expect(await reached(funnel, { from: '2026-02-26', to: '2026-03-04' }, 'UTC', LINKED)).toEqual(['kim', 'max'])
    const graph = await computeMetricGraph(store, { orgId: LINKED, definition: metricDefinitionSchema.parse({ ...funnel, dateRange: 'last7Days', graphType: 'metric' }), now: FIXTURE_NOW, timezone: 'UTC' })
    expect(graph.ok && graph.graph.header.value).toBe(2)
    // A pro user's pricing view, though it was sent before identify named the plan.
    expect(await reached({ events: [{ name: 'Pricing Viewed' }], audience: { traits: [{ name: 'plan', operation: 'is', value: 'pro' }] } }, { from: '2026-03-01', to: '2026-03-01' }, 'UTC', LINKED)).toEqual(['kim'])
  })
})
