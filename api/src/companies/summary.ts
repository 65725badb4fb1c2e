import type { CompanyGraphPoint } from '@fl0/contracts'
import { memberActivitySql } from './activity.ts'
import { ACTIVITY_TYPES_SQL, isoOf, memberFilter, num, rows, type Client, type CompanyMembers, type MemberIds } from '@fl0/query'
import type { CompanyWindow } from './window.ts'

/**
 * The company's numbers: per day of the window (page views, visitors, track
 * events), distinct visitors over the window, and first and last activity at
 * any time. Aggregated in ClickHouse, so they are exact however busy the
 * company is.
 */
export interface Daily {
  pageViews: CompanyGraphPoint[]
  visitors: CompanyGraphPoint[]
  events: CompanyGraphPoint[]
  /** Distinct visitors over the whole window (not the sum of the days'). */
  windowVisitors: number
  /** The window's last activity: the last at any time up to now, when the window has any; else null. */
  lastSeen: string | null
}

/**
 * The days and the window's distinct visitors in one read of the window's
 * rows (a grouping set by date, and one of all the rows: the row whose date
 * is ''). At 10 million events the company page read them twice before.
 */
export async function loadDaily(client: Client, org: string, members: CompanyMembers, window: CompanyWindow): Promise<Daily> {
  const a = memberActivitySql(members, window)
  const found = await rows<{ date: string; page_views: string; visitors: string; events: string; n: string; last_seen: string }>(
    client,
    `SELECT date, countIf(type = 'page') AS page_views, uniqExact(person) AS visitors, countIf(type = 'track') AS events, count() AS n, max(timestamp) AS last_seen
     FROM (${a.sql}) GROUP BY GROUPING SETS ((date), ())`,
    { org, ...a.params },
  )
  const byDate = new Map(found.map((r) => [r.date, r]))
  const series = (pick: (r: (typeof found)[number]) => string) => window.dates.map((date) => ({ date, value: num(byDate.has(date) ? pick(byDate.get(date)!) : 0) }))
  const whole = byDate.get('')
  return {
    pageViews: series((r) => r.page_views),
    visitors: series((r) => r.visitors),
    events: series((r) => r.events),
    windowVisitors: num(whole?.visitors),
    lastSeen: whole && num(whole.n) > 0 ? isoOf(whole.last_seen) : null,
  }
}

export interface Seen {
  firstSeen: string | null
  lastSeen: string | null
}

/**
 * First and last activity, as columns seen_n, first_seen and last_seen of a
 * query over events rows of any type (seenOf reads them): a query that reads
 * the same rows for something else (the profile's location) answers both in
 * one pass.
 */
export const SEEN_SQL = `countIf(type IN ${ACTIVITY_TYPES_SQL}) AS seen_n, minIf(timestamp, type IN ${ACTIVITY_TYPES_SQL}) AS first_seen,
  maxIf(timestamp, type IN ${ACTIVITY_TYPES_SQL}) AS last_seen`

export function seenOf(row: { seen_n: string | number; first_seen: string; last_seen: string } | undefined): Seen {
  if (!row || num(row.seen_n) === 0) return { firstSeen: null, lastSeen: null }
  return { firstSeen: isoOf(row.first_seen), lastSeen: isoOf(row.last_seen) }
}

/** First and last activity at any time up to now. */
export async function loadSeen(client: Client, org: string, members: MemberIds, now: CompanyWindow['params']['w_now']): Promise<Seen> {
  const m = memberFilter(members)
  const [row] = await rows<{ seen_n: string; first_seen: string; last_seen: string }>(
    client,
    `SELECT ${SEEN_SQL}
     FROM events
     WHERE org_id = {org:String} AND type IN ${ACTIVITY_TYPES_SQL} AND timestamp <= {now:DateTime64(3)} AND ${m.where}`,
    { org, now, ...m.params },
  )
  return seenOf(row)
}
