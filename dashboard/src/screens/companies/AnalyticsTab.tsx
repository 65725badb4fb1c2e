import { useApi } from '../../api/context.tsx'
import type { TopEvent, TopPage } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { LineChart } from '../../ui/chart/LineChart.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { shortNumber } from '../../ui/format.ts'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'

const PAGE_COLUMNS: Column<TopPage>[] = [
  { key: 'path', header: 'Page', width: 220, render: (p) => <span title={p.path}>{p.path || '(no path)'}</span> },
  { key: 'title', header: 'Title', width: 220, render: (p) => p.title || '—' },
  { key: 'views', header: 'Views', width: 90, render: (p) => p.views },
  { key: 'visitors', header: 'Visitors', width: 90, render: (p) => p.visitors },
]

const EVENT_COLUMNS: Column<TopEvent>[] = [
  { key: 'name', header: 'Event', width: 260, render: (e) => e.name },
  { key: 'count', header: 'Count', width: 90, render: (e) => e.count },
  { key: 'visitors', header: 'Visitors', width: 90, render: (e) => e.visitors },
]

function Chart({ title, total, points }: { title: string; total: string; points: Array<{ date: string; value: number }> }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-baseline justify-between">
        <h3 className="text-sm font-semibold">{title}</h3>
        <span className="text-lg font-semibold">{total}</span>
      </div>
      <LineChart points={points} label={title} height={160} />
    </section>
  )
}

/**
 * Analytics: the past 30 days per day (page views, visitors, events) and the
 * company's most viewed pages and most frequent events.
 */
export function AnalyticsTab({ org, domain }: { org: string; domain: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.companies.analytics(org, domain, signal), [org, domain])
  const sum = (points: Array<{ value: number }>) => shortNumber(points.reduce((n, p) => n + p.value, 0))
  return (
    <FetchView fetched={fetched}>
      {(a) => (
        <div className="space-y-4">
          <div className="grid gap-4 xl:grid-cols-2">
            <Chart title="Page views per day" total={sum(a.pageViews)} points={a.pageViews} />
            <Chart title="Events per day" total={sum(a.events)} points={a.events} />
          </div>
          <Chart title="Visitors per day" total={`Peak ${shortNumber(Math.max(0, ...a.visitors.map((p) => p.value)))}`} points={a.visitors} />
          <section aria-labelledby="top-pages" className="space-y-2">
            <h3 id="top-pages" className="text-sm font-semibold">
              Top pages
            </h3>
            <DataGrid columns={PAGE_COLUMNS} rows={a.topPages} rowKey={(p) => p.path} />
          </section>
          <section aria-labelledby="top-events" className="space-y-2">
            <h3 id="top-events" className="text-sm font-semibold">
              Top events
            </h3>
            <DataGrid columns={EVENT_COLUMNS} rows={a.topEvents} rowKey={(e) => e.name} />
          </section>
        </div>
      )}
    </FetchView>
  )
}
