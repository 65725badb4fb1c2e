import { PEOPLE_TEXT, PROFILE_WINDOW_DAYS, TOP_LIST_SIZE, type CompanyFeatureAdoption, type CompanyProfile, type FeatureAdoption } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import { memberActivitySql } from '../companies/activity.ts'
import { nameOf } from '../companies/company.ts'
import { memberFilter, normalizeDomain, num, resolveCompanyMembers, rows, type Client, type CompanyMembers } from '@fl0/query'
import { logoUrlFor } from '../companies/logo.ts'
import { displayName, loadPeople } from '../companies/people.ts'
import { loadGroupTraits } from '../companies/profile.ts'
import { loadSeen } from '../companies/summary.ts'
import { allTraits } from '../companies/traits.ts'
import type { CompanyWindow } from '../companies/window.ts'
import { notFound } from '../http/errors.ts'
import { featureEvents, loadFeatures, topAndBottom } from './features.ts'
import { profileWindow } from './window.ts'

/**
 * The company profile (part 3 §2, people/companies/{companyId}, the id being
 * the company's domain as on the company page): who the company is and how
 * its people use the product. Membership is the company page's
 * (companies/members.ts); a person is active on a day when they made an
 * activity call (page, screen, track) that day in the organisation's zone.
 *
 * - DAU: people active today; WAU: in the last 7 days; MAU: in the last 30
 *   (today included each time; PROFILE_WINDOW_DAYS).
 * - The monthly active users graph: for each day of the 30, the people active
 *   in the 30 days up to it (its last point is the MAU).
 * - 'Who used it most' and 'Most triggered events': the window's activity
 *   calls per person, and its track calls per event name, 10 of each.
 * - Feature adoption (featureAdoption): see there.
 */
async function findCompany(deps: ApiDeps, orgId: string, param: string): Promise<CompanyMembers> {
  const domain = normalizeDomain(param)
  if (!domain) throw notFound(PEOPLE_TEXT.companyNotFound(param))
  const members = await resolveCompanyMembers(deps.events.client, orgId, domain)
  if (members.identifiedBy.length === 0) throw notFound(PEOPLE_TEXT.companyNotFound(domain))
  return members
}

export async function companyProfile(deps: ApiDeps, orgId: string, param: string): Promise<CompanyProfile> {
  const members = await findCompany(deps, orgId, param)
  const client = deps.events.client
  // Two windows: the profile's 30 days, and 59 for the graph's first point's 30 days.
  const [window, wide] = await Promise.all([profileWindow(deps.sql, orgId, deps.now()), profileWindow(deps.sql, orgId, deps.now(), 2 * PROFILE_WINDOW_DAYS - 1)])
  const activity = memberActivitySql(members, window)
  const params = { org: orgId, ...activity.params }
  const [traits, people, seen, active, graph, topUsers, topEvents, firstEmail] = await Promise.all([
    loadGroupTraits(client, orgId, members),
    loadPeople(client, orgId, members),
    loadSeen(client, orgId, members, window.params.w_now),
    rows<{ dau: string; wau: string; mau: string }>(
      client,
      `SELECT uniqExactIf(person, date = {today:String}) AS dau, uniqExactIf(person, date >= {week:String}) AS wau, uniqExact(person) AS mau FROM (${activity.sql})`,
      { ...params, today: window.dates.at(-1)!, week: window.dates.at(-7)! },
    ),
    monthlyActiveGraph(client, orgId, members, window, wide),
    rows<{ person: string; n: string }>(
      client,
      `SELECT person, count() AS n FROM (${activity.sql}) GROUP BY person ORDER BY n DESC, person LIMIT {top:UInt32}`,
      { ...params, top: TOP_LIST_SIZE },
    ),
    rows<{ event: string; n: string }>(
      client,
      `SELECT event, count() AS n FROM (${activity.sql}) WHERE type = 'track' AND event != '' GROUP BY event ORDER BY n DESC, event LIMIT {top:UInt32}`,
      { ...params, top: TOP_LIST_SIZE },
    ),
    firstPersonEmail(client, orgId, members),
  ])
  const [counts] = active
  const groupEmail = typeof traits.email === 'string' && traits.email.includes('@') ? traits.email.trim() : null
  return {
    domain: members.domain,
    name: nameOf(traits, people, members.domain),
    logoUrl: logoUrlFor(deps.logoUrlTemplate, members.domain),
    firstSeen: seen.firstSeen,
    lastSeen: seen.lastSeen,
    email: groupEmail ?? firstEmail,
    metadata: allTraits(traits).map((t) => ({ key: t.key, value: t.value })),
    dailyActiveUsers: num(counts?.dau),
    weeklyActiveUsers: num(counts?.wau),
    monthlyActiveUsers: num(counts?.mau),
    monthlyActiveUsersGraph: graph,
    topUsers: topUsers.map((u) => {
      const info = people.get(u.person)
      return { id: u.person, email: info?.email ?? null, name: displayName(u.person, info), total: num(u.n) }
    }),
    topEvents: topEvents.map((e) => ({ name: e.event, total: num(e.n) })),
    timezone: window.timezone,
  }
}

/**
 * For each day of `window`, the people active in the 30 days up to it: each
 * person's active days (read over `wide`, 59 days) each count for themselves
 * and the 29 days after.
 */
async function monthlyActiveGraph(client: Client, orgId: string, members: CompanyMembers, window: CompanyWindow, wide: CompanyWindow) {
  const activity = memberActivitySql(members, wide)
  const found = await rows<{ day: string; n: string }>(
    client,
    `SELECT toString(d) AS day, uniqExact(person) AS n
     FROM (SELECT DISTINCT person, toDate(date) AS active_day FROM (${activity.sql}))
     ARRAY JOIN arrayMap(i -> addDays(active_day, i), range({span:UInt32})) AS d
     WHERE d >= toDate({from:String}) AND d <= toDate({to:String})
     GROUP BY d`,
    { org: orgId, ...activity.params, span: PROFILE_WINDOW_DAYS, from: window.dates[0]!, to: window.dates.at(-1)! },
  )
  const byDay = new Map(found.map((r) => [r.day, num(r.n)]))
  return window.dates.map((date) => ({ date, value: byDay.get(date) ?? 0 }))
}

/**
 * The e-mail of the company's first person to give one at the company's
 * domain (the account's first user, usually), else the first any of its
 * people gave (a personal address is still a way to reach them).
 */
async function firstPersonEmail(client: Client, orgId: string, members: CompanyMembers): Promise<string | null> {
  const m = memberFilter(members)
  const [row] = await rows<{ first_at_domain: string; first_anywhere: string; n_at_domain: string; n: string }>(
    client,
    `SELECT argMinIf(email, timestamp, at_domain) AS first_at_domain, argMin(email, timestamp) AS first_anywhere, countIf(at_domain) AS n_at_domain, count() AS n
     FROM (
       SELECT trimBoth(traits.email::String) AS email, timestamp, splitByChar('@', lower(email))[-1] AS email_domain,
         email_domain = {domain:String} OR endsWith(email_domain, concat('.', {domain:String})) AS at_domain
       FROM events
       WHERE org_id = {org:String} AND type = 'identify' AND position(traits.email::String, '@') > 0 AND ${m.where}
     )`,
    { org: orgId, domain: members.domain, ...m.params },
  )
  if (!row || num(row.n) === 0) return null
  return num(row.n_at_domain) > 0 ? row.first_at_domain : row.first_anywhere
}

/**
 * Feature adoption: for each feature of the organisation, over the window
 * (the last 30 days, PROFILE_WINDOW_DAYS), its usage (track calls of its
 * events by the company's people), its users (the people who made them) and
 * its adoption: users over the company's active people in the same window
 * (its MAU), in percent with one decimal. The top list holds used features,
 * most users first (then usage, then name); the lowest list every feature,
 * fewest users first, unused ones included.
 */
export async function featureAdoption(deps: ApiDeps, orgId: string, param: string): Promise<CompanyFeatureAdoption> {
  const members = await findCompany(deps, orgId, param)
  const [window, features] = await Promise.all([profileWindow(deps.sql, orgId, deps.now()), loadFeatures(deps.sql, orgId)])
  const activity = memberActivitySql(members, window)
  const params = { org: orgId, ...activity.params }
  const [[active], uses] = await Promise.all([
    rows<{ n: string }>(deps.events.client, `SELECT uniqExact(person) AS n FROM (${activity.sql})`, params),
    rows<{ person: string; event: string; n: string }>(
      deps.events.client,
      `SELECT person, event, count() AS n FROM (${activity.sql}) WHERE type = 'track' AND has({events:Array(String)}, event) GROUP BY person, event`,
      { ...params, events: featureEvents(features) },
    ),
  ])
  const activeUsers = num(active?.n)
  const adoption: FeatureAdoption[] = features.map((f) => {
    const events = new Set(f.events)
    const theirs = uses.filter((u) => events.has(u.event))
    const users = new Set(theirs.map((u) => u.person)).size
    return {
      featureId: f.id,
      featureName: f.name,
      usage: theirs.reduce((n, u) => n + num(u.n), 0),
      users,
      adoption: activeUsers === 0 ? 0 : Math.round((users / activeUsers) * 1000) / 10,
    }
  })
  const lists = topAndBottom(adoption, (a, b) => a.users - b.users || a.usage - b.usage, TOP_LIST_SIZE)
  return { topFeatures: lists.top.filter((f) => f.usage > 0), lowestFeatures: lists.bottom, activeUsers, windowDays: PROFILE_WINDOW_DAYS }
}
