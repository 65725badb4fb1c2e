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
