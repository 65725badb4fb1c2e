import type { CompanyVisitor } from '@fl0/contracts'
import { memberActivitySql, timedActivitySql } from './activity.ts'
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
}

export async function loadVisitors(client: Client, org: string, members: CompanyMembers, window: CompanyWindow, people: Map<string, PersonInfo>, ipPlaces: Map<string, string>): Promise<CompanyVisitor[]> {
  const timed = timedActivitySql(members, window)
  const plain = memberActivitySql(members, window)
  const [found, pages] = await Promise.all([
    rows<Row>(
      client,
      `SELECT person, min(timestamp) AS first_seen, max(timestamp) AS last_seen, sum(starts_session) AS sessions,
         countIf(type = 'page') AS page_views, countIf(type = 'track') AS events, sum(spent) AS time_spent,
         argMaxIf(city, timestamp, city != '') AS city, argMaxIf(region, timestamp, region != '') AS region,
         argMaxIf(country, timestamp, country != '') AS country, argMaxIf(tz, timestamp, tz != '') AS tz
       FROM (${timed.sql})
       GROUP BY person
       ORDER BY last_seen DESC, person
       LIMIT {limit:UInt32}`,
      { org, ...timed.params, limit: MAX_VISITORS },
    ),
    rows<{ person: string; path: string; views: string }>(
      client,
      `SELECT person, page_path AS path, count() AS views
       FROM (${plain.sql})
       WHERE type = 'page' AND page_path != ''
       GROUP BY person, path
       ORDER BY person, views DESC, path
       LIMIT {top:UInt32} BY person`,
      { org, ...plain.params, top: TOP_PAGES },
    ),
  ])
  const topPages = new Map<string, Array<{ path: string; views: number }>>()
  for (const p of pages) topPages.set(p.person, [...(topPages.get(p.person) ?? []), { path: p.path, views: num(p.views) }])
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
      topPages: topPages.get(r.person) ?? [],
    }
  })
}
