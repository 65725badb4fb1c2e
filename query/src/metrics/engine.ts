import type { EventStore } from '@fl0/stores'
import type { FieldError, MetricDefinition, MetricGraph } from '@fl0/contracts'
import { planMetric } from './plan.ts'
import { shapeGraph, type Row } from './shape.ts'
import { withPartial } from './partial.ts'
import { printMetricQuery } from './sql/query.ts'

/**
 * The metric engine: a definition in, the graph out, computed from the events
 * store. Three stages, each testable alone: plan.ts decides what to count,
 * sql/query.ts prints it as one ClickHouse query with bound parameters, and
 * shape.ts turns the rows into the graph.
 */
export interface MetricGraphInput {
  orgId: string
  definition: MetricDefinition
  now: Date
  /** The organisation's zone; the caller checks it (window.ts isKnownZone). */
  timezone: string
  /** Aborts the query: the HTTP request's signal. */
  signal?: AbortSignal
}

export type MetricGraphResult = { ok: true; graph: MetricGraph } | { ok: false; errors: FieldError[] }

export async function computeMetricGraph(store: EventStore, input: MetricGraphInput): Promise<MetricGraphResult> {
  const planned = planMetric(input.definition, { now: input.now, timezone: input.timezone })
  if (!planned.ok) return planned
  const plan = planned.plan
  // Nothing to count (no events, not any event): the empty graph, without a query.
  if (plan.steps.length === 0) return { ok: true, graph: withPartial({ type: plan.graph, layout: plan.layout, header: { name: plan.name }, data: { labels: plan.window.periods, datasets: [] } }, plan.window.from) }

  const query = printMetricQuery(plan, input.orgId)
  const result = await store.client.query({
    query: query.sql,
    query_params: query.params,
    format: 'JSONEachRow',
    abort_signal: input.signal,
    // A ClickHouse server stops a SELECT whose HTTP client went away only when asked to.
    clickhouse_settings: store.kind === 'http' ? { cancel_http_readonly_queries_on_client_close: 1 } : undefined,
  })
  const rows = await result.json<Row>()
  // A series marks its periods not wholly counted (partial.ts).
  return { ok: true, graph: withPartial(shapeGraph(plan, rows), plan.window.from) }
}
