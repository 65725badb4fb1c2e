import { useState } from 'react'
import { useApi } from '../../api/context.tsx'
import type { CompanyVisitor } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { PAGE_SIZE } from '../../constants.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatDateTime, formatRelative } from '../../ui/format.ts'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { Avatar } from './Avatar.tsx'
import { formatDuration } from './format.ts'

/** Widths fit the tab beside the panel on a 1440-pixel screen; a visitor's most viewed pages are their page count's tooltip. */
function columns(timezone: string): Column<CompanyVisitor>[] {
  return [
    {
      key: 'visitor',
      header: 'Visitor',
      width: 210,
      render: (v) => (
        <span className="flex items-center gap-2">
          <Avatar id={v.id} name={v.name} anonymous={v.anonymous} />
          <span className="min-w-0">
            <span className="block truncate font-medium text-slate-900">{v.name}</span>
            {v.email && v.email !== v.name && <span className="block truncate text-xs text-slate-500">{v.email}</span>}
          </span>
        </span>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      width: 145,
      render: (v) => (
        <span className="block min-w-0">
          <span className="block truncate">{v.role ?? '—'}</span>
          {v.location && <span className="block truncate text-xs text-slate-500">{v.location}</span>}
        </span>
      ),
    },
    { key: 'sessions', header: 'Sessions', width: 80, render: (v) => v.sessions },
    {
      key: 'pageViews',
      header: 'Page views',
      width: 85,
      render: (v) => <span title={v.topPages.length ? `Most viewed: ${v.topPages.map((p) => `${p.path} (${p.views})`).join(', ')}` : undefined}>{v.pageViews}</span>,
    },
    { key: 'events', header: 'Events', width: 70, render: (v) => v.events },
    { key: 'time', header: 'Time on site', width: 90, render: (v) => formatDuration(v.timeSpentOnSite) },
    { key: 'lastSeen', header: 'Last seen', width: 120, render: (v) => <span title={formatDateTime(v.lastSeen, timezone)}>{formatRelative(v.lastSeen)}</span> },
  ]
}

/**
 * Visitors: everyone of the company active in the past 30 days, most
 * recently seen first, with what they did; 20 a page (part 1 §9).
 */
export function VisitorsTab({ org, domain, timezone }: { org: string; domain: string; timezone: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.companies.visitors(org, domain, signal), [org, domain])
  const [page, setPage] = useState(1)
  return (
    <FetchView fetched={fetched}>
      {({ visitors }) => (
        <DataGrid
          columns={columns(timezone)}
          rows={visitors.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
          rowKey={(v) => v.id}
          total={visitors.length}
          page={page}
          onPage={setPage}
          empty="No users found"
        />
      )}
    </FetchView>
  )
}
