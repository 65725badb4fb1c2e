import { PEOPLE_TEXT, TOP_LIST_SIZE, type FeatureUsage, type ProfileTrait, type UserProfile } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import { locationOf, type ContextLocation } from '../companies/location.ts'
import { loadIpPlaces } from '../companies/places.ts'
import { ACTIVITY_TYPES_SQL, FREE_MAIL_PARAMS, latestTraitSql, num, personCompanySql, personFilter, resolvePerson, rows, type Client, type ResolvedPerson } from '@fl0/query'
import { displayName, loadPeople } from '../companies/people.ts'
import { SEEN_SQL, seenOf } from '../companies/summary.ts'
import type { CompanyWindow } from '../companies/window.ts'
import { mergeTraits } from '../companies/traits.ts'
import { notFound } from '../http/errors.ts'
import { loadFeatures, topAndBottom } from './features.ts'
import { profileWindow } from './window.ts'

/**
 * The user profile (part 3 §2, people/users/{userId}): who the person is
 * (identity.ts), their company (members.ts's personCompanySql), their
 * traits, and what they did in the profile window (PROFILE_WINDOW_DAYS):
 * activity per day, the most triggered track events, and the organisation's
 * features by how often the person used them.
 */

/**
 * The newest identify calls read for the traits: traits repeat on every call,
 * so a few hundred hold every key a client still sends. They come from
 * trait_calls (clickhouse/0004: each distinct call of a caller once, at its
 * latest time), as do the person's company and its name: merged newest first,
 * the same traits as every call in `events` gives, and at 10 million events
 * the profile of the most active person took 4.6–5.4 s reading them there.
 */
const IDENTIFY_CALLS = 500

export async function findPerson(client: Client, orgId: string, key: string): Promise<ResolvedPerson> {
  const person = await resolvePerson(client, orgId, key)
  if (!person) throw notFound(PEOPLE_TEXT.userNotFound(key))
  return person
}

export async function userProfile(deps: ApiDeps, orgId: string, key: string): Promise<UserProfile> {
  const client = deps.events.client
  const person = await findPerson(client, orgId, key)
  const window = await profileWindow(deps.sql, orgId, deps.now())
  const m = personFilter(person)
  const [identifyRows, people, company, { seen, location, daily, events }, features] = await Promise.all([
    rows<{ traits: string }>(
      client,
      `SELECT toJSONString(traits) AS traits FROM trait_calls WHERE org_id = {org:String} AND type = 'identify' AND ${m.where}
       ORDER BY timestamp DESC LIMIT {limit:UInt32}`,
      { org: orgId, ...m.params, limit: IDENTIFY_CALLS },
    ),
    loadPeople(client, orgId, person),
    loadCompany(client, orgId, person),
    loadActivity(client, orgId, person, window),
    loadFeatures(deps.sql, orgId),
  ])
  const info = people.get(person.key)
  const counts = new Map(events.map((e) => [e.event, e.n]))
  const usage: FeatureUsage[] = features.map((f) => ({ featureId: f.id, featureName: f.name, usage: f.events.reduce((n, e) => n + (counts.get(e) ?? 0), 0) }))
  const lists = topAndBottom(usage, (a, b) => a.usage - b.usage, TOP_LIST_SIZE)
  return {
    id: person.key,
    anonymous: person.anonymous,
    name: displayName(person.key, info),
    email: info?.email ?? null,
    company: company.name || info?.company || company.domain || null,
    companyDomain: company.domain || null,
    firstSeen: seen.firstSeen,
    lastSeen: seen.lastSeen,
    location,
    traits: traitList(mergeTraits(identifyRows.map((r) => JSON.parse(r.traits) as Record<string, unknown>))),
    graph: window.dates.map((date) => ({ date, value: daily.get(date) ?? 0 })),
    mostUsedFeatures: lists.top.filter((f) => f.usage > 0),
    leastUsedFeatures: lists.bottom,
    mostTriggeredEvents: events.slice(0, TOP_LIST_SIZE).map((e) => ({ name: e.event, total: e.n })),
    timezone: window.timezone,
  }
}

/** Every trait, by key. */
export function traitList(merged: Record<string, ProfileTrait['value']>): ProfileTrait[] {
  return Object.keys(merged)
    .sort((a, b) => a.localeCompare(b))
    .map((key) => ({ key, value: merged[key]! }))
}

/** The person's company: its domain by members.ts's rules, and the group's name when a group call names it. */
async function loadCompany(client: Client, orgId: string, person: ResolvedPerson): Promise<{ domain: string; name: string }> {
  const m = personFilter(person)
  const personEvents = `SELECT ${m.person} AS person, type, timestamp, group_id, traits FROM trait_calls
    WHERE org_id = {org:String} AND type IN ('group', 'identify') AND ${m.where}`
  const [found] = await rows<{ group_id: string; company_domain: string }>(client, personCompanySql(personEvents), { org: orgId, ...m.params, ...FREE_MAIL_PARAMS })
  if (!found) return { domain: '', name: '' }
  if (!found.group_id) return { domain: found.company_domain, name: '' }
  const [group] = await rows<{ name: string }>(
    client,
    `SELECT ${latestTraitSql(`'name'`)} AS name FROM trait_calls WHERE org_id = {org:String} AND type = 'group' AND group_id = {group:String}`,
    { org: orgId, group: found.group_id },
  )
  return { domain: found.company_domain, name: group?.name.trim() ?? '' }
}

/**
 * What the person did, from one read of their rows (at 10 million events the
 * demo's most active person's rows took 0.1–0.5 s a read, and this was three):
 * - first and last activity at any time up to now (summary.ts's rule);
 * - where they are, in the company page's order (companies/location.ts): the
 *   latest context.location their events carry, else their address's place
 *   (their latest located visit), else their latest time zone's city;
 * - in the window, their activity per day (memberActivitySql's rows), and
 *   their track events by name, most first.
 * Grouping sets: all the rows (date and ev both ''), by `date` (a day of the
 * window, '-' for other rows) and by `ev` ('e:' and the name of a track event
 * of the window, '-' for other rows).
 */
async function loadActivity(client: Client, orgId: string, person: ResolvedPerson, window: CompanyWindow) {
  const m = personFilter(person)
  const latest = (col: string) => `argMaxIf(${col}, timestamp, ${col} != '')`
  type Row = ContextLocation & { date: string; ev: string; n: string; seen_n: string; first_seen: string; last_seen: string }
  const [found, ipPlaces] = await Promise.all([
    rows<Row>(
      client,
      `SELECT if(in_window AND type IN ${ACTIVITY_TYPES_SQL}, toString(toDate(timestamp, {w_tz:String})), '-') AS date,
         if(in_window AND type = 'track' AND event != '', concat('e:', event), '-') AS ev,
         count() AS n, ${SEEN_SQL}, ${latest('context_city')} AS city, ${latest('context_region')} AS region,
         ${latest('context_country')} AS country, ${latest('context_timezone')} AS tz
       FROM (
         SELECT type, event, timestamp, context_city, context_region, context_country, context_timezone, ${window.where} AS in_window
         FROM events WHERE org_id = {org:String} AND timestamp <= {w_now:DateTime64(3)} AND ${m.where}
       )
       GROUP BY GROUPING SETS ((), (date), (ev))`,
      { org: orgId, ...window.params, ...m.params },
    ),
    loadIpPlaces(client, orgId, person, window.params.w_now),
  ])
  const whole = found.find((r) => r.date === '' && r.ev === '')
  const none = { city: '', region: '', country: '', tz: '' }
  const daily = new Map(found.filter((r) => r.date !== '' && r.date !== '-').map((r) => [r.date, num(r.n)]))
  const events = found
    .filter((r) => r.ev.startsWith('e:'))
    .map((r) => ({ event: r.ev.slice(2), n: num(r.n) }))
    // Most first, then by name as ClickHouse orders text (by bytes).
    .sort((a, b) => b.n - a.n || Buffer.compare(Buffer.from(a.event), Buffer.from(b.event)))
  return { seen: seenOf(whole), location: locationOf(whole ?? none, ipPlaces.get(person.key) ?? null), daily, events }
}
