import { metricDefinitionSchema, metricEventSchema, type FieldError, type FeatureQuery, type FeatureQueryResult, type MetricGraph } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { computeMetricGraph } from '@fl0/query'

/**
 * A feature report's query (spec part 3 §7) as a metric the engine computes
 * (metrics/engine.ts): the feature's events with operation any, so a member
 * "used the feature" in a period when they sent any of its events, and a use
 * is one such event. Nothing here writes SQL; every number comes from the
 * same engine, and so the same identity and day rules, as the metric graphs.
 *
 * - lastDay, which metrics do not have, is today: the last point of a daily
 *   line over the last seven days (a day's unique members are that point,
 *   whatever the graph type asked for).
 * - outOf is the same measure over any track event (isAnyEvent): the members
 *   active on anything in the range, or all their events; the report's
 *   adoption is value / outOf.
 * - A feature without events counts nothing: zeros, and the engine makes no
 *   query for it.
 */
export interface FeatureQueryInput {
  orgId: string
  /** The feature's event names. */
  events: readonly string[]
  query: FeatureQuery
  now: Date
  /** A zone the engine accepts (metrics/window.ts isKnownZone). */
  timezone: string
  signal?: AbortSignal
}

export type FeatureQueryOutcome = { ok: true; result: FeatureQueryResult } | { ok: false; errors: FieldError[] }

export async function runFeatureQuery(store: EventStore, input: FeatureQueryInput): Promise<FeatureQueryOutcome> {
  const { query } = input
  const today = query.dateRange === 'lastDay'
  // A feature holds up to FEATURE_EVENTS_MAX events, more than a metric's editor
  // allows (METRIC_LIMITS.events): the events join the parsed definition after
  // the editor's limit is checked, each filled in by the event schema.
  const definition = (over: { events: readonly string[] } | { anyEvent: true }) => ({
    ...metricDefinitionSchema.parse({
      audienceType: query.audienceType,
      measureBy: query.measureBy,
      isAnyEvent: 'anyEvent' in over,
      operation: 'any',
      occurring: today ? 'daily' : query.occurring,
      dateRange: today ? 'last7Days' : query.dateRange,
      graphType: today ? 'line' : query.graphType,
    }),
    events: 'anyEvent' in over ? [] : over.events.map((name) => metricEventSchema.parse({ name })),
  })
  const graphOf = async (over: { events: readonly string[] } | { anyEvent: true }) => {
    const parsed = definition(over)
    const computed = await computeMetricGraph(store, { orgId: input.orgId, definition: parsed, now: input.now, timezone: input.timezone, signal: input.signal })
    if (!computed.ok) return computed
    // Today's one point is today's count so far (its series' partial marks go with the rest of the series).
    const graph = today ? lastPoint(computed.graph) : computed.graph
    return { ok: true as const, graph }
  }

  if (query.graphType === 'line') {
    const line = await graphOf({ events: input.events })
    return line.ok ? { ok: true, result: { graph: line.graph } } : line
  }
  const [feature, all] = await Promise.all([graphOf({ events: input.events }), graphOf({ anyEvent: true })])
  if (!feature.ok) return feature
  if (!all.ok) return all
  return { ok: true, result: { currentValue: { value: numberOf(feature.graph), outOf: numberOf(all.graph) } } }
}

/** A line cut to its last period (today). */
function lastPoint(graph: MetricGraph): MetricGraph {
  const labels = graph.data.labels.slice(-1)
  return { ...graph, type: 'line', data: { labels, datasets: graph.data.datasets.map((d) => ({ ...d, data: d.data.slice(-1) })) } }
}

/** The metric graph's number, or a one-point line's point; nothing counted is zero. */
function numberOf(graph: MetricGraph): number {
  return graph.header.value ?? graph.data.datasets[0]?.data.at(-1) ?? 0
}
