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

function columns(timezone: string): Column<CompanyVisitor>[] {
  return [
    {
      key: 'visitor',
      header: 'Visitor',
      width: 240,
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
    { key: 'role', header: 'Role', width: 150, render: (v) => v.role ?? '—' },
    { key: 'location', header: 'Location', width: 130, render: (v) => v.location ?? '—' },
    { key: 'sessions', header: 'Sessions', width: 90, render: (v) => v.sessions },
    { key: 'pageViews', header: 'Page views', width: 100, render: (v) => v.pageViews },
    { key: 'events', header: 'Events', width: 80, render: (v) => v.events },
    { key: 'time', header: 'Time on site', width: 110, render: (v) => formatDuration(v.timeSpentOnSite) },
    {
      key: 'topPages',
      header: 'Top pages',
      width: 200,
      render: (v) => <span title={v.topPages.map((p) => `${p.path} (${p.views})`).join('\n')}>{v.topPages.map((p) => p.path).join(', ') || '—'}</span>,
    },
    { key: 'lastSeen', header: 'Last seen', width: 130, render: (v) => <span title={formatDateTime(v.lastSeen, timezone)}>{formatRelative(v.lastSeen)}</span> },
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
