import type { ReactNode } from 'react'
import type { MetricGraph } from '../../../api/types.ts'
import { SeriesChart } from '../../../ui/chart/SeriesChart.tsx'
import { percent } from '../../../ui/chart/FunnelChart.tsx'
import { shortNumber } from '../../../ui/format.ts'
import type { Figure } from './useFeatureReport.ts'

/**
 * The feature report's templates (part 3 §3: split, count, counts, graph,
 * list), each a card with its title as its accessible name, so a figure can
 * be found by what it says.
 */
function Card({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={`rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      <h2 className="mb-3 text-sm font-medium text-slate-600">{title}</h2>
      {children}
    </section>
  )
}

function BigFigure({ label, value, size = 'text-3xl' }: { label: string; value: number; size?: string }) {
  return (
    <div>
      <p aria-label={`${label}: ${value}`} data-value={value} className={`${size} font-semibold tabular-nums tracking-tight text-slate-900`}>
        {shortNumber(value)}
      </p>
      <p className="mt-1 text-xs text-slate-500">{label}</p>
    </div>
  )
}

/** counts: several numbers of one measure side by side (today, 7 days, 30 days, the year). */
export function CountsCard({ title, items, className }: { title: string; items: Array<{ label: string; value: number }>; className?: string }) {
  return (
    <Card title={title} className={className}>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {items.map((i) => (
          <BigFigure key={i.label} label={i.label} value={i.value} />
        ))}
      </div>
    </Card>
  )
}

/** count: one number. */
export function CountCard({ title, value, format = shortNumber }: { title: string; value: number; format?: (n: number) => string }) {
  return (
    <Card title={title}>
      <p aria-label={`${title}: ${format(value)}`} data-value={value} className="text-3xl font-semibold tabular-nums tracking-tight text-slate-900">
        {format(value)}
      </p>
    </Card>
  )
}

/** split: a whole cut in two, the feature's share and the rest, as a bar with both counts. */
export function SplitCard({ title, figure, used, rest }: { title: string; figure: Figure; used: string; rest: string }) {
  const other = Math.max(0, figure.outOf - figure.value)
  const share = percent(figure.value, figure.outOf)
  return (
    <Card title={title}>
      <p className="text-3xl font-semibold tabular-nums tracking-tight text-slate-900" aria-label={`${title}: ${share}`}>
        {share}
      </p>
      <div className="mt-3 flex h-3 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        <div className="bg-indigo-600" style={{ width: figure.outOf ? `${(figure.value / figure.outOf) * 100}%` : 0 }} />
      </div>
      <ul className="mt-3 flex flex-wrap justify-between gap-2 text-xs text-slate-600">
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="h-2 w-2 rounded-full bg-indigo-600" />
          {used}: <span className="font-medium tabular-nums text-slate-900">{shortNumber(figure.value)}</span>
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="h-2 w-2 rounded-full bg-slate-300" />
          {rest}: <span className="font-medium tabular-nums text-slate-900">{shortNumber(other)}</span>
        </li>
      </ul>
    </Card>
  )
}

/** graph: a line over the periods. */
export function GraphCard({ title, graph }: { title: string; graph?: MetricGraph }) {
  const labels = graph?.data.labels ?? []
  const series = graph?.data.datasets.length ? graph.data.datasets : [{ label: title, data: labels.map(() => 0) }]
  return (
    <Card title={title}>
      <SeriesChart kind="line" labels={labels} series={series} label={title} height={220} partial={graph?.data.partial} />
    </Card>
  )
}

const monthName = (label: string) => new Date(`${label.slice(0, 7)}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** list: one row per period, newest first. */
export function ListCard({ title, graph, column }: { title: string; graph?: MetricGraph; column: string }) {
  const labels = graph?.data.labels ?? []
  const values = graph?.data.datasets[0]?.data ?? []
  const rows = labels.map((label, i) => ({ label, value: values[i] ?? 0 })).reverse()
  return (
    <Card title={title}>
      <table aria-label={title} className="w-full text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1.5 text-left font-medium">Month</th>
            <th className="py-1.5 text-right font-medium">{column}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} className="border-t border-slate-100">
              <td className="py-1.5 text-slate-700">{monthName(r.label)}</td>
              <td className="py-1.5 text-right tabular-nums">{shortNumber(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
