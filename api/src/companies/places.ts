import { num, rows, type Client, type MemberIds } from '@fl0/query'
import { ipPlaceText, type Place } from './location.ts'

/**
 * Where people are by their address: the place the identity worker stores with
 * each identified visit (clickhouse/0009_visit_networks.sql: ip_city,
 * ip_region, ip_country from DB-IP's IP-to-City Lite, CC BY 4.0, which the
 * pages showing it credit).
 *
 * A visit is keyed by its visitor (the anonymous id, else 'user:' + the user
 * id) and carries the anonymous id and the first user id that visitor had.
 * It is a person's as their events are (members.ts's memberFilter): a member
 * user id makes it that user's; otherwise its anonymous id names the person it
 * is linked to.
 *
 * Visits from hosting networks are left out: their place is a data centre's
 * (a VPN, a cloud browser, a crawler), not where anyone sits.
 */
const VISITS_SQL = `
  SELECT if(has({m_users:Array(String)}, user_id), user_id, transform(anonymous_id, {m_anons:Array(String)}, {m_persons:Array(String)}, '')) AS person,
    visitor_id, ended_at, ip_city, ip_region, ip_country
  FROM identified_visits FINAL
  WHERE org_id = {org:String} AND started_at <= {p_now:DateTime64(3)} AND ip_kind != 'hosting'
    AND (has({m_users:Array(String)}, user_id) OR has({m_anons:Array(String)}, anonymous_id))
    AND (ip_city != '' OR ip_region != '' OR ip_country != '')`

function visitParams(org: string, members: MemberIds, now: string) {
  return { org, m_users: members.users, m_anons: members.anons, m_persons: members.persons, p_now: now }
}

/**
 * Each person's place by their address: their latest visit with a city, else
 * their latest with a region or country. Keyed by person, as text
 * ("Cupertino, United States"). `now` in ClickHouse's DateTime64 text.
 */
export async function loadIpPlaces(client: Client, org: string, members: MemberIds, now: string): Promise<Map<string, string>> {
  if (members.users.length === 0 && members.anons.length === 0) return new Map()
  // The latest by (ended_at, visitor_id): one visit's columns, never a mix of two visits'.
  const found = await rows<Place & { person: string }>(
    client,
    `SELECT person,
       argMaxIf(ip_city, (ended_at, visitor_id), ip_city != '') AS city,
       if(city != '', argMaxIf(ip_region, (ended_at, visitor_id), ip_city != ''), argMax(ip_region, (ended_at, visitor_id))) AS region,
       if(city != '', argMaxIf(ip_country, (ended_at, visitor_id), ip_city != ''), argMax(ip_country, (ended_at, visitor_id))) AS country
     FROM (${VISITS_SQL})
     WHERE person != ''
     GROUP BY person`,
    visitParams(org, members, now),
  )
  const places = new Map<string, string>()
  for (const r of found) {
    const text = ipPlaceText(r)
    if (text) places.set(r.person, text)
  }
  return places
}

/**
 * The company's place by its people's addresses: the place (city, region and
 * country) most of its people were seen at; ties go to the most visits, then
 * to a place with a city, then to the latest. People, not visits, come first:
 * one colleague's hundred visits from home should not move the company there.
 * Null when no visit has a place.
 */
export async function loadCompanyIpPlace(client: Client, org: string, members: MemberIds, now: string): Promise<string | null> {
  if (members.users.length === 0 && members.anons.length === 0) return null
  const found = await rows<Place & { people: string; visits: string }>(
    client,
    `SELECT ip_city AS city, ip_region AS region, ip_country AS country, uniqExact(person) AS people, count() AS visits, max(ended_at) AS last_seen
     FROM (${VISITS_SQL})
     WHERE person != ''
     GROUP BY city, region, country
     ORDER BY people DESC, visits DESC, city != '' DESC, last_seen DESC, country, city
     LIMIT 1`,
    visitParams(org, members, now),
  )
  const top = found[0]
  return top && num(top.people) > 0 ? ipPlaceText(top) : null
}
