import { useState } from 'react'
import type { AdminGridFilters, AdminGridName, AdminRow } from '../../../api/admin.ts'
import { useApi } from '../../../api/context.tsx'
import { ApiError } from '../../../api/errors.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../../ui/grid/DataGrid.tsx'
import { usePage } from '../../../ui/grid/usePage.ts'
import { cellText, columnKeys, columnWidth } from './cells.ts'
import { RowDetailModal } from './RowDetailModal.tsx'

interface Numbered {
  n: number
  row: AdminRow
}

/** A refused filter ('IP address must be a valid…') says so in the error panel, rather than the summary message. */
function fieldMessages(error: unknown): never {
  if (error instanceof ApiError && error.errors.length > 0) throw new ApiError(error.status, error.errors.map((e) => e.message).join(' '), error.errors)
  throw error
}

/** Refetch by this name to load the grid again (the universal table after an import). */
export const gridRefetchName = (grid: AdminGridName) => `admin-${grid}`

/**
 * An admin grid (part 1 §2): one table's raw rows, 20 a page, with every
 * column the rows have, since these screens are for inspecting the data as
 * stored. The page goes back to 1 whenever the filters change, in the same
 * render, so no request for a stale page goes out. A row opens its detail.
 */
export function AdminGrid<G extends AdminGridName>({ grid, filters, title }: { grid: G; filters: AdminGridFilters[G]; title: string }) {
  const api = useApi()
  const [page, setPage] = usePage(filters)
  const filterKey = JSON.stringify(filters)
  const fetched = useFetch((signal) => api.admin.table(grid, filters, page, signal).catch(fieldMessages), [grid, filterKey, page], { name: gridRefetchName(grid) })
  const [open, setOpen] = useState<AdminRow | null>(null)

  return (
    <>
      <FetchView fetched={fetched}>
        {({ data, total }) => {
          const keys = columnKeys(data)
          const columns: Column<Numbered>[] = keys.map((key) => ({
            key,
            // The field's own name, as the detail modal and the API have it.
            header: <span className="font-mono normal-case tracking-normal">{key}</span>,
            width: columnWidth(key, data),
            render: ({ row }) => {
              const text = cellText(row[key])
              return <span title={text}>{text}</span>
            },
          }))
          return (
            <DataGrid
              // New columns, new widths: the grid takes its widths when it mounts.
              key={keys.join('\u0000')}
              columns={columns.length ? columns : [{ key: 'empty', header: '', render: () => null }]}
              rows={data.map((row, n) => ({ n, row }))}
              rowKey={(r) => `${page}:${r.n}`}
              total={total}
              page={page}
              onPage={setPage}
              onRowClick={(r) => setOpen(r.row)}
            />
          )
        }}
      </FetchView>
      {open && <RowDetailModal title={`${title} row`} row={open} onClose={() => setOpen(null)} />}
    </>
  )
}
