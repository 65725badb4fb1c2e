import type { LegendState } from './legend.ts'

/** How a partial period is drawn, as the legend's key shows it. */
function PartialSwatch({ kind }: { kind: 'line' | 'bar' }) {
  return kind === 'line' ? (
    <span aria-hidden className="w-4 border-t-2 border-dashed border-slate-500" />
  ) : (
    <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: 'repeating-linear-gradient(135deg, #64748b 0 2px, #fff 2px 4px)' }} />
  )
}

/**
 * The chart's legend: the period read (under the cursor, else the latest),
 * each series' value there and, for several series that add up, their total;
 * a period still under way (or cut by the range) is said to be partial.
 */
export function ChartLegend({ label, legend, kind, marksPartial }: { label: string; legend: LegendState; kind: 'line' | 'bar'; marksPartial: boolean }) {
  return (
    <div role="group" aria-label={`${label} legend`} data-testid="chart-legend" className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <span data-testid="legend-period" className="font-medium text-slate-800">
        {legend.heading}
        {legend.partial && <span className="ml-1.5 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">partial</span>}
      </span>
      <ul className="contents">
        {legend.rows.map((r, k) => (
          <li key={k} data-testid="legend-series" data-label={r.label} data-value={r.value} className="flex min-w-0 items-center gap-1.5">
            <span aria-hidden className="h-2.5 w-2.5 shrink-0 rounded-sm" style={{ background: r.color }} />
            <span className="max-w-48 truncate text-slate-600" title={r.label}>
              {r.label}
            </span>
            <span className="font-medium tabular-nums text-slate-900">{r.value}</span>
          </li>
        ))}
      </ul>
      {legend.total !== undefined && (
        <span data-testid="legend-total" className="flex items-center gap-1.5 border-l border-slate-200 pl-4">
          <span className="text-slate-600">Total</span>
          <span className="font-semibold tabular-nums text-slate-900">{legend.total}</span>
        </span>
      )}
      {marksPartial && (
        <span className="ml-auto flex items-center gap-1.5 text-xs text-slate-500">
          <PartialSwatch kind={kind} />
          Partial period: not over yet, or cut by the date range
        </span>
      )}
    </div>
  )
}
