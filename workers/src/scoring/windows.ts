import { chTime, type DateRange } from '@fl0/contracts'
import { addDays, metricWindow } from '@fl0/query'

/**
 * The periods a model reads, as runs of whole days in the organisation's
 * zone (the metric engine's calendar: query/src/metrics/window.ts).
 *
 *   label      the date range: D days ending today (up to now). Who reached
 *              the metric here is what the model learns to predict.
 *   train      the LOOKBACK_DAYS before the label window: the features the
 *              model learns from. Behaviour before the outcome, never during.
 *   score      the LOOKBACK_DAYS ending today: the features every user is
 *              scored on now, predicting the D days to come.
 *   backtest   the same, one date range earlier: trained on features of the
 *              LOOKBACK_DAYS before (backtestTrain) with labels of the D days
 *              before the date range (backtestLabel), it predicts the date
 *              range from `train`'s features, for users it never saw labelled.
 *
 * The lookback is a user's whole history up to the cut, bounded at a year for
 * the cost of reading it: what a user did once long ago (connected an
 * integration, already upgraded) is often what says most about what they do
 * next, and a window as short as the date range would hide it. Counts are
 * log1p'd and standardised (learner/logistic.ts), so a longer history does
 * not swamp a shorter one.
 */
export const LOOKBACK_DAYS = 365

export interface Span {
  timezone: string
  /** First and last day, YYYY-MM-DD, in `timezone`. */
  from: string
  to: string
  /** Coarse UTC bounds for the sort key: a day wider than the span at the start; now at the latest. */
  since: string
  until: string
}

export interface ScoringWindows {
  label: Span
  train: Span
  score: Span
  backtestLabel: Span
  backtestTrain: Span
  /** Days in the date range. */
  days: number
  lookback: number
}

const DAY_MS = 86_400_000

export function span(from: string, to: string, timezone: string, now: Date): Span {
  // The end of `to` in any zone is before the start of the day after next in UTC; never after now.
  const end = Math.min(now.getTime(), Date.parse(`${addDays(to, 2)}T00:00:00Z`))
  return { timezone, from, to, since: chTime(new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS)), until: chTime(new Date(end)) }
}

export function scoringWindows(now: Date, timezone: string, dateRange: DateRange): ScoringWindows {
  const w = metricWindow(now, timezone, dateRange, 'range')
  const days = Math.round((Date.parse(`${w.to}T00:00:00Z`) - Date.parse(`${w.from}T00:00:00Z`)) / DAY_MS) + 1
  const lookback = LOOKBACK_DAYS
  const s = (from: string, to: string) => span(from, to, timezone, now)
  const before = (day: string, n: number) => s(addDays(day, -n), addDays(day, -1))
  const backtestLabelFrom = addDays(w.from, -days)
  return {
    label: s(w.from, w.to),
    train: before(w.from, lookback),
    score: s(addDays(w.to, -(lookback - 1)), w.to),
    backtestLabel: s(backtestLabelFrom, addDays(w.from, -1)),
    backtestTrain: before(backtestLabelFrom, lookback),
    days,
    lookback,
  }
}

/** The first instant of a day in a zone, as ISO 8601 (the correlation's fromTime). */
export function startOfDay(day: string, timezone: string): string {
  // The zone's offset at noon that day, applied to midnight: right except on the rare days a zone skips midnight.
  const noon = new Date(`${day}T12:00:00Z`)
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(noon)
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value)
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'))
  const offset = local - noon.getTime()
  return new Date(Date.parse(`${day}T00:00:00Z`) - offset).toISOString()
}

/** The last instant of a day in a zone (or now, if sooner), as ISO 8601. */
export function endOfDay(day: string, timezone: string, now: Date): string {
  const end = Date.parse(startOfDay(addDays(day, 1), timezone)) - 1
  return new Date(Math.min(end, now.getTime())).toISOString()
}
