import type { MetricGraph } from '@fl0/contracts'

/**
 * The periods of a time series not wholly counted (contracts' MetricGraph
 * partial): the last, which holds today (a range always ends today), and the
 * first when it starts before the range's first day `from` (a week or month
 * cut by the range). Metric and funnel graphs have one period, the range itself.
 */
export function partialPeriods(graph: Pick<MetricGraph, 'type' | 'data'>, from: string): number[] {
  const { labels } = graph.data
  if (!['line', 'bar', 'table'].includes(graph.type) || labels.length === 0) return []
  const cut = labels[0]! < from ? [0] : []
  return [...new Set([...cut, labels.length - 1])]
}

/** The graph with its partial periods marked (none: unchanged). */
export function withPartial(graph: MetricGraph, from: string): MetricGraph {
  const partial = partialPeriods(graph, from)
  return partial.length ? { ...graph, data: { ...graph.data, partial } } : graph
}
