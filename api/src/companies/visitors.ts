import type { CompanyVisitor } from '@fl0/contracts'
import { timedActivitySql } from './activity.ts'
import { locationOf } from './location.ts'
import { isoOf, num, rows, type Client, type CompanyMembers } from '@fl0/query'
import { displayName, type PersonInfo } from './people.ts'
import type { CompanyWindow } from './window.ts'

/**
 * The Visitors tab: everyone of the company active in the window, most
 * recently seen first, with their sessions, page views, track events, time on
 * site (activity.ts's rule), most viewed pages and location (location.ts's
 * order; `ipPlaces` by person, places.ts). At most MAX_VISITORS.
 */
export const MAX_VISITORS = 1000
const TOP_PAGES = 3

interface Row {
  person: string
  first_seen: string
  last_seen: string
  sessions: string
  page_views: string
  events: string
  time_spent: string
  city: string
  region: string
  country: string
  tz: string
  /** Views by path. */
  pages: Record<string, string>
}

export async function loadVisitors(client: Client, org: string, members: CompanyMembers, window: CompanyWindow, people: Map<string, PersonInfo>, ipPlaces: Map<string, string>): Promise<CompanyVisitor[]> {
  const timed = timedActivitySql(members, window)
  // The top pages come from the same read as the rest: each person's views by path, as a map.
  const found = await rows<Row>(
    client,
    `SELECT person, min(timestamp) AS first_seen, max(timestamp) AS last_seen, sum(starts_session) AS sessions,
       countIf(type = 'page') AS page_views, countIf(type = 'track') AS events, sum(spent) AS time_spent,
       argMaxIf(city, timestamp, city != '') AS city, argMaxIf(region, timestamp, region != '') AS region,
       argMaxIf(country, timestamp, country != '') AS country, argMaxIf(tz, timestamp, tz != '') AS tz,
       sumMapIf(map(page_path, toUInt64(1)), type = 'page' AND page_path != '') AS pages
     FROM (${timed.sql})
     GROUP BY person
     ORDER BY last_seen DESC, person
     LIMIT {limit:UInt32}`,
    { org, ...timed.params, limit: MAX_VISITORS },
  )
  return found.map((r) => {
    const info = people.get(r.person)
    return {
      id: r.person,
      name: displayName(r.person, info),
      email: info?.email ?? null,
      role: info?.role ?? null,
      location: locationOf(r, ipPlaces.get(r.person) ?? null),
      anonymous: r.person.startsWith('anon:'),
      firstSeen: isoOf(r.first_seen),
      lastSeen: isoOf(r.last_seen),
      sessions: num(r.sessions),
      pageViews: num(r.page_views),
      events: num(r.events),
      timeSpentOnSite: num(r.time_spent),
      topPages: topPagesOf(r.pages),
    }
  })
}

/** The most viewed paths, most views first, then by path (bytes, as ClickHouse orders them). */
function topPagesOf(pages: Record<string, string>): Array<{ path: string; views: number }> {
  return Object.entries(pages)
    .map(([path, views]) => ({ path, views: num(views) }))
    .sort((a, b) => b.views - a.views || Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
    .slice(0, TOP_PAGES)
}
