import { useState, type ReactNode } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { METRIC_DEFAULTS } from '@fl0/contracts/metrics'
import { useApi } from '../../../api/context.tsx'
import { isSilentError, messageOf } from '../../../api/errors.ts'
import { refetch } from '../../../api/refetch.ts'
import { useFetch } from '../../../api/useFetch.ts'
import type { StoredMetric } from '../../../api/types.ts'
import { Button } from '../../../ui/Button.tsx'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { ConfirmModal } from '../../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { Spinner } from '../../../ui/Spinner.tsx'
import { METRICS, METRICS_TEXT, metricsPath } from '../text.ts'
import { fromDefinition, withRules } from './draft.ts'
import { MetricForm, type MetricFormValues } from './MetricForm.tsx'

/** The page around the editor: the back link, breadcrumbs and title, and Delete... for a saved metric. */
function Frame({ org, title, actions, children }: { org: string; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-full flex-col gap-4 p-6 lg:h-full">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <Link to={metricsPath(org)} className="text-sm text-indigo-700 hover:underline">
            ← Back to {METRICS_TEXT.heading}
          </Link>
          <nav aria-label="Breadcrumbs" className="mt-2">
            <ol className="flex items-center gap-2 text-sm text-slate-500">
              <li>
                <Link to={metricsPath(org)} className="hover:text-slate-800 hover:underline">
                  {METRICS_TEXT.heading}
                </Link>
              </li>
              <li aria-hidden>/</li>
              <li aria-current="page" className="truncate text-slate-800">
                {title}
              </li>
            </ol>
          </nav>
          <h1 className="mt-1 truncate text-2xl font-semibold tracking-tight">{title}</h1>
        </div>
        {actions}
      </div>
      {children}
    </div>
  )
}

const toValues = (m: Pick<StoredMetric, 'name' | 'description' | 'category' | 'definition'>): MetricFormValues => ({
  name: m.name,
  description: m.description,
  category: m.category,
  draft: withRules(fromDefinition(m.definition)),
})

function DeleteMetric({ org, metric }: { org: string; metric: StoredMetric }) {
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const [confirming, setConfirming] = useState(false)
  const remove = async () => {
    try {
      await api.metrics.remove(org, metric.id)
      snackbar.ok(METRICS_TEXT.deleted)
      refetch(METRICS)
      navigate(metricsPath(org))
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
      setConfirming(false)
    }
  }
  return (
    <>
      <Button variant="secondaryDanger" onClick={() => setConfirming(true)}>
        {METRICS_TEXT.delete}
      </Button>
      {confirming && (
        <ConfirmModal header={METRICS_TEXT.deleteHeader} description={METRICS_TEXT.deleteConfirm(metric.name)} submitLabel={METRICS_TEXT.delete} onConfirm={remove} onClose={() => setConfirming(false)} />
      )}
    </>
  )
}

function SavedMetric({ org, metricId }: { org: string; metricId: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.metrics.get(org, metricId, signal), [org, metricId])
  // A refetch after a save keeps the form (same key) and renames the page.
  if (fetched.status !== 'loaded') {
    return <Frame org={org} title={METRICS_TEXT.heading}>{fetched.status === 'pending' ? <Spinner /> : <ErrorPanel message={fetched.error} />}</Frame>
  }
  const metric = fetched.data
  return (
    <Frame org={org} title={metric.name} actions={<DeleteMetric org={org} metric={metric} />}>
      <MetricForm key={metric.id} org={org} metricId={metric.id} initial={toValues(metric)} onSaved={fetched.refetch} />
    </Frame>
  )
}

/**
 * The metric editor (part 2 §2): /metrics/new creates, /metrics/{metricId}
 * edits. A saved metric's definition is read through the rules too, so what
 * the form shows is always a state the rules accept.
 */
export default function MetricEditor() {
  const { organization = '', metricId } = useParams()
  if (metricId) return <SavedMetric org={organization} metricId={metricId} />
  return (
    <Frame org={organization} title={METRICS_TEXT.newMetric}>
      <MetricForm org={organization} initial={toValues({ name: '', description: '', category: '', definition: METRIC_DEFAULTS })} />
    </Frame>
  )
}
