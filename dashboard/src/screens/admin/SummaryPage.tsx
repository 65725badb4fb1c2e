import type { ReactNode } from 'react'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { AdminScreen } from './controls.tsx'
import { cellText, columnKeys } from './grid/cells.ts'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isTable = (v: unknown): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && v.every(isRecord)

const formatNumber = new Intl.NumberFormat('en-US')
const CELL = 'border-t border-slate-100 px-4 py-2 align-top'

/** A value in the summary: a number grouped, a list of records as a table, a record as name and value rows. */
function SummaryValue({ value, label }: { value: unknown; label: string }): ReactNode {
  if (typeof value === 'number') return <span className="tabular-nums">{formatNumber.format(value)}</span>
  if (isTable(value)) return <RowsTable rows={value} label={label} />
  if (isRecord(value)) return <RecordTable record={value} label={label} />
  return cellText(value)
}

function RowsTable({ rows, label }: { rows: Record<string, unknown>[]; label: string }) {
  const keys = columnKeys(rows)
  return (
    <table aria-label={label} className="w-full border-collapse text-sm">
      <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
        <tr>
          {keys.map((k) => (
            <th key={k} scope="col" className="px-4 py-2 font-medium">
              {k}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {keys.map((k) => (
              <td key={k} className={CELL}>
                <SummaryValue value={row[k]} label={`${label} ${k}`} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function RecordTable({ record, label }: { record: Record<string, unknown>; label: string }) {
  return (
    <table aria-label={label} className="w-full border-collapse text-sm">
      <tbody>
        {Object.entries(record).map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className={`${CELL} w-64 text-left font-mono text-xs font-medium text-slate-600`}>
              {k}
            </th>
            <td className={CELL}>
              <SummaryValue value={v} label={k} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** summary: the admin summary data in a table view (part 1 §2), whatever its shape. */
export default function SummaryPage() {
  const api = useApi()
  const fetched = useFetch((signal) => api.admin.summary(signal), [])
  return (
    <AdminScreen heading="Summary">
      <FetchView fetched={fetched}>
        {(data) => (
          <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
            {isTable(data) ? <RowsTable rows={data} label="Summary" /> : isRecord(data) ? <RecordTable record={data} label="Summary" /> : <p className="p-4 text-sm">{cellText(data) || 'No data found'}</p>}
          </div>
        )}
      </FetchView>
    </AdminScreen>
  )
}
