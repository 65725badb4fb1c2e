import { formatDate } from '../format.ts'

/** A label that is a date (YYYY-MM-DD or ISO), as time series name their points. */
export const isDateLabel = (label: string) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(label)

/** Seconds since the epoch, as uPlot's time scale wants; a bare date is midnight UTC. */
export const toSeconds = (date: string) => Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date) / 1000

/** 'Nov 3' for a date label (in UTC, as a bare date means that day), the label itself otherwise. */
export function shortLabel(label: string): string {
  if (!isDateLabel(label)) return label
  return formatDate(label.length === 10 ? `${label}T00:00:00Z` : label, label.length === 10 ? 'UTC' : undefined).replace(/, \d{4}$/, '')
}

/** Whether this page can draw on a canvas (jsdom, for component tests, cannot: a chart's box stays empty there). */
export const canDraw = () => typeof ResizeObserver !== 'undefined' && typeof matchMedia !== 'undefined' && document.createElement('canvas').getContext('2d') !== null

const DAY_MS = 86_400_000
const utc = (label: string) => new Date(`${label.slice(0, 10)}T00:00:00Z`)

/**
 * How a time series' periods are named, from their first days: months by
 * their name ('Nov' on the axis, 'Nov 2026' in the legend), weeks as 'Week of
 * Nov 23' in the legend, days and anything else as shortLabel does.
 */
export function periodNames(labels: readonly string[]): { axis: (label: string) => string; heading: (label: string) => string } {
  const days = labels.length >= 2 && labels.every((l) => /^\d{4}-\d{2}-\d{2}$/.test(l))
  const gaps = days ? labels.slice(1).map((l, i) => (utc(l).getTime() - utc(labels[i]!).getTime()) / DAY_MS) : []
  if (days && labels.every((l) => l.endsWith('-01')) && gaps.every((g) => g >= 28 && g <= 31)) {
    const month = (opts: Intl.DateTimeFormatOptions) => (l: string) => utc(l).toLocaleDateString('en-US', { ...opts, timeZone: 'UTC' })
    return { axis: month({ month: 'short' }), heading: month({ month: 'short', year: 'numeric' }) }
  }
  if (days && gaps.every((g) => g === 7)) return { axis: shortLabel, heading: (l) => `Week of ${shortLabel(l)}` }
  return { axis: shortLabel, heading: shortLabel }
}

/**
 * A count axis from 0 whose top is a tick: the largest value rounded up to a
 * step of 1, 2, 2.5 or 5 × 10^k, whole (counts are), with at most
 * `slots` steps. uPlot's own ticks need about 30 px each and leave a short
 * chart (the company panel's 120 px) with '0' alone on its axis.
 */
export function countTicks(max: number, slots: number): number[] {
  const n = Math.max(1, Math.floor(slots))
  const rough = Math.max(max, 1) / n
  const magnitude = 10 ** Math.floor(Math.log10(rough))
  const step = Math.max(1, ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= rough && Number.isInteger(m * magnitude)) ?? 10) * magnitude)
  const top = Math.max(step, Math.ceil(max / step) * step)
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step)
}
