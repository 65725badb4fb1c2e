import type { ReactNode } from 'react'
import { PEOPLE_TEXT, TOP_LIST_SIZE } from '@fl0/contracts/people'

export interface TopColumn<Row> {
  header: string
  render: (row: Row) => ReactNode
  /** Numbers sit right. */
  numeric?: boolean
}

/**
 * A top list (part 3 §9): always 10 rows, the missing ones padded with '-'
 * in every column, so lists side by side line up and a short list reads as
 * short rather than broken. `empty`, when given, replaces a list with no row
 * at all: why it is empty and what to do, rather than ten rows of '-'.
 */
export function TopList<Row>({
  title,
  columns,
  rows,
  rowKey,
  note,
  empty,
}: {
  title: string
  columns: TopColumn<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string
  note?: string
  empty?: ReactNode
}) {
  const padded: Array<Row | null> = [...rows.slice(0, TOP_LIST_SIZE), ...Array<null>(Math.max(0, TOP_LIST_SIZE - rows.length)).fill(null)]
  const align = (c: TopColumn<Row>) => (c.numeric ? 'text-right tabular-nums' : 'text-left')
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-baseline justify-between px-4 pt-3">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        {note && <span className="text-xs text-slate-500">{note}</span>}
      </div>
      {rows.length === 0 && empty ? (
        <div className="px-4 pb-4 pt-3 text-sm text-slate-600">{empty}</div>
      ) : (
        <table className="mt-2 w-full table-fixed text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={`px-4 py-1.5 font-medium ${align(c)}`}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {padded.map((row, i) => (
              <tr key={row === null ? `pad-${i}` : rowKey(row)} className="border-t border-slate-100">
                {columns.map((c) => (
                  <td key={c.header} className={`truncate px-4 py-1.5 ${align(c)} ${row === null ? 'text-slate-400' : 'text-slate-800'}`}>
                    {row === null ? PEOPLE_TEXT.pad : c.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
