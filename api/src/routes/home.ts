import { Hono } from 'hono'
import { chTime } from '@fl0/contracts'
import type { HomeCompany, HomePage, HomePerson, HomeSummary } from '@fl0/contracts/home'
import {
  ACTIVITY_TYPES_SQL,
  FREE_MAIL_PARAMS,
  fullName,
  isAnonymousKey,
  isoOf,
  knownTraitsSql,
  latestTraitSql,
  num,
  PEOPLE_ROWS_SQL,
  peopleRowsParams,
  personCompanySql,
  personEventsSql,
  rows,
  type Client,
  type KnownTraits,
  windowEventsSql,
} from '@fl0/query'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { currentOrg } from '../guard/index.ts'
import { loadPersonIdentities, type PersonIdentity } from '../identification/people.ts'

/**
 * GET /api-v2/orgs/{organization}/home: who visited this week
 * (contracts/home.ts), for the organisation's home. Membership is the guard's
 * (a stranger's 404 before this runs). Everything is read through the query
 * layer's rules: people/identity.ts's persons (bots left out),
 * companies/members.ts's company of a person, and identification's for
 * visitors known by address.
 */
const DAY_MS = 24 * 60 * 60 * 1000
const TOP = 8
const TOP_PAGES = 10
/**
 * Companies are found from the most active visitors of the two weeks, at most
 * this many (their ids travel as bound arrays, as companies/members.ts's do).
 */
const COMPANY_VISITORS = 2000

const PERSONS = '{persons:Array(String)}'
const WINDOW = `timestamp > {prev:DateTime64(3)} AND timestamp <= {now:DateTime64(3)}`

export function createHomeRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/', async (c) => c.json(await loadHome(deps.events.client, currentOrg(c).id, deps.now())))
  return app
}

async function loadHome(client: Client, org: string, now: Date): Promise<HomeSummary> {
  const from = new Date(now.getTime() - 7 * DAY_MS)
  const params = { org, now: chTime(now), week: chTime(from), prev: chTime(new Date(now.getTime() - 14 * DAY_MS)), top: TOP, pages: TOP_PAGES, cap: COMPANY_VISITORS }
  const perPerson = `
    SELECT person, countIf(timestamp > {week:DateTime64(3)}) AS this_week, countIf(timestamp <= {week:DateTime64(3)}) AS last_week,
      max(timestamp) AS last_seen
    FROM (${windowEventsSql(['type', 'timestamp'], `type IN ${ACTIVITY_TYPES_SQL} AND ${WINDOW}`)})
    GROUP BY person`
  // One pass over the two weeks' people: the counts, the top people (identified, active this week) and the
  // most active visitors the companies are found from, each by its own order.
  const anonymous = `startsWith(person, 'anon:')`
  const [ranked, pages] = await Promise.all([
    rows<{ person: string; this_week: string; last_week: string; last_seen: string; active: string; fresh: string; visitor_rank: string; top_rank: string }>(
      client,
      `SELECT person, this_week, last_week, last_seen,
         countIf(this_week > 0 AND NOT ${anonymous}) OVER () AS active,
         countIf(this_week > 0 AND last_week = 0 AND NOT ${anonymous}) OVER () AS fresh,
         row_number() OVER (ORDER BY this_week DESC, person) AS visitor_rank,
         if(this_week > 0 AND NOT ${anonymous}, row_number() OVER (PARTITION BY this_week > 0 AND NOT ${anonymous} ORDER BY this_week DESC, last_seen DESC, person), 0) AS top_rank
       FROM (${perPerson})
       QUALIFY visitor_rank <= {cap:UInt32} OR top_rank BETWEEN 1 AND {top:UInt32}`,
      params,
    ),
    rows<{ path: string; url: string; title: string; views: string; visitors: string }>(
      client,
      `SELECT page_path AS path, argMax(page_url, timestamp) AS url, argMax(page_title, timestamp) AS title, count() AS views, uniqExact(person) AS visitors
       FROM (${windowEventsSql(['type', 'timestamp', 'page_path', 'page_url', 'page_title'], `type = 'page' AND timestamp > {week:DateTime64(3)} AND timestamp <= {now:DateTime64(3)}`)})
       GROUP BY path ORDER BY views DESC, path LIMIT {pages:UInt32}`,
      params,
    ),
  ])
  const counts = ranked[0]
  const topPeople = ranked.filter((r) => num(r.top_rank) >= 1 && num(r.top_rank) <= TOP).sort((a, b) => num(a.top_rank) - num(b.top_rank))
  const visitors = ranked.filter((r) => num(r.visitor_rank) <= COMPANY_VISITORS).sort((a, b) => num(a.visitor_rank) - num(b.visitor_rank))
  // What identification knows of the visitors and the top people, resolved once for both: a resolution's
  // planning alone takes about 170 ms at ten million events, and the two lists share most of their people.
  // Awaited here too, at once: loadCompanies first waits for reads of its own, and a failure nobody listens
  // for yet would end the process (an unhandled rejection).
  const identitiesOf = loadPersonIdentities(client, org, [...new Set([...visitors, ...topPeople].map((p) => p.person))])
  const [companies, traits, identities] = await Promise.all([
    loadCompanies(client, org, visitors.map((v) => v.person), identitiesOf),
    loadTraits(client, org, topPeople.map((p) => p.person)),
    identitiesOf,
  ])
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    people: { active: num(counts?.active), new: num(counts?.fresh), top: describePeople(topPeople, traits, identities, companies) },
    companies: summariseCompanies(visitors, companies),
    pages: pages.map((p): HomePage => ({ path: p.path, url: p.url, title: p.title, views: num(p.views), visitors: num(p.visitors) })),
  }
}

interface CompanyRef {
  domain: string
  name: string
}

/**
 * Each person's company: their own evidence first (group calls, business
 * e-mail), else identification's (a partner's record, the address's range);
 * named by its group calls' name, else identification's, else its domain.
 */
async function loadCompanies(client: Client, org: string, persons: string[], identitiesOf: Promise<Map<string, PersonIdentity>>): Promise<Map<string, CompanyRef>> {
  if (persons.length === 0) return new Map()
  const [own, identities] = await Promise.all([
    rows<{ person: string; group_id: string; company_domain: string }>(
      client,
      personCompanySql(personEventsSql(['type', 'timestamp', 'group_id', 'traits'], `e.type IN ('group', 'identify') AND ${PEOPLE_ROWS_SQL} AND has(${PERSONS}, person)`, 'trait_calls')),
      { org, persons, ...FREE_MAIL_PARAMS, ...(await peopleRowsParams(client, org, persons)) },
    ),
    identitiesOf,
  ])
  const groupIds = [...new Set(own.map((o) => o.group_id).filter(Boolean))]
  const groups = groupIds.length
    ? await rows<{ group_id: string; name: string }>(
        client,
        `SELECT group_id, ${latestTraitSql(`'name'`)} AS name FROM trait_calls WHERE org_id = {org:String} AND type = 'group' AND has({groups:Array(String)}, group_id) GROUP BY group_id`,
        { org, groups: groupIds },
      )
    : []
  const groupName = new Map(groups.map((g) => [g.group_id, g.name.trim()]))
  const ownOf = new Map(own.map((o) => [o.person, o]))
  const found = new Map<string, CompanyRef>()
  for (const p of persons) {
    const id = identities.get(p)
    const mine = ownOf.get(p)
    const domain = mine?.company_domain || id?.companyDomain || ''
    if (!domain) continue
    const name = (mine?.company_domain && mine.group_id && groupName.get(mine.group_id)) || (id?.companyDomain === domain && id.companyName) || domain
    found.set(p, { domain, name })
  }
  // One name per company: a domain named by anyone's evidence is named so for all its people.
  const named = new Map<string, string>()
  for (const ref of found.values()) if (ref.name !== ref.domain) named.set(ref.domain, ref.name)
  for (const ref of found.values()) ref.name = named.get(ref.domain) ?? ref.name
  return found
}

function summariseCompanies(visitors: Array<{ person: string; this_week: string; last_week: string }>, companyOf: Map<string, CompanyRef>): HomeSummary['companies'] {
  const byDomain = new Map<string, HomeCompany & { lastWeek: number }>()
  for (const v of visitors) {
    const ref = companyOf.get(v.person)
    if (!ref) continue
    const c = byDomain.get(ref.domain) ?? { domain: ref.domain, name: ref.name, people: 0, events: 0, isNew: false, lastWeek: 0 }
    if (num(v.this_week) > 0) c.people += 1
    c.events += num(v.this_week)
    c.lastWeek += num(v.last_week)
    byDomain.set(ref.domain, c)
  }
  const active = [...byDomain.values()].filter((c) => c.people > 0).map(({ lastWeek, ...c }) => ({ ...c, isNew: lastWeek === 0 }))
  active.sort((a, b) => b.people - a.people || b.events - a.events || a.domain.localeCompare(b.domain))
  return { active: active.length, new: active.filter((c) => c.isNew).length, top: active.slice(0, TOP) }
}

/** The top people's traits (names, e-mail, company) from their identify calls. */
async function loadTraits(client: Client, org: string, persons: string[]): Promise<Array<KnownTraits & { person: string }>> {
  if (persons.length === 0) return []
  return rows<KnownTraits & { person: string }>(
    client,
    `SELECT person, ${knownTraitsSql()} FROM (${personEventsSql(['timestamp', 'traits'], `e.type = 'identify' AND ${PEOPLE_ROWS_SQL} AND has(${PERSONS}, person)`, 'trait_calls')}) GROUP BY person`,
    { org, persons, ...(await peopleRowsParams(client, org, persons)) },
  )
}

function describePeople(
  top: Array<{ person: string; this_week: string; last_week: string; last_seen: string }>,
  traits: Array<KnownTraits & { person: string }>,
  identities: Map<string, PersonIdentity>,
  companyOf: Map<string, CompanyRef>,
): HomePerson[] {
  const traitsOf = new Map(traits.map((t) => [t.person, t]))
  return top.map((p): HomePerson => {
    const t = traitsOf.get(p.person)
    const id = identities.get(p.person)
    const email = t?.t_email.trim() || null
    const company = companyOf.get(p.person)
    return {
      id: p.person,
      name: (t ? fullName(t) : null) ?? (id?.name || null) ?? email ?? (isAnonymousKey(p.person) ? 'Anonymous visitor' : p.person),
      email,
      company: company?.name ?? (t?.t_company.trim() || null),
      companyDomain: company?.domain ?? null,
      events: num(p.this_week),
      lastSeen: isoOf(p.last_seen),
      isNew: num(p.last_week) === 0,
    }
  })
}
