import { lazy, Suspense, type ReactNode } from 'react'
import { Link, Route, Routes, useParams } from 'react-router'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { Heading } from '../../ui/Heading.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { reportsPath } from './text.ts'

const ReportsList = lazy(() => import('./ReportsList.tsx'))
const ReportEditorRoute = lazy(() => import('./editor/ReportEditor.tsx'))
const FeatureReport = lazy(() => import('./features/FeatureReport.tsx'))

const load = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>

/** An address below reports/ that is no report: said so under the group's heading, with the way back. */
function NoSuchReport() {
  const { organization = '' } = useParams()
  return (
    <div className="p-8">
      <Heading>{REPORT_TEXT.heading}</Heading>
      <p className="text-sm text-slate-600">
        Page not found.{' '}
        <Link to={reportsPath(organization)} className="text-indigo-700 underline">
          All reports
        </Link>
      </p>
    </div>
  )
}

/**
 * /organizations/{organization}/reports (part 3 §2): the list, the Feature
 * Analysis report at features/{featureId}, and the custom report editor at
 * new and {reportId}. new and {reportId} are one route, so the editor that
 * creates a report stays on screen when its address becomes the report's.
 */
export default function ReportsRoutes() {
  return (
    <Routes>
      <Route index element={load(<ReportsList />)} />
      <Route path="features/:featureId" element={load(<FeatureReport />)} />
      <Route path=":reportId" element={load(<ReportEditorRoute />)} />
      <Route path="*" element={<NoSuchReport />} />
    </Routes>
  )
}
