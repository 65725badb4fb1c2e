import { Fragment, useRef, useState, type ReactNode } from 'react'
import { MIN_COLUMN_WIDTH, PAGE_SIZE } from '../../constants.ts'

export interface Column<Row> {
  key: string
  header: ReactNode
  /** Initial width in px; columns are resizable down to 60 px. */
  width?: number
  render: (row: Row) => ReactNode
  /** For a sortable column: how the rows are sorted by it now (aria-sort). */
  sort?: 'ascending' | 'descending' | 'none'
  /** Numbers sit right, in figures of one width, so that their digits line up. */
  numeric?: boolean
}

interface Props<Row> {
  columns: Column<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string
  /** The total number of rows across pages; omit for an unpaged grid. */
  total?: number
  page?: number
  onPage?: (page: number) => void
  onRowClick?: (row: Row) => void
  empty?: ReactNode
  /** What shows under a row when it is expanded; undefined keeps it collapsed. */
  expanded?: (row: Row) => ReactNode | undefined
}

const grouped = (n: number) => n.toLocaleString('en-US')

/** '21–40 of 57', '1–20 of 13,678': the page shown as a range of the total (part 1 §9), grouped as counts are everywhere else. */
export function pageRange(page: number, total: number, size = PAGE_SIZE): string {
  if (total === 0) return '0 of 0'
  const from = (page - 1) * size + 1
  const to = Math.min(page * size, total)
  return `${grouped(from)}–${grouped(to)} of ${grouped(total)}`
}

/**
 * A data grid: 20 rows a page shown as a range of the total, resizable
 * columns (60 px at least) and 'No data found' when empty.
 */
export function DataGrid<Row>({ columns, rows, rowKey, total, page = 1, onPage, onRowClick, empty = 'No data found', expanded }: Props<Row>) {
  const [widths, setWidths] = useState<Record<string, number>>(() => Object.fromEntries(columns.map((c) => [c.key, c.width ?? 160])))
  const drag = useRef<{ key: string; startX: number; startWidth: number } | null>(null)

  const startResize = (key: string) => (e: React.PointerEvent) => {
    e.preventDefault()
    drag.current = { key, startX: e.clientX, startWidth: widths[key] ?? 160 }
    const move = (ev: PointerEvent) => {
      const d = drag.current
      if (!d) return
      setWidths((w) => ({ ...w, [d.key]: Math.max(MIN_COLUMN_WIDTH, d.startWidth + ev.clientX - d.startX) }))
    }
    const up = () => {
      drag.current = null
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }

  const pages = total === undefined ? 1 : Math.max(1, Math.ceil(total / PAGE_SIZE))
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      <div className="overflow-x-auto">
        <table className="w-full table-fixed border-collapse text-sm">
          <colgroup>
            {columns.map((c) => (
              <col key={c.key} style={{ width: widths[c.key] }} />
            ))}
          </colgroup>
          <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" aria-sort={c.sort} className={`relative px-4 py-2 font-medium ${c.numeric ? 'text-right' : ''}`} style={{ width: widths[c.key] }}>
                  {c.header}
                  <span
                    role="separator"
                    aria-orientation="vertical"
                    aria-label={`Resize ${typeof c.header === 'string' ? c.header : c.key}`}
                    onPointerDown={startResize(c.key)}
                    className="absolute inset-y-0 right-0 w-1.5 cursor-col-resize hover:bg-indigo-300"
                  />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-10 text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const detail = expanded?.(row)
                return (
                  <Fragment key={rowKey(row)}>
                    <tr
                      onClick={onRowClick ? () => onRowClick(row) : undefined}
                      // A row that opens something is reached with Tab and opened with
                      // Enter or Space, as with the mouse; keys pressed inside its cells'
                      // own controls stay theirs.
                      tabIndex={onRowClick ? 0 : undefined}
                      onKeyDown={
                        onRowClick
                          ? (e) => {
                              if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return
                              e.preventDefault()
                              onRowClick(row)
                            }
                          : undefined
                      }
                      className={`border-t border-slate-100 ${onRowClick ? 'cursor-pointer outline-none hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500' : ''}`}
                    >
                      {columns.map((c) => (
                        <td key={c.key} className={`truncate px-4 py-2 ${c.numeric ? 'text-right tabular-nums' : ''}`}>
                          {c.render(row)}
                        </td>
                      ))}
                    </tr>
                    {detail !== undefined && (
                      <tr className="bg-slate-50/60">
                        <td colSpan={columns.length} className="px-4 py-3">
                          {detail}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                )
              })
            )}
          </tbody>
        </table>
      </div>
      {total !== undefined && onPage && (
        <div className="flex items-center justify-end gap-3 border-t border-slate-100 px-4 py-2 text-sm text-slate-600">
          <span>{pageRange(page, total)}</span>
          <button type="button" aria-label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)} className="rounded px-2 py-1 hover:bg-slate-100 disabled:opacity-40">
            ‹
          </button>
          <button type="button" aria-label="Next page" disabled={page >= pages} onClick={() => onPage(page + 1)} className="rounded px-2 py-1 hover:bg-slate-100 disabled:opacity-40">
            ›
          </button>
        </div>
      )}
    </div>
  )
}
