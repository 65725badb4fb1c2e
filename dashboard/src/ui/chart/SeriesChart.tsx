import { useEffect, useRef } from 'react'
import type uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { shortNumber } from '../format.ts'
import { canDraw, isDateLabel, shortLabel, toSeconds } from './axis.ts'
import { seriesColor } from './palette.ts'

export interface Series {
  label: string
  data: number[]
}

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

function options(UPlot: typeof uPlot, props: Required<Omit<Props, 'format'>> & Pick<Props, 'format'>, width: number): { opts: uPlot.Options; data: uPlot.AlignedData } {
  const { labels, series, kind, layout, height } = props
  const format = props.format ?? shortNumber
  const time = kind === 'line' && labels.length > 0 && labels.every(isDateLabel)
  const xs = time ? labels.map(toSeconds) : labels.map((_, i) => i)
  const stack = kind === 'bar' && layout === 'stacked' && series.length > 1 ? stackOf(series) : undefined
  const top = stack ? stack.max : Math.max(0, ...series.flatMap((s) => s.data))
  const slots = barSlots(series.length, layout)
  const facet = (values: (s: number) => number[]) => ({ unit: 1 as uPlot.Series.BarsPathBuilderFacetUnit, values: (_u: uPlot, seriesIdx: number) => values(seriesIdx - 1) })

  const uSeries: uPlot.Series[] = series.map((s, k) => {
    const color = seriesColor(s.label, k)
    if (kind === 'line') return { label: s.label, stroke: color, width: 2, fill: series.length === 1 ? `${color}1a` : undefined, value: (_u, v) => (v == null ? '' : format(v)) }
    return {
      label: s.label,
      stroke: color,
      fill: color,
      width: 0,
      value: (_u, v) => (v == null ? '' : format(v)),
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

  const opts: uPlot.Options = {
    width,
    height,
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false }, points: { show: kind === 'line' } },
    scales: {
      x: time ? { time: true } : { time: false, range: [-0.5, Math.max(labels.length, 1) - 0.5] },
      y: { range: () => [0, Math.max(top * 1.08, 1)] },
    },
    axes: [
      time
        ? { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, values: (_u, ticks) => ticks.map((t) => shortLabel(new Date(t * 1000).toISOString().slice(0, 10))) }
        : {
            stroke: '#64748b',
            grid: { show: false },
            incrs: [1, 2, 3, 5, 7, 10, 14, 20, 30, 50, 100],
            space: 36,
            values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && labels[t] !== undefined ? shortLabel(labels[t]!) : '')),
          },
      { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, size: 52, values: (_u, ticks) => ticks.map((t) => format(t)) },
    ],
    series: [{ label: labels.some(isDateLabel) ? 'Date' : '', value: (_u, v) => (v == null ? '' : time ? shortLabel(new Date(v * 1000).toISOString().slice(0, 10)) : shortLabel(labels[v] ?? '')) }, ...uSeries],
  }
  return { opts, data: [xs, ...series.map((s) => s.data)] as uPlot.AlignedData }
}

/**
 * Lines or bars of one or more series, drawn by uPlot on a canvas that follows
 * its container's width, with a legend that reads the values under the cursor.
 * Bars of several series pile up (stacked) or stand side by side. The chart is
 * rebuilt when its data changes: metric graphs are small, and a rebuild keeps
 * the scales and bar layout in step with the data.
 */
export function SeriesChart({ labels, series, kind, layout = 'stacked', label, height = 280, format }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const key = JSON.stringify([labels, series, kind, layout, height])

  useEffect(() => {
    const el = box.current!
    if (!canDraw()) return
    let gone = false
    let plot: uPlot | undefined
    let resize: ResizeObserver | undefined
    // uPlot reads matchMedia as it loads, so it is imported only where it can draw.
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return
      const { opts, data } = options(UPlot, { labels, series, kind, layout, height, label, format }, Math.max(el.clientWidth, 200))
      plot = new UPlot(opts, data, el)
      resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(el.clientWidth, 200), height }))
      resize.observe(el)
    })
    return () => {
      gone = true
      resize?.disconnect()
      plot?.destroy()
    }
    // The key stands for the data and layout; format is a display detail read at build time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  return <div ref={box} role="img" aria-label={label} data-kind={kind} data-layout={layout} data-series={series.length} data-points={labels.length} className="w-full" />
}
