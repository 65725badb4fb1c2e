import { lazy, Suspense, type ReactNode } from 'react'
import { Route, Routes } from 'react-router'
import { Spinner } from '../../ui/Spinner.tsx'

const MetricsList = lazy(() => import('./MetricsList.tsx'))
const MetricEditor = lazy(() => import('./editor/MetricEditor.tsx'))
const NotFound = lazy(() => import('../NotFound.tsx'))

const load = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>

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
      <Route path="*" element={load(<NotFound />)} />
    </Routes>
  )
}
