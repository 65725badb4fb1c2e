import { lazy, Suspense } from 'react'
import { isEmptyMetric, metricDefinitionSchema, metricType, type MetricDefinition } from '@fl0/contracts/metrics'
import type { z } from 'zod'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { Spinner } from '../../../ui/Spinner.tsx'
import { METRICS_TEXT } from '../text.ts'
import { useMetricGraph } from './useMetricGraph.ts'

const GraphView = lazy(() => import('./GraphView.tsx'))

function RefreshIndicator() {
  return (
    <span role="status" aria-label="Refreshing" className="inline-flex items-center gap-1.5 text-xs text-slate-500">
      <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />
      Refreshing
    </span>
  )
}

/**
 * The preview panel (part 2 §2, §4): 'Select metric options' and an empty
 * line graph, without a call, until the metric has events or any event; then
 * the graph of the definition as it would be saved, queried again on each
 * change. A definition the contract refuses is not sent: its first problem is
 * shown instead (the server would answer the same).
 */
export function MetricPreview({ org, definition }: { org: string; definition: z.input<typeof metricDefinitionSchema> }) {
  const parsed = metricDefinitionSchema.safeParse(definition)
  const valid: MetricDefinition | undefined = parsed.success ? parsed.data : undefined
  const empty = valid ? isEmptyMetric(valid) || metricType(valid) === undefined : false
  const { graph, error, loading } = useMetricGraph(org, valid && !empty ? valid : undefined)
  const invalid = parsed.success ? undefined : parsed.error.issues[0]?.message

  let body
  if (empty) {
    body = (
      <>
        <p className="mb-4 text-center text-sm text-slate-500">{METRICS_TEXT.selectOptions}</p>
        <Suspense fallback={<Spinner label="Loading graph" />}>
          <GraphView layout="stacked" measureBy="unique" />
        </Suspense>
      </>
    )
  } else if (invalid) body = <ErrorPanel message={invalid} />
  else if (error) body = <ErrorPanel message={error} />
  else if (graph && valid)
    body = (
      <Suspense fallback={<Spinner label="Loading graph" />}>
        <GraphView graph={graph} layout={valid.graphLayout} measureBy={valid.measureBy} />
      </Suspense>
    )
  else body = <Spinner label="Loading graph" />

  return (
    <section aria-label="Preview" aria-busy={loading} className="flex min-h-80 flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-4 flex min-h-6 items-center justify-between gap-3">
        <h2 className="truncate text-base font-semibold text-slate-800">{!empty && graph && !error ? graph.header.name : 'Preview'}</h2>
        {loading && graph && <RefreshIndicator />}
      </div>
      <div className="min-w-0 flex-1">{body}</div>
    </section>
  )
}
