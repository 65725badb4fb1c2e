import type { ActivityType, CompanyActivityDate, CompanyActivityUser } from '@fl0/contracts'
import { memberActivityWhere, SESSION_GAP_MS, timedActivitySql } from './activity.ts'
import { contextPlace, timeZoneCity } from './location.ts'
import { isoOf, num, rows, type Client, type CompanyMembers } from '@fl0/query'
import { displayName, type PersonInfo } from './people.ts'
import type { CompanyWindow } from './window.ts'

/**
 * The Intent feed: the window's activity by date (newest first), within a date
 * by person (most recently seen first), within a person their events oldest
 * first. At most FEED_EVENTS events, the newest: a company busier than that
 * in 30 days shows its latest days and says the feed is truncated; its
 * numbers (summary.ts) stay exact.
 */
export const FEED_EVENTS = 5000

export interface FeedRow {
  person: string
  timestamp: string
  type: ActivityType
  event: string
  name: string
  page_path: string
  page_title: string
  date: string
  city: string
  region: string
  country: string
  tz: string
  spent: number | string
}

export async function loadFeedRows(client: Client, org: string, members: CompanyMembers, window: CompanyWindow) {
  // Only the newest events are timed: from the oldest of the FEED_EVENTS + 1 newest, less a session's gap
  // (timedActivitySql), not the whole window. At 10 million events a company with 41,693 events in 30 days
  // showed its feed in 0.43 s instead of 1.03 s (bench/README.md).
  const newest = memberActivityWhere(members, window)
  const since = `(SELECT min(timestamp) - INTERVAL ${SESSION_GAP_MS} MILLISECOND FROM (SELECT timestamp FROM events WHERE ${newest.where} ORDER BY timestamp DESC LIMIT {limit:UInt32}))`
  const a = timedActivitySql(members, window, since)
  const found = await rows<FeedRow>(client, `SELECT * FROM (${a.sql}) ORDER BY timestamp DESC, person LIMIT {limit:UInt32}`, {
    org,
    ...a.params,
    limit: FEED_EVENTS + 1,
  })
  return { rows: found.slice(0, FEED_EVENTS), truncated: found.length > FEED_EVENTS }
}

/** A track's event name; a page's name, else its title, else its path. */
export function eventName(r: Pick<FeedRow, 'type' | 'event' | 'name' | 'page_title' | 'page_path'>): string {
  if (r.type === 'track') return r.event
  return r.name || r.page_title || r.page_path || r.type
}

/**
 * Builds the feed from rows in any order. A person's location on a day
 * (location.ts's order): the latest place their events of that day carry in
 * context.location, else the place of their address (`ipPlaces`, by person,
 * places.ts), else the city of that day's latest time zone.
 */
export function buildFeed(feedRows: FeedRow[], people: Map<string, PersonInfo>, ipPlaces: Map<string, string>): CompanyActivityDate[] {
  const sorted = [...feedRows].sort((a, b) => a.timestamp.localeCompare(b.timestamp))
  const dates = new Map<string, Map<string, CompanyActivityUser>>()
  const sent = new Map<CompanyActivityUser, { place: string | null; zone: string | null }>()
  for (const r of sorted) {
    let users = dates.get(r.date)
    if (!users) dates.set(r.date, (users = new Map()))
    let user = users.get(r.person)
    if (!user) {
      const info = people.get(r.person)
      user = { id: r.person, name: displayName(r.person, info), email: info?.email ?? null, timeSpentOnSite: 0, role: info?.role ?? null, location: null, lastSeen: '', pageCount: 0, events: [] }
      users.set(r.person, user)
      sent.set(user, { place: null, zone: null })
    }
    const spent = num(r.spent)
    user.timeSpentOnSite += spent
    user.lastSeen = isoOf(r.timestamp)
    const seen = sent.get(user)!
    seen.place = contextPlace(r) ?? seen.place
    seen.zone = timeZoneCity(r.tz) ?? seen.zone
    if (r.type === 'page') user.pageCount++
    user.events.push({ time: isoOf(r.timestamp), type: r.type, name: eventName(r), timeSpent: spent, ...(r.type === 'page' && r.page_path ? { path: r.page_path } : {}) })
  }
  for (const [user, seen] of sent) user.location = seen.place ?? ipPlaces.get(user.id) ?? seen.zone
  return [...dates]
    .sort((a, b) => b[0].localeCompare(a[0]))
    .map(([date, users]) => ({ date, users: [...users.values()].sort((a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.id.localeCompare(b.id)) }))
}
