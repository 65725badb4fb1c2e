import { randomUUID } from 'node:crypto'
import { chTime } from '@fl0/contracts'
import { VISITOR_ID_SQL } from '@fl0/query'
import { VISIT_GAP_MS } from '../identity/visits.ts'
import { fmt, type Progress } from './progress.ts'
import { select, type Client } from './store.ts'

/**
 * "Refresh pages and activities": rebuilds `pages` (each page view with its
 * visit and its time on page: until the visitor's next event of the same
 * visit) and `activities` (each visitor's day: page views, events, time on
 * site) from the stored events, per organisation, in ClickHouse alone (window
 * functions over the organisation's events, partitioned by visitor).
 *
 * As the sessions refresh does, it stages the rows and writes only those that
 * are new or differ (compared by a hash of every column), so a second run
 * writes nothing. A page view's key is its event, a day's is the visitor and
 * the date: events are never deleted, so no row of either ever disappears.
 */

/** The organisation's events with their visit (visit_started_at) and the next event's time (next_ms). */
function eventsWithVisits(): string {
  return `
    SELECT *, min(timestamp) OVER (PARTITION BY visitor_id, visit_no) AS visit_started_at
    FROM (
      SELECT *, sum(new_visit) OVER (PARTITION BY visitor_id ORDER BY timestamp, message_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS visit_no
      FROM (
        SELECT *, toUInt8(prev_ms = 0 OR ms - prev_ms > ${VISIT_GAP_MS}) AS new_visit
        FROM (
          SELECT org_id, message_id, timestamp, type, anonymous_id, user_id, page_url, page_path, page_title, page_referrer,
            ${VISITOR_ID_SQL} AS visitor_id, toUnixTimestamp64Milli(timestamp) AS ms,
            lagInFrame(toUnixTimestamp64Milli(timestamp), 1, toInt64(0)) OVER w AS prev_ms,
            leadInFrame(toUnixTimestamp64Milli(timestamp), 1, toInt64(0)) OVER w AS next_ms
          FROM events
          WHERE org_id = {org:String} AND type != 'alias' AND received_at <= {snapshot:DateTime64(3, 'UTC')}
          WINDOW w AS (PARTITION BY ${VISITOR_ID_SQL} ORDER BY timestamp, message_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
        )
      )
    )`
}

const PAGE_COLUMNS = ['org_id', 'message_id', 'viewed_at', 'visitor_id', 'anonymous_id', 'user_id', 'visit_started_at', 'url', 'path', 'title', 'referrer', 'time_on_page'] as const
const ACTIVITY_COLUMNS = ['org_id', 'visitor_id', 'date', 'pages', 'events', 'time_spent', 'first_seen', 'last_seen'] as const

export async function refreshPagesAndActivities(client: Client, orgIds: string[] | undefined, progress: Progress, now: Date): Promise<string> {
  for (const name of ['pages', 'pagesWritten', 'activities', 'activitiesWritten']) progress.add(name, 0)
  const orgs = orgIds ?? (await select<{ org_id: string }>(client, 'SELECT DISTINCT org_id FROM events ORDER BY org_id')).map((r) => r.org_id)
  const version = now.getTime() * 1000
  for (const org of orgs) {
    const params = { org, snapshot: chTime(now), version }
    const pages = await refreshTable(client, 'pages', PAGE_COLUMNS, ['org_id', 'message_id'], `
      SELECT org_id, message_id, timestamp AS viewed_at, visitor_id, anonymous_id, user_id, visit_started_at,
        page_url AS url, page_path AS path, page_title AS title, page_referrer AS referrer,
        if(next_ms != 0 AND next_ms - ms <= ${VISIT_GAP_MS}, toNullable(toUInt32(intDiv(next_ms - ms, 1000))), NULL) AS time_on_page
      FROM (${eventsWithVisits()})
      WHERE type = 'page'`, params)
    const activities = await refreshTable(client, 'activities', ACTIVITY_COLUMNS, ['org_id', 'visitor_id', 'date'], `
      SELECT org_id, visitor_id, toDate(timestamp) AS date, toUInt32(countIf(type = 'page')) AS pages, toUInt32(count()) AS events,
        toUInt32(intDiv(sumIf(ms - prev_ms, new_visit = 0 AND toDate(fromUnixTimestamp64Milli(prev_ms, 'UTC')) = toDate(timestamp)), 1000)) AS time_spent,
        min(timestamp) AS first_seen, max(timestamp) AS last_seen
      FROM (${eventsWithVisits()})
      GROUP BY org_id, visitor_id, date`, params)
    progress.add('pages', pages.staged)
    progress.add('pagesWritten', pages.written)
    progress.add('activities', activities.staged)
    progress.add('activitiesWritten', activities.written)
  }
  const c = progress.counts
  return `Refreshed ${fmt(c.pages!)} pages and ${fmt(c.activities!)} activities of ${fmt(orgs.length)} organisation${orgs.length === 1 ? '' : 's'} (${fmt(c.pagesWritten! + c.activitiesWritten!)} rows written)`
}

/** Stages `select`'s rows, then writes to `table` those not stored exactly so. */
async function refreshTable(
  client: Client,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  selectSql: string,
  params: Record<string, unknown>,
): Promise<{ staged: number; written: number }> {
  const staging = `${table}_refresh_${randomUUID().replaceAll('-', '')}`
  const cols = columns.join(', ')
  const sig = `cityHash64(${columns.map((c) => (c === 'time_on_page' ? `ifNull(${c}, 4294967295)` : c)).join(', ')})`
  await client.command({ query: `CREATE TABLE ${staging} AS ${table} ENGINE = MergeTree ORDER BY (${key.join(', ')})` })
  try {
    await client.command({ query: `INSERT INTO ${staging} (${cols}, version) SELECT ${cols}, {version:UInt64} FROM (${selectSql})`, query_params: params })
    const [diff] = await select<{ staged: string; fresh: string }>(
      client,
      `SELECT (SELECT count() FROM ${staging}) AS staged,
              (SELECT count() FROM ${staging} WHERE (${key.join(', ')}, ${sig}) NOT IN (SELECT ${key.join(', ')}, ${sig} FROM ${table} FINAL WHERE org_id = {org:String})) AS fresh`,
      params,
    )
    await client.command({
      query: `INSERT INTO ${table} (${cols}, version)
              SELECT ${cols}, version FROM ${staging}
              WHERE (${key.join(', ')}, ${sig}) NOT IN (SELECT ${key.join(', ')}, ${sig} FROM ${table} FINAL WHERE org_id = {org:String})`,
      query_params: params,
    })
    return { staged: Number(diff?.staged ?? 0), written: Number(diff?.fresh ?? 0) }
  } finally {
    await client.command({ query: `DROP TABLE IF EXISTS ${staging}` })
  }
}
