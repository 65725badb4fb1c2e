import { useEffect, useRef } from 'react'
import type uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { formatDate, shortNumber } from '../format.ts'
import { canDraw, countTicks, toSeconds } from './axis.ts'

/** One point per day (or any instant): `date` as ISO text or YYYY-MM-DD, `value` a count. */
export interface DatePoint {
  date: string
  value: number
}

interface Props {
  points: DatePoint[]
  /** The series' name, shown in the legend and read by screen readers. */
  label: string
  height?: number
  color?: string
}

const toData = (points: DatePoint[]): uPlot.AlignedData => [points.map((p) => toSeconds(p.date)), points.map((p) => p.value)]

/**
 * The y axis's ticks: one every 28 px or more of the plot (the chart's height
 * less the x axis and padding, under 60 px), the top one at or above the largest
 * value. From the height asked rather than the plot's box, so that the
 * scale's range and its ticks agree from the first draw.
 */
const yTicks = (height: number) => (u: uPlot) => countTicks(Math.max(0, ...((u.data[1] ?? []) as Array<number | null>).map((v) => v ?? 0)), (height - 60) / 28)

/**
 * A line graph of values over dates, drawn by uPlot on a canvas that follows
 * its container's width. An empty list draws empty axes (part 1 §9: an empty
 * metric shows an empty line graph).
 */
export function LineChart({ points, label, height = 200, color = '#4f46e5' }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const latest = useRef(points)
  latest.current = points

  useEffect(() => {
    const el = box.current!
    if (!canDraw()) return
    let gone = false
    let resize: ResizeObserver | undefined
    // uPlot reads matchMedia as it loads, so it is imported only where it can draw.
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return
      const options: uPlot.Options = {
        width: Math.max(el.clientWidth, 200),
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (u) => [0, yTicks(height)(u).at(-1)!] } },
        axes: [
          // 36 px holds the tick and a line of dates; uPlot's 50 left a blank band under the dates in every small card.
          { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, size: 36, values: (_u, ticks) => ticks.map((t) => formatDate(t * 1000).replace(/, \d{4}$/, '')) },
          { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, size: 48, splits: yTicks(height), values: (_u, ticks) => ticks.map((t) => shortNumber(t)) },
        ],
        series: [{}, { label, stroke: color, width: 2, fill: `${color}1a`, points: { show: false } }],
      }
      plot.current = new UPlot(options, toData(latest.current), el)
      resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(el.clientWidth, 200), height }))
      resize.observe(el)
    })
    return () => {
      gone = true
      resize?.disconnect()
      plot.current?.destroy()
      plot.current = null
    }
  }, [label, height, color])

  useEffect(() => {
    plot.current?.setData(toData(points))
  }, [points])

  return <div ref={box} role="img" aria-label={label} data-points={points.length} className="w-full" />
}
