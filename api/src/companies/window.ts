import { chTime } from '@fl0/contracts'
import { COMPANY_WINDOW_DAYS } from '@fl0/contracts/companies'

/**
 * The company page's 30 days: the 30 calendar days in the organisation's time
 * zone that end today (the graph's days, oldest first), up to now. Events
 * stamped after now (a client clock ahead) wait until their time comes.
 *
 * `where` is the SQL condition on `timestamp`: a coarse bound one day wider
 * than the window lets ClickHouse skip parts by the sort key; the exact one is
 * the day in the organisation's zone.
 */
export interface CompanyWindow {
  timezone: string
  /** YYYY-MM-DD, oldest first. */
  dates: string[]
  where: string
  params: { w_since: string; w_now: string; w_tz: string; w_from: string }
}

const DAY_MS = 86_400_000

export function companyWindow(now: Date, timezone: string, days = COMPANY_WINDOW_DAYS): CompanyWindow {
  const tz = knownZone(timezone) ? timezone : 'UTC'
  const today = dayIn(now, tz)
  const todayMs = Date.parse(`${today}T00:00:00Z`)
  const dates = Array.from({ length: days }, (_, i) => new Date(todayMs - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10))
  const from = dates[0]!
  return {
    timezone: tz,
    dates,
    where: `timestamp >= {w_since:DateTime64(3)} AND timestamp <= {w_now:DateTime64(3)} AND toDate(timestamp, {w_tz:String}) >= {w_from:Date}`,
    params: { w_since: chTime(new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS)), w_now: chTime(now), w_tz: tz, w_from: from },
  }
}

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

function knownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
