import { useEffect, useRef, useState } from 'react'
import type uPlot from 'uplot'
import { shortNumber } from '../format.ts'
import { countTicks, isDateLabel, periodNames, toSeconds } from './axis.ts'
import { ChartLegend } from './ChartLegend.tsx'
import { labelStep, legendAt, thinned } from './legend.ts'
import { seriesColor } from './palette.ts'
import { useUplot } from './useUplot.ts'
import type { Series } from './legend.ts'

export type { Series } from './legend.ts'

interface Props {
  /** The x axis: dates (a time axis for lines) or names (steps, breakdown values). */
  labels: string[]
  series: Series[]
  kind: 'line' | 'bar'
  /** Bars with several series: piled on each other, or side by side. */
  layout?: 'stacked' | 'side'
  /** The chart's accessible name. */
  label: string
  height?: number
  format?: (n: number) => string
  /** Indices of labels whose period is not wholly counted: a dashed segment or a hatched bar, and marked in the legend. */
  partial?: readonly number[]
  /** Whether the series' values add up to a total (counts do, rates do not). */
  summable?: boolean
}

/** The x axis's font, measured to thin its labels out. */
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
let measurer: CanvasRenderingContext2D | null | undefined
function textWidth(text: string): number {
  measurer ??= document.createElement('canvas').getContext('2d')
  if (!measurer) return text.length * 7
  measurer.font = AXIS_FONT
  return measurer.measureText(text).width
}

/** A line's values where it is drawn solid (complete periods) and dashed (segments touching a partial period), null elsewhere. */
function splitPartial(data: number[], partial: readonly number[]): { solid: (number | null)[]; dashed: (number | null)[] } {
  const cut = new Set(partial)
  const near = (i: number) => cut.has(i) || cut.has(i - 1) || cut.has(i + 1)
  return {
    solid: data.map((v, i) => (cut.has(i) ? null : v)),
    dashed: data.map((v, i) => (near(i) ? v : null)),
  }
}

/** White stripes over a bar group's column: its bars read as hatched. */
function hatch(u: uPlot, x0: number, x1: number) {
  const { ctx } = u
  const { top, height } = u.bbox
  const px = window.devicePixelRatio || 1
  ctx.save()
  ctx.beginPath()
  ctx.rect(x0, top, x1 - x0, height)
  ctx.clip()
  ctx.strokeStyle = 'rgba(255,255,255,0.75)'
  ctx.lineWidth = 2.5 * px
  ctx.beginPath()
  for (let x = x0 - height; x < x1; x += 7 * px) {
    ctx.moveTo(x, top + height)
    ctx.lineTo(x + height, top)
  }
  ctx.stroke()
  ctx.restore()
}

/** Where each series' bars sit in its group, in x-scale units (one group per label, one unit apart). */
export function barSlots(seriesCount: number, layout: 'stacked' | 'side') {
  const group = 0.8
  if (layout === 'stacked' || seriesCount <= 1) return { offset: () => -0.3, width: 0.6 }
  const width = group / seriesCount
  return { offset: (s: number) => -group / 2 + s * width + width * 0.05, width: width * 0.9 }
}

/** Running totals below and at each series, per label: where stacked bars start and end. */
export function stackOf(series: Series[]) {
  const n = Math.max(0, ...series.map((s) => s.data.length))
  const below = series.map(() => new Array<number>(n).fill(0))
  const top = series.map(() => new Array<number>(n).fill(0))
  for (let i = 0; i < n; i++) {
    let sum = 0
    series.forEach((s, k) => {
      below[k]![i] = sum
      sum += s.data[i] ?? 0
      top[k]![i] = sum
    })
  }
  return { below, top, max: Math.max(0, ...top.flatMap((t) => t)) }
}

type BuildProps = Required<Omit<Props, 'format' | 'partial' | 'summable'>> & Pick<Props, 'format'> & { partial: readonly number[]; onCursor: (index: number | null) => void }

function options(UPlot: typeof uPlot, props: BuildProps, width: number): { opts: uPlot.Options; data: uPlot.AlignedData } {
  const { labels, series, kind, layout, height, partial } = props
  const format = props.format ?? shortNumber
  const time = kind === 'line' && labels.length > 0 && labels.every(isDateLabel)
  const xs = time ? labels.map(toSeconds) : labels.map((_, i) => i)
  const stack = kind === 'bar' && layout === 'stacked' && series.length > 1 ? stackOf(series) : undefined
  const top = stack ? stack.max : Math.max(0, ...series.flatMap((s) => s.data))
  // Counts (every value whole) get whole ticks, the top one a tick: no '0.4 users' on an axis whose most is 1. Rates keep uPlot's.
  const integral = series.every((s) => s.data.every((v) => Number.isInteger(v)))
  const yTicks = integral ? countTicks(top, (height - 60) / 30) : undefined
  const slots = barSlots(series.length, layout)
  const facet = (values: (s: number) => number[]) => ({ unit: 1 as uPlot.Series.BarsPathBuilderFacetUnit, values: (_u: uPlot, seriesIdx: number) => values(seriesIdx - 1) })
  // A line's partial periods: its solid series stops short of them, and a dashed twin draws the segments that reach them.
  const dashedLines = kind === 'line' && partial.length > 0

  const uSeries: uPlot.Series[] = series.map((s, k) => {
    const color = seriesColor(s.label, k)
    if (kind === 'line') return { label: s.label, stroke: color, width: 2, fill: series.length === 1 ? `${color}1a` : undefined }
    return {
      label: s.label,
      stroke: color,
      fill: color,
      width: 0,
      points: { show: false },
      paths: UPlot.paths.bars!({
        disp: {
          x0: facet(() => xs.map((x) => x + slots.offset(k))),
          size: facet(() => [slots.width]),
          ...(stack ? { y0: facet((i) => stack.below[i]!), y1: facet((i) => stack.top[i]!) } : {}),
        },
      }),
    }
  })
  const dashedSeries: uPlot.Series[] = dashedLines
    ? series.map((s, k) => {
        const color = seriesColor(s.label, k)
        return { label: `${s.label} (partial)`, stroke: color, width: 2, dash: [6, 5], fill: series.length === 1 ? `${color}0d` : undefined }
      })
    : []
  const lines = dashedLines ? series.map((s) => splitPartial(s.data, partial)) : undefined
  const ys = lines ? [...lines.map((l) => l.solid), ...lines.map((l) => l.dashed)] : series.map((s) => s.data)

  // The x axis names the points themselves (each period's first day, each bar group), as many as fit without overlapping.
  const name = periodNames(labels).axis
  const widest = Math.max(0, ...labels.map((l) => textWidth(name(l))))
  let named: number[] = []
  const splits = (u: uPlot) => {
    const plot = u.bbox.width / (window.devicePixelRatio || 1)
    const slot = plot / Math.max(1, time ? labels.length - 1 : labels.length)
    named = thinned(labels.length, labelStep(slot, widest))
    return named.map((i) => xs[i]!)
  }
  // The names on the axis and where they stand (CSS pixels from the chart's left), for a test to check that none overlap: the canvas has no boxes to read.
  const reportTicks = (u: uPlot) => {
    const left = u.bbox.left / (window.devicePixelRatio || 1)
    const ticks = named.map((i) => {
      const text = name(labels[i]!)
      const centre = left + u.valToPos(xs[i]!, 'x')
      const w = textWidth(text)
      return { text, left: Math.round(centre - w / 2), right: Math.round(centre + w / 2) }
    })
    const box = u.root.parentElement
    if (box) box.dataset.xTicks = JSON.stringify(ticks)
  }
  const nameOf = (t: number) => {
    const i = time ? xs.indexOf(t) : t
    return Number.isInteger(i) && labels[i] !== undefined ? name(labels[i]) : ''
  }

  const opts: uPlot.Options = {
    width,
    height,
    // The legend is the chart's own (ChartLegend): uPlot's reads "Date:" and a colon per series with no value until hovered.
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: kind === 'line' } },
    scales: {
      x: time ? { time: true } : { time: false, range: [-0.5, Math.max(labels.length, 1) - 0.5] },
      y: { range: () => (yTicks ? [0, yTicks.at(-1)!] : [0, Math.max(top * 1.08, 1)]) },
    },
    axes: [
      { stroke: '#64748b', font: AXIS_FONT, grid: time ? { stroke: '#f1f5f9' } : { show: false }, splits, values: (_u, ticks) => ticks.map(nameOf) },
      { stroke: '#64748b', font: AXIS_FONT, grid: { stroke: '#f1f5f9' }, size: 52, ...(yTicks ? { splits: () => yTicks } : {}), values: (_u, ticks) => ticks.map((t) => format(t)) },
    ],
    series: [{}, ...uSeries, ...dashedSeries],
    hooks: {
      setCursor: [(u) => props.onCursor(u.cursor.idx ?? null)],
      // A partial bar's column is shaded behind the bars, so that a period under way with nothing counted yet is marked too.
      drawClear:
        kind === 'bar'
          ? [
              (u) => {
                u.ctx.save()
                u.ctx.fillStyle = 'rgba(148, 163, 184, 0.12)'
                for (const i of partial) {
                  if (xs[i] === undefined) continue
                  const x0 = u.valToPos(xs[i] - 0.5, 'x', true)
                  u.ctx.fillRect(x0, u.bbox.top, u.valToPos(xs[i] + 0.5, 'x', true) - x0, u.bbox.height)
                }
                u.ctx.restore()
              },
            ]
          : [],
      draw: [
        (u) => {
          if (kind === 'bar') for (const i of partial) if (xs[i] !== undefined) hatch(u, u.valToPos(xs[i] - 0.4, 'x', true), u.valToPos(xs[i] + 0.4, 'x', true))
          reportTicks(u)
        },
      ],
    },
  }
  return { opts, data: [xs, ...ys] as uPlot.AlignedData }
}

/**
 * Lines or bars of one or more series, drawn by uPlot on a canvas that follows
 * its container's width, with a legend that reads the values under the cursor.
 * Bars of several series pile up (stacked) or stand side by side. The chart is
 * rebuilt when its data changes: metric graphs are small, and a rebuild keeps
 * the scales and bar layout in step with the data.
 */
export function SeriesChart({ labels, series, kind, layout = 'stacked', label, height = 280, format, partial = [], summable = true }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const [cursor, setCursor] = useState<number | null>(null)
  const key = JSON.stringify([labels, series, kind, layout, height, partial])

  // A new chart has no cursor yet: the legend shows the latest period.
  useEffect(() => setCursor(null), [key])
  useUplot(box, key, (UPlot, width) => options(UPlot, { labels, series, kind, layout, height, label, format, partial, onCursor: setCursor }, width), { minWidth: 200, height })

  const legend = legendAt(labels, series, cursor, { format: format ?? shortNumber, partial, summable })
  return (
    <div>
      <div ref={box} role="img" aria-label={label} data-kind={kind} data-layout={layout} data-series={series.length} data-points={labels.length} data-partial={partial.join(',')} className="w-full" />
      {labels.length > 0 && series.length > 0 && <ChartLegend label={label} legend={legend} kind={kind} marksPartial={partial.length > 0} />}
    </div>
  )
}
