import { useLocation, useNavigate } from 'react-router'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { featureReportPath, reportPath, REPORTS } from './text.ts'

/**
 * The switcher of all reports (part 3 §2): a dropdown of the custom reports
 * and the feature reports, opening the one chosen. It shows the report on
 * screen; one not in the list yet (a new report) shows as 'New report'.
 */
export function ReportSwitcher({ org }: { org: string }) {
  const api = useApi()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const fetched = useFetch(
    async (signal) => {
      const [reports, { features }] = await Promise.all([api.reports.list(org, signal), api.features.list(org, signal)])
      return { reports, features }
    },
    [org],
    { name: REPORTS },
  )
  if (fetched.status !== 'loaded') return null
  const { reports, features } = fetched.data
  const options = [...reports.map((r) => reportPath(org, r.id)), ...features.map((f) => featureReportPath(org, f.id))]
  const current = options.includes(pathname) ? pathname : ''
  return (
    <select
      aria-label="Switch report"
      value={current}
      onChange={(e) => e.target.value && navigate(e.target.value)}
      className="max-w-64 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
    >
      {!current && <option value="">{REPORT_TEXT.newReport}</option>}
      {reports.length > 0 && (
        <optgroup label={REPORT_TEXT.custom}>
          {reports.map((r) => (
            <option key={r.id} value={reportPath(org, r.id)}>
              {r.name}
            </option>
          ))}
        </optgroup>
      )}
      {features.length > 0 && (
        <optgroup label={REPORT_TEXT.features}>
          {features.map((f) => (
            <option key={f.id} value={featureReportPath(org, f.id)}>
              {f.name}
            </option>
          ))}
        </optgroup>
      )}
    </select>
  )
}
