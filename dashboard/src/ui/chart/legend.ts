import { periodNames } from './axis.ts'
import { seriesColor } from './palette.ts'

/** One series of a chart: its name and a value per period. */
export interface Series {
  label: string
  data: number[]
}

export interface LegendRow {
  label: string
  value: string
  color: string
}

export interface LegendState {
  /** The period read: the label under the cursor, else the latest. */
  heading: string
  /** That period is not wholly counted (contracts' MetricGraph partial). */
  partial: boolean
  rows: LegendRow[]
  /** The sum across series, when there are several and their values add up (counts, not rates). */
  total?: string
}

/**
 * What the legend reads at one point of the x axis: each series' value there
 * and their total. `index` null (no cursor over the chart) reads the latest
 * period, so the legend never stands empty.
 */
export function legendAt(labels: string[], series: Series[], index: number | null, options: { format: (n: number) => string; partial?: readonly number[]; summable?: boolean }): LegendState {
  const i = index ?? labels.length - 1
  const rows = series.map((s, k) => ({ label: s.label, value: i >= 0 ? options.format(s.data[i] ?? 0) : '', color: seriesColor(s.label, k) }))
  const sum = series.reduce((n, s) => n + (s.data[i] ?? 0), 0)
  return {
    heading: i >= 0 && labels[i] !== undefined ? periodNames(labels).heading(labels[i]) : '',
    partial: (options.partial ?? []).includes(i),
    rows,
    total: series.length > 1 && options.summable !== false && i >= 0 ? options.format(sum) : undefined,
  }
}

/**
 * Every how many labels the x axis names one so that none overlap: the
 * smallest step whose spacing (`slot` pixels between neighbouring points)
 * fits the widest label and a gap.
 */
export function labelStep(slot: number, widest: number, gap = 12): number {
  if (!(slot > 0)) return 1
  return Math.max(1, Math.ceil((widest + gap) / slot))
}

/** The indices named on the axis: every `step`-th from the first. */
export const thinned = (count: number, step: number) => Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0)
