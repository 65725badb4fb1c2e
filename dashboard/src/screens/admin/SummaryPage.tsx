import { useApi } from '../../api/context.tsx'
import type { AdminSummaryRow } from '../../api/admin.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { AdminScreen } from './controls.tsx'
import { cellText } from './grid/cells.ts'

const formatNumber = new Intl.NumberFormat('en-US')

/** A figure's value: numbers grouped by thousands, text as it is, nothing as a dash. */
export function summaryValue(value: AdminSummaryRow['value']): string {
  if (typeof value === 'number') return formatNumber.format(value)
  return cellText(value) || '–'
}

/** summary: the admin summary data in a table view (part 1 §2), one figure a row, in the server's order. */
export default function SummaryPage() {
  const api = useApi()
  const fetched = useFetch((signal) => api.admin.summary(signal), [])
  return (
    <AdminScreen heading="Summary">
      <FetchView fetched={fetched}>
        {({ data: rows }) => (
          <div className="max-w-3xl overflow-hidden rounded-lg border border-slate-200 bg-white">
            <table aria-label="Summary" className="w-full border-collapse text-sm">
              <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Figure
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    Value
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={2} className="px-4 py-10 text-center text-slate-500">
                      No data found
                    </td>
                  </tr>
                ) : (
                  rows.map((r) => (
                    <tr key={r.key} data-key={r.key} className="border-t border-slate-100">
                      <th scope="row" className="whitespace-nowrap px-4 py-2 text-left font-normal text-slate-700">
                        {r.label}
                      </th>
                      <td className={`px-4 py-2 text-right ${typeof r.value === 'number' ? 'tabular-nums' : ''}`}>{summaryValue(r.value)}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
      </FetchView>
    </AdminScreen>
  )
}
