import { lazy, Suspense, type ReactNode } from 'react'
import { Link, Route, Routes, useParams } from 'react-router'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { METRICS_TEXT, metricsPath } from './text.ts'

const MetricsList = lazy(() => import('./MetricsList.tsx'))
const MetricEditor = lazy(() => import('./editor/MetricEditor.tsx'))

const load = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>

/** An address below /metrics that names nothing: said so under the Metrics heading, with the way back. */
function NoSuchPage() {
  const { organization = '' } = useParams()
  return (
    <div className="p-8">
      <Heading>{METRICS_TEXT.heading}</Heading>
      <ErrorPanel message="Page not found" />
      <Link to={metricsPath(organization)} className="m-4 inline-block text-sm text-indigo-700 hover:underline">
        ← Back to {METRICS_TEXT.heading}
      </Link>
    </div>
  )
}

/**
 * /organizations/{organization}/metrics: the list, /new and /{metricId} (part
 * 2 §2). The list and the editor are separate chunks; the editor's charts load
 * later still, with the first graph.
 */
export default function MetricsRoutes() {
  return (
    <Routes>
      <Route index element={load(<MetricsList />)} />
      <Route path="new" element={load(<MetricEditor key="new" />)} />
      <Route path=":metricId" element={load(<MetricEditor />)} />
      <Route path="*" element={<NoSuchPage />} />
    </Routes>
  )
}
