import { memberFilter, type MemberIds } from '@fl0/query'
import type { CompanyWindow } from './window.ts'

/**
 * A company's activity in the page's window, as SQL subqueries that the
 * queries of the page select from. Activity is what people do: page, screen
 * and track calls. Identify, group and alias calls say who someone is, not
 * what they did, so they neither appear in the feed nor count as a visit.
 *
 * Time spent (the rule every duration on the page follows):
 * - one person's events, in time order, form sessions; a gap of more than
 *   SESSION_GAP_MS (30 minutes, the usual web-analytics rule) starts a new one;
 * - an event's time spent is the gap to the person's next event in the same
 *   session, capped at MAX_GAP_MS (10 minutes: a tab left open over lunch
 *   is not reading time);
 * - the last event of a session has no next event to measure against: 0;
 * - time on site for a day is the sum over that day's events.
 * It is computed in ClickHouse with window functions over the whole window
 * (not over a page of rows), so the feed, the visitors list and any total
 * agree. The window's first event may continue a session begun before it;
 * the time before the window is not counted.
 */
export const SESSION_GAP_MS = 30 * 60_000
export const MAX_GAP_MS = 10 * 60_000

export const ACTIVITY_TYPES = ['page', 'screen', 'track'] as const

/**
 * The context's location fields and time zone as columns city, region,
 * country and tz: the events' columns of them (clickhouse/0013), a few MiB
 * where the contexts are hundreds.
 */
const PLACE_SQL = `context_city AS city, context_region AS region, context_country AS country, context_timezone AS tz`

/**
 * The company's activity rows of the window, as a condition on `events`
 * (bare columns), with its parameters.
 */
export function memberActivityWhere(members: MemberIds, window: CompanyWindow) {
  const m = memberFilter(members)
  return {
    where: `org_id = {org:String} AND type IN ('page', 'screen', 'track') AND ${window.where} AND ${m.where}`,
    params: { ...m.params, ...window.params },
    person: m.person,
  }
}

/**
 * Columns: person, timestamp, message_id, type, event, name, page_path, page_title,
 * date (YYYY-MM-DD in the organisation's zone) and PLACE_SQL's city, region, country and tz.
 * With `since` (an SQL time), only the rows from then on.
 */
export function memberActivitySql(members: MemberIds, window: CompanyWindow, since?: string) {
  const a = memberActivityWhere(members, window)
  return {
    sql: `SELECT ${a.person} AS person, timestamp, message_id, type, event, name, page_path, page_title,
        toString(toDate(timestamp, {w_tz:String})) AS date, ${PLACE_SQL}
      FROM events
      WHERE ${a.where}${since ? ` AND timestamp >= ${since}` : ''}`,
    params: a.params,
  }
}

/**
 * memberActivitySql plus, per event: `spent` (whole seconds, the rule above),
 * and `starts_session` (1 for a session's first event). With `since`, the rows
 * from then on, timed among themselves: the times of those from SESSION_GAP_MS
 * after it on are the same as over the whole window (a row's next event is
 * later, and a previous event further back starts a session either way).
 */
export function timedActivitySql(members: MemberIds, window: CompanyWindow, since?: string) {
  const inner = memberActivitySql(members, window, since)
  return {
    sql: `SELECT person, timestamp, type, event, name, page_path, page_title, date, city, region, country, tz,
        toUInt32(if(next_ms > 0 AND next_ms - ms <= {s_gap:UInt32}, round(least(next_ms - ms, {s_cap:UInt32}) / 1000), 0)) AS spent,
        toUInt8(prev_ms = 0 OR ms - prev_ms > {s_gap:UInt32}) AS starts_session
      FROM (
        SELECT person, timestamp, type, event, name, page_path, page_title, date, city, region, country, tz,
          toUnixTimestamp64Milli(timestamp) AS ms,
          leadInFrame(toUnixTimestamp64Milli(timestamp), 1, toInt64(0)) OVER w AS next_ms,
          lagInFrame(toUnixTimestamp64Milli(timestamp), 1, toInt64(0)) OVER w AS prev_ms
        FROM (${inner.sql})
        WINDOW w AS (PARTITION BY person ORDER BY timestamp, message_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)
      )`,
    params: { ...inner.params, s_gap: SESSION_GAP_MS, s_cap: MAX_GAP_MS },
  }
}
