import type { GraphLayout, MeasureBy } from '@fl0/contracts/metrics'
import type { MetricGraph } from '../../../api/types.ts'
import { FunnelChart } from '../../../ui/chart/FunnelChart.tsx'
import { LineChart } from '../../../ui/chart/LineChart.tsx'
import { SeriesChart } from '../../../ui/chart/SeriesChart.tsx'
import { shortLabel } from '../../../ui/chart/axis.ts'
import { seriesColor } from '../../../ui/chart/palette.ts'
import { valueFormat } from './format.ts'

/** A table: one row per series, one column per period (the contract's orientation). */
function MetricTable({ graph, format }: { graph: MetricGraph; format: (n: number) => string }) {
  const { labels, datasets } = graph.data
  return (
    <div className="max-h-96 overflow-auto rounded-md border border-slate-200">
      <table aria-label={graph.header.name} className="w-full text-sm">
        <thead className="sticky top-0 bg-slate-50 text-xs text-slate-500">
          <tr>
            <th className="sticky left-0 bg-slate-50 px-3 py-2 text-left font-medium" />
            {labels.map((l, i) => (
              <th key={`${i}-${l}`} className="whitespace-nowrap px-3 py-2 text-right font-medium">
                {shortLabel(l)}
                {graph.data.partial?.includes(i) && <span className="ml-1 rounded bg-amber-50 px-1 text-[11px] text-amber-800">partial</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {datasets.map((d, k) => (
            <tr key={k} className="border-t border-slate-100">
              <th scope="row" className="sticky left-0 whitespace-nowrap bg-white px-3 py-1.5 text-left font-medium text-slate-700">
                {d.label}
              </th>
              {labels.map((l, i) => (
                <td key={`${i}-${l}`} className="px-3 py-1.5 text-right tabular-nums">
                  {format(d.data[i] ?? 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** 'Oct 24 – Nov 22' for the metric graph's one label, an ISO interval; any other label as it is. */
export function rangeLabel(label: string | undefined): string {
  const [from, to] = (label ?? '').split('/')
  return from && to ? `${shortLabel(from)} – ${shortLabel(to)}` : (label ?? '')
}

function BigNumber({ graph, format }: { graph: MetricGraph; format: (n: number) => string }) {
  const value = graph.header.value ?? graph.data.datasets[0]?.data[0] ?? 0
  const rest = graph.data.datasets.slice(1)
  const range = rangeLabel(graph.data.labels[0])
  return (
    <div className="flex flex-col items-center justify-center gap-3 py-10">
      <p role="img" aria-label={`${graph.header.name}: ${value}`} data-value={value} className="text-6xl font-semibold tabular-nums tracking-tight text-slate-900">
        {format(value)}
      </p>
      {range && <p className="text-sm text-slate-500">{range}</p>}
      {rest.length > 0 && (
        <ul className="flex flex-wrap justify-center gap-4 text-sm text-slate-600">
          {graph.data.datasets.map((d, k) => (
            <li key={k} className="flex items-center gap-1.5">
              <span aria-hidden className="h-2 w-2 rounded-full" style={{ background: seriesColor(d.label, k) }} />
              {d.label}: <span className="font-medium tabular-nums">{format(d.data[0] ?? 0)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/**
 * Draws a metric graph by its type: lines or bars (uPlot), a table, one big
 * number, or a funnel. `graph` undefined: the empty line graph of an empty
 * metric. This module and the chart code it pulls in load as their own chunk.
 */
export default function GraphView({ graph, layout, measureBy }: { graph?: MetricGraph; layout: GraphLayout; measureBy: MeasureBy }) {
  if (!graph) return <LineChart points={[]} label="Empty graph" height={280} />
  const format = valueFormat(measureBy)
  const { labels, datasets } = graph.data
  switch (graph.type) {
    case 'table':
      return <MetricTable graph={graph} format={format} />
    case 'metric':
      return <BigNumber graph={graph} format={format} />
    case 'funnel':
      return <FunnelChart steps={labels} series={datasets} label={graph.header.name} headline={graph.header.value === undefined ? undefined : `${format(graph.header.value)} ${measureBy === 'conversionRate' ? 'converted' : 'completed'}`} />
    default:
      return (
        <SeriesChart
          kind={graph.type === 'bar' ? 'bar' : 'line'}
          layout={graph.layout ?? layout}
          labels={labels}
          series={datasets}
          label={graph.header.name}
          format={format}
          partial={graph.data.partial}
          summable={measureBy !== 'conversionRate'}
        />
      )
  }
}
