import { chTime, type DateRange, type OccurringPeriod } from '@fl0/contracts'

/**
 * The days a metric covers and the periods it is counted in, in the
 * organisation's time zone (org settings; UTC by default).
 *
 * A date range ends today (up to now: events stamped in the future wait for
 * their time) and starts that many days or calendar months back, today
 * included: last7Days is today and the six days before; last3Months on
 * 2 March is 3 December to 2 March. Periods are the occurring choice: days,
 * weeks starting on Monday (ISO), or calendar months, each named by its first
 * day; the first and last weeks or months may be cut by the range. 'range'
 * makes the whole range one period (the metric and funnel graphs).
 */
export type Bucket = 'day' | 'week' | 'month' | 'range'

export interface MetricWindow {
  timezone: string
  /** First and last day, YYYY-MM-DD, in `timezone`. */
  from: string
  to: string
  now: Date
  bucket: Bucket
  /** Each period's first day (YYYY-MM-DD), oldest first: the keys rows come back with, and the x axis. */
  periods: string[]
  /** The range's end in UTC: now (the start is `from`'s first moment in the zone, which ClickHouse works out). */
  until: string
}

const DAY_MS = 86_400_000
const MONTHS: Partial<Record<DateRange, number>> = { last3Months: 3, last6Months: 6, lastYear: 12 }
const DAYS: Partial<Record<DateRange, number>> = { last7Days: 7, last30Days: 30 }

export const BUCKET_OF: Record<OccurringPeriod, Bucket> = { daily: 'day', weekly: 'week', monthly: 'month' }

export function metricWindow(now: Date, timezone: string, dateRange: DateRange, bucket: Bucket): MetricWindow {
  const to = dayIn(now, timezone)
  const days = DAYS[dateRange]
  const from = days ? addDays(to, -(days - 1)) : addDays(addMonths(to, -MONTHS[dateRange]!), 1)
  return {
    timezone,
    from,
    to,
    now,
    bucket,
    periods: periodsOf(from, to, bucket),
    until: chTime(now),
  }
}

/** The first day of the period `day` falls in. */
export function periodOf(day: string, bucket: Bucket, from: string): string {
  if (bucket === 'day') return day
  if (bucket === 'range') return from
  if (bucket === 'month') return `${day.slice(0, 7)}-01`
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7 // Monday 0
  return addDays(day, -weekday)
}

function periodsOf(from: string, to: string, bucket: Bucket): string[] {
  if (bucket === 'range') return [from]
  const out: string[] = []
  for (let p = periodOf(from, bucket, from); p <= to; p = bucket === 'month' ? addMonths(p, 1) : addDays(p, bucket === 'week' ? 7 : 1)) out.push(p)
  return out
}

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)
}

/** Calendar months, the day clamped to the month's length (31 May − 3 months = 28 or 29 February). */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const first = new Date(Date.UTC(y, m - 1 + n, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10)
}

/**
 * Is `tz` an IANA zone name this runtime knows ('Europe/Berlin', 'UTC', and
 * aliases such as 'Asia/Kathmandu', which ICU lists as 'Asia/Katmandu')?
 * Only names reach ClickHouse's toDate(…, tz), even bound: Intl also takes
 * offsets like '+01:00', which ClickHouse does not.
 */
export function isKnownZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
