import { lazy, Suspense } from 'react'
import { Link } from 'react-router'
import { isEmptyMetric, metricDefinitionSchema } from '@fl0/contracts/metrics'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import type { StoredMetric } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { Button } from '../../../ui/Button.tsx'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { Spinner } from '../../../ui/Spinner.tsx'
import { METRICS_TEXT } from '../../metrics/text.ts'
import { metricPath } from '../text.ts'

// The metric editor's graph view: a card draws a metric exactly as its preview does (and loads the chart code only when needed).
const GraphView = lazy(() => import('../../metrics/preview/GraphView.tsx'))

/** The metric's graph from its stored definition (POST .../metrics/graph); an empty metric draws the empty line graph without a call. */
function MetricGraph({ org, metric }: { org: string; metric: StoredMetric }) {
  const api = useApi()
  // A definition saved by an older version may no longer parse: the metric list's marker, and no call.
  const parsed = metricDefinitionSchema.safeParse(metric.definition)
  const definition = parsed.success ? parsed.data : undefined
  const empty = !definition || isEmptyMetric(definition)
  const graph = useFetch((signal) => api.metrics.graph(org, definition!, signal), [org, metric.id, JSON.stringify(definition)], { enabled: !empty })
  if (!definition) return <p className="text-sm text-amber-800">{METRICS_TEXT.invalid}</p>
  if (!empty && graph.status === 'pending') return <Spinner />
  if (!empty && graph.status === 'error') return <ErrorPanel message={graph.error} />
  return (
    <Suspense fallback={<Spinner />}>
      <GraphView graph={graph.status === 'loaded' ? graph.data : undefined} layout={definition.graphLayout} measureBy={definition.measureBy} />
    </Suspense>
  )
}

/**
 * One metric of a custom report (part 3 §2): its name, Edit (the metric
 * editor) and Remove (out of this report, saved at once), and its graph.
 */
export function MetricCard({ org, metricId, onRemove }: { org: string; metricId: string; onRemove: () => void }) {
  const api = useApi()
  const metric = useFetch((signal) => api.metrics.get(org, metricId, signal), [org, metricId])
  const name = metric.status === 'loaded' ? metric.data.name : ''
  return (
    <article aria-label={name || 'Metric'} data-metric-id={metricId} className="flex h-full flex-col rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <div className="min-w-0">
          <h3 className="truncate font-medium text-slate-900">{name || '…'}</h3>
          {metric.status === 'loaded' && metric.data.description && <p className="truncate text-xs text-slate-500">{metric.data.description}</p>}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Link
            to={metricPath(org, metricId)}
            aria-label={`${REPORT_TEXT.edit} ${name}`.trim()}
            className="rounded-md px-2.5 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            {REPORT_TEXT.edit}
          </Link>
          <Button variant="ghost" aria-label={`${REPORT_TEXT.remove} ${name}`.trim()} onClick={onRemove}>
            {REPORT_TEXT.remove}
          </Button>
        </div>
      </header>
      <div className="min-h-48 flex-1 p-4">
        {metric.status === 'pending' && <Spinner />}
        {metric.status === 'error' && <ErrorPanel message={metric.error} />}
        {metric.status === 'loaded' && <MetricGraph org={org} metric={metric.data} />}
      </div>
    </article>
  )
}
