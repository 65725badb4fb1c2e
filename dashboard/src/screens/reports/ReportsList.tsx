import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../api/context.tsx'
import type { FeatureSummary, ReportSummary } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatRelative } from '../../ui/format.ts'
import { Heading } from '../../ui/Heading.tsx'
import { featureReportPath, reportPath, REPORTS } from './text.ts'

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mb-10">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      {children}
    </section>
  )
}

const Empty = () => <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">{REPORT_TEXT.empty}</p>

const CARD = 'flex h-full flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow'

function CustomReports({ org, reports }: { org: string; reports: ReportSummary[] }) {
  if (reports.length === 0) return <Empty />
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {reports.map((r) => (
        <li key={r.id}>
          <Link to={reportPath(org, r.id)} className={CARD}>
            <span className="truncate font-medium text-slate-900">{r.name}</span>
            {r.description && <span className="line-clamp-2 text-sm text-slate-600">{r.description}</span>}
            <span className="mt-auto flex justify-between gap-2 pt-2 text-xs text-slate-500">
              <span>{REPORT_TEXT.metricCount(r.metric_count)}</span>
              <time dateTime={r.updated_date} title={r.updated_date}>
                {formatRelative(r.updated_date)}
              </time>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

function FeatureReports({ org, features }: { org: string; features: FeatureSummary[] }) {
  if (features.length === 0) return <Empty />
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {features.map((f) => (
        <li key={f.id}>
          <Link to={featureReportPath(org, f.id)} className={CARD}>
            <span className="truncate font-medium text-slate-900">{f.name}</span>
            <span className="text-xs text-slate-500">{REPORT_TEXT.featureAnalysis}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

/**
 * The reports list (part 3 §2): 'Create report...', the custom reports with
 * their metric counts, most recently changed first, and a feature report for
 * each of the organisation's features. Both lists load together.
 */
export default function ReportsList() {
  const { organization = '' } = useParams()
  const api = useApi()
  const fetched = useFetch(
    async (signal) => {
      const [reports, { features }] = await Promise.all([api.reports.list(organization, signal), api.features.list(organization, signal)])
      return { reports, features }
    },
    [organization],
    { name: REPORTS },
  )
  return (
    <div className="p-8">
      <Heading
        actions={
          <Link to={reportPath(organization, 'new')} className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500">
            {REPORT_TEXT.create}
          </Link>
        }
      >
        {REPORT_TEXT.heading}
      </Heading>
      <FetchView fetched={fetched}>
        {({ reports, features }) => (
          <>
            <Section title={REPORT_TEXT.custom}>
              <CustomReports org={organization} reports={reports} />
            </Section>
            <Section title={REPORT_TEXT.features}>
              <FeatureReports org={organization} features={features} />
            </Section>
          </>
        )}
      </FetchView>
    </div>
  )
}
