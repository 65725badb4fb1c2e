import { useRef } from 'react'
import type uPlot from 'uplot'
import type { BacktestPredictions } from '../../../../api/types.ts'
import { useUplot } from '../../../../ui/chart/useUplot.ts'
import { shortNumber } from '../../../../ui/format.ts'
import { count, scoreRange } from '../../numbers.ts'

type Bucket = BacktestPredictions['buckets'][number]

const HEIGHT = 300
export const CHART_COLORS = { users: '#cbd5e1', predicted: '#4f46e5', reached: '#d97706' } as const

/** The chart's data: per bucket (x = its index), users, and the mean predicted score and the share that reached the metric in percent; an empty bucket has neither. */
export function calibrationData(buckets: Bucket[]) {
  return {
    labels: buckets.map((b) => scoreRange(b.from, b.to)),
    users: buckets.map((b) => b.users),
    predicted: buckets.map((b) => (b.users ? b.meanScore * 100 : null)),
    reached: buckets.map((b) => (b.users ? (b.reached / b.users) * 100 : null)),
  }
}

const pct = (v: number | null) => (v == null ? '–' : `${v.toFixed(1)}%`)

function options(UPlot: typeof uPlot, labels: string[], width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    // The key above the chart says what each line is; the table beside it has every number.
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: true } },
    scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, pct: { range: [0, 100] }, users: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
    axes: [
      { stroke: '#64748b', grid: { show: false }, incrs: [1], space: 40, values: (_u, ticks) => ticks.map((t) => labels[t] ?? '') },
      { scale: 'pct', stroke: '#64748b', grid: { stroke: '#f1f5f9' }, size: 52, values: (_u, ticks) => ticks.map((t) => `${t}%`) },
      { scale: 'users', side: 1, stroke: '#94a3b8', grid: { show: false }, size: 56, values: (_u, ticks) => ticks.map((t) => shortNumber(t)) },
    ],
    series: [
      { label: 'Score', value: (_u, v) => (v == null ? '' : (labels[v] ?? '')) },
      { label: 'Users', scale: 'users', stroke: CHART_COLORS.users, fill: CHART_COLORS.users, width: 0, points: { show: false }, paths: UPlot.paths.bars!({ size: [0.6] }), value: (_u, v) => (v == null ? '' : count(v)) },
      { label: 'Mean predicted score', scale: 'pct', stroke: CHART_COLORS.predicted, width: 2, dash: [6, 4], points: { show: true, size: 6 }, value: (_u, v) => pct(v) },
      { label: 'Reached the metric', scale: 'pct', stroke: CHART_COLORS.reached, width: 2.5, points: { show: true, size: 7 }, value: (_u, v) => pct(v) },
    ],
  }
}

/**
 * How true the backtest's scores were, per tenth of score: bars of users
 * (right axis), and two lines on the left axis: the mean score the model
 * gave them and the share that really reached the metric. Where the lines
 * run together the scores can be read as chances; where the reached line
 * climbs with the score, the ranking holds. Drawn by uPlot where a canvas
 * exists (the bucket table beside it carries the same numbers for everyone).
 */
export function CalibrationChart({ buckets, label }: { buckets: Bucket[]; label: string }) {
  const box = useRef<HTMLDivElement>(null)
  const key = JSON.stringify(buckets)

  useUplot(
    box,
    key,
    (UPlot, width) => {
      const d = calibrationData(buckets)
      return { opts: options(UPlot, d.labels, width), data: [d.labels.map((_, i) => i), d.users, d.predicted, d.reached] as uPlot.AlignedData }
    },
    { minWidth: 280, height: HEIGHT },
  )

  return <div ref={box} role="img" aria-label={label} data-buckets={buckets.length} className="w-full min-w-0" />
}
