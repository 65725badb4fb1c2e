import { useState } from 'react'
import { useParams } from 'react-router'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { GENERIC_ERROR } from '../../../constants.ts'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { Segmented } from '../../../ui/Segmented.tsx'
import { Spinner } from '../../../ui/Spinner.tsx'
import { ReportCrumbs } from '../ReportCrumbs.tsx'
import { ReportSwitcher } from '../ReportSwitcher.tsx'
import { CountCard, CountsCard, GraphCard, ListCard, SplitCard } from './templates.tsx'
import { useFeatureReport, type AudienceType, type FeatureReportData } from './useFeatureReport.ts'

const AUDIENCES = [
  { value: 'user', label: REPORT_TEXT.users },
  { value: 'company', label: REPORT_TEXT.companies },
] as const

/** The report's words for its audience. */
const WORDS = {
  user: { active: 'Active users', members: 'users', member: 'user', Members: 'Users' },
  company: { active: 'Active companies', members: 'companies', member: 'company', Members: 'Companies' },
} as const

const zero = { value: 0, outOf: 0 }

/** Where each of the ten answers is shown (contracts' FEATURE_REPORT_QUERIES says which query is which). */
function Figures({ data, audience }: { data: FeatureReportData; audience: AudienceType }) {
  const w = WORDS[audience]
  const f = (key: keyof FeatureReportData['figures']) => data.figures[key] ?? zero
  const perMember = f('active7Days').value ? f('uses7Days').value / f('active7Days').value : 0
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <CountsCard
        className="lg:col-span-2"
        title={w.active}
        items={[
          { label: 'Today', value: f('activeToday').value },
          { label: 'Last 7 days', value: f('active7Days').value },
          { label: 'Last 30 days', value: f('active30Days').value },
          { label: 'Last year', value: f('activeYear').value },
        ]}
      />
      <SplitCard title="Adoption, last 7 days" figure={f('active7Days')} used={`${w.Members} who used it`} rest={`Other active ${w.members}`} />
      <div className="grid grid-cols-3 gap-4 lg:col-span-3">
        <CountCard title="Uses today" value={f('usesToday').value} />
        <CountCard title="Uses, last 7 days" value={f('uses7Days').value} />
        <CountCard title={`Uses per ${w.member}, last 7 days`} value={perMember} format={(n) => n.toFixed(1)} />
      </div>
      <GraphCard title={`Daily ${w.active.toLowerCase()}, last 30 days`} graph={data.graphs.dailyActive} />
      <GraphCard title="Daily uses, last 30 days" graph={data.graphs.dailyUses} />
      <GraphCard title={`Monthly ${w.active.toLowerCase()}, last year`} graph={data.graphs.monthlyActive} />
      <ListCard title="Uses by month, last year" graph={data.graphs.monthlyUses} column="Uses" />
    </div>
  )
}

function Report({ org, featureId, audience }: { org: string; featureId: string; audience: AudienceType }) {
  const report = useFeatureReport(org, featureId, audience)
  if (report.status === 'pending') return <Spinner />
  // Any of the ten failing: the generic error view (part 3 §8).
  if (report.status === 'error') return <ErrorPanel message={GENERIC_ERROR} />
  return <Figures data={report.data} audience={audience} />
}

/**
 * The Feature Analysis report (part 3 §2): how a feature is used, by users
 * or by companies, from the ten queries of useFeatureReport. The switcher
 * opens any other report.
 */
export default function FeatureReport() {
  const { organization = '', featureId = '' } = useParams()
  const api = useApi()
  const [audience, setAudience] = useState<AudienceType>('user')
  const feature = useFetch((signal) => api.features.get(organization, featureId, signal), [organization, featureId])
  const name = feature.status === 'loaded' ? feature.data.name : ''
  return (
    <div className="flex flex-col gap-6 p-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <ReportCrumbs org={organization} current={REPORT_TEXT.featureAnalysis} />
          <h1 className="mt-1 truncate text-2xl font-semibold tracking-tight">{name || REPORT_TEXT.featureAnalysis}</h1>
          {feature.status === 'loaded' && (
            <p className="mt-1 text-sm text-slate-500">
              {REPORT_TEXT.featureAnalysis} of {feature.data.events.length === 0 ? 'no events yet' : feature.data.events.map((e) => e.event_name).join(', ')}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ReportSwitcher org={organization} />
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <span>{REPORT_TEXT.audience}</span>
            <Segmented label={REPORT_TEXT.audience} value={audience} options={AUDIENCES} onChange={setAudience} />
          </div>
        </div>
      </div>
      {feature.status === 'error' ? <ErrorPanel message={feature.error} /> : <Report org={organization} featureId={featureId} audience={audience} />}
    </div>
  )
}
