import type { CompanyAnalytics } from '@fl0/contracts'
import { memberActivitySql } from './activity.ts'
import { num, rows, type Client, type CompanyMembers } from '@fl0/query'
import { loadDaily } from './summary.ts'
import type { CompanyWindow } from './window.ts'

/**
 * The Analytics tab: page views, visitors and track events per day, and the
 * most viewed pages and most frequent events of the window (TOP of each).
 */
const TOP = 10

export async function loadAnalytics(client: Client, org: string, members: CompanyMembers, window: CompanyWindow): Promise<CompanyAnalytics> {
  const a = memberActivitySql(members, window)
  const params = { org, ...a.params, top: TOP }
  const [daily, pages, events] = await Promise.all([
    loadDaily(client, org, members, window),
    rows<{ path: string; title: string; views: string; visitors: string }>(
      client,
      `SELECT page_path AS path, argMax(page_title, timestamp) AS title, count() AS views, uniqExact(person) AS visitors
       FROM (${a.sql}) WHERE type = 'page'
       GROUP BY path ORDER BY views DESC, path LIMIT {top:UInt32}`,
      params,
    ),
    rows<{ event_name: string; count: string; visitors: string }>(
      client,
      `SELECT event AS event_name, count() AS count, uniqExact(person) AS visitors
       FROM (${a.sql}) WHERE type = 'track'
       GROUP BY event_name ORDER BY count DESC, event_name LIMIT {top:UInt32}`,
      params,
    ),
  ])
  return {
    pageViews: daily.pageViews,
    visitors: daily.visitors,
    events: daily.events,
    topPages: pages.map((p) => ({ path: p.path, title: p.title, views: num(p.views), visitors: num(p.visitors) })),
    topEvents: events.map((e) => ({ name: e.event_name, count: num(e.count), visitors: num(e.visitors) })),
  }
}
