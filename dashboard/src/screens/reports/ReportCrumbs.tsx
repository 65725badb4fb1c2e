import { Link } from 'react-router'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { reportsPath } from './text.ts'

/** A report page's breadcrumbs: Reports, then the report; `truncate` for a name the user typed, which may be long. */
export function ReportCrumbs({ org, current, truncate = false }: { org: string; current: string; truncate?: boolean }) {
  return (
    <nav aria-label="Breadcrumbs">
      <ol className="flex items-center gap-2 text-sm text-slate-500">
        <li>
          <Link to={reportsPath(org)} className="hover:text-slate-800 hover:underline">
            {REPORT_TEXT.heading}
          </Link>
        </li>
        <li aria-hidden>/</li>
        <li aria-current="page" className={truncate ? 'max-w-md truncate text-slate-800' : 'text-slate-800'}>
          {current}
        </li>
      </ol>
    </nav>
  )
}
