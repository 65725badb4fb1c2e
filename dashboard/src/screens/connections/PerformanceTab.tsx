import { useId } from 'react'
import { SOURCES_TEXT } from '@fl0/contracts/sources'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { LineChart } from '../../ui/chart/LineChart.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { shortNumber } from '../../ui/format.ts'

function StatCard({ label, value }: { label: string; value: number }) {
  const id = useId()
  return (
    <div role="group" aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4">
      <p id={id} className="text-sm text-slate-600">
        {label}
      </p>
      <p data-testid="stat-value" data-value={value} title={value.toLocaleString('en-US')} className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
        {shortNumber(value)}
      </p>
      <p className="text-xs text-slate-400">All time</p>
    </div>
  )
}

/** Performance (part 1 §2): 'Total events', 'Unique users' and 'Events (last 30 days)' of one source. */
export function PerformanceTab({ org, sourceId }: { org: string; sourceId: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.sources.metrics(org, sourceId, signal), [org, sourceId])
  return (
    <FetchView fetched={fetched}>
      {(m) => (
        <div className="space-y-6">
          <div className="grid grid-cols-2 gap-4">
            <StatCard label={SOURCES_TEXT.totalEvents} value={m.total} />
            <StatCard label={SOURCES_TEXT.uniqueUsers} value={m.unique_users} />
          </div>
          <section aria-label={SOURCES_TEXT.eventsChart} className="rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="mb-3 text-sm font-medium text-slate-700">{SOURCES_TEXT.eventsChart}</h3>
            <LineChart label={SOURCES_TEXT.eventsChart} points={m.total_30d} />
          </section>
        </div>
      )}
    </FetchView>
  )
}
