import { chTime, PEOPLE_PAGE_SIZE, type PeopleList, type PersonRow } from '@fl0/contracts'
import { FREE_MAIL_PARAMS, isoOf, num, personCompanySql, rows, type Client } from '@fl0/query'
import { SESSION_GAP_MS } from '../companies/activity.ts'
import { loadPersonIdentities } from '../identification/people.ts'
import {
  ACTIVITY_TYPES_SQL,
  emailKindsSql,
  fullName,
  isAnonymousKey,
  knownTraitsSql,
  latestTraitSql,
  numberOf,
  PEOPLE_ROWS_SQL,
  peopleRowsParams,
  peopleSearchSql,
  anonymousPairsSql,
  identifiedPairsSql,
  personEventsSql,
  type KnownTraits,
} from '@fl0/query'

/**
 * The people list (part 3 §2 People): the organisation's people, most
 * recently seen first (then by key, so pages never overlap), 20 a page.
 * Identified people only, unless `ip2company` asks for anonymous visitors
 * too (identity.ts's rules decide who is which).
 *
 * The page is chosen first, from one aggregation over the organisation's
 * pairs of ids (peopleSql); everything else (traits, company, visits) is then read for the
 * page's 20 people only, in parallel. A search (query/src/people/search.ts)
 * narrows the people before they are ordered and counted, so the pager and
 * the total follow it.
 */
const PERSONS = '{persons:Array(String)}'

/**
 * Visits are counted over activity_spans' half hours (clickhouse/0016): exact
 * only while no visit can start inside one, that is while a visit ends after
 * a gap of at least the span's length.
 */
const SPAN_MS = 30 * 60_000
if (SESSION_GAP_MS < SPAN_MS) throw new Error(`SESSION_GAP_MS (${SESSION_GAP_MS} ms) is shorter than activity_spans' half hour: the people list's visits would be miscounted`)

interface PeopleQuery {
  page: number
  ip2company: boolean
  /** Blank for everyone; else search.ts's rule (name, e-mail, company). */
  search: string
}

/** The people shown for a query, as a condition on `person`: anonymous visitors only with ip2company, the search's matches only. */
function shownSql(query: Pick<PeopleQuery, 'search'>): string {
  const anonymous = `({anon:Bool} OR NOT startsWith(person, 'anon:'))`
  return query.search ? `${anonymous} AND ${peopleSearchSql()}` : anonymous
}

const baseParams = (org: string, now: Date, query: Omit<PeopleQuery, 'page'>) => ({ org, now: chTime(now), anon: query.ip2company, search: query.search })

/**
 * The people of the list with their last activity, from identity_pairs
 * (identity.ts's identifiedPairsSql, and anonymousPairsSql when the list shows
 * anonymous visitors): who was there by now (a pair first seen by then), and
 * each pair's latest activity. A pair whose latest activity is stamped after
 * now (a client clock ahead, with no sentAt to correct it by) counts, until
 * its time comes, only what it did by now: those few pairs are read again
 * from their events. `rows` is one row a person shown, with columns person,
 * last_seen, active (0 or 1): an identified person's pairs grouped, an
 * anonymous visitor's one pair as it is.
 */
type PeopleSql = { rows: string; params: Record<string, unknown> }

/** Clock-ahead pairs named as bound arrays at most; past this many (a sender stamping its calls in the future), a subquery names them. */
const AHEAD_LISTED = 10_000

async function peopleSql(client: Client, org: string, now: Date, query: Omit<PeopleQuery, 'page'>): Promise<PeopleSql> {
  const params: Record<string, unknown> = baseParams(org, now, query)
  const aheadSql = `SELECT DISTINCT user_id, anonymous_id FROM identity_pairs WHERE org_id = {org:String} AND last_active > {now:DateTime64(3)}`
  const ahead = await rows<{ user_id: string; anonymous_id: string }>(client, `${aheadSql} LIMIT ${AHEAD_LISTED + 1}`, params)
  let lastActive = 'last_active'
  let correction = ''
  if (ahead.length > 0) {
    // Their activity by now, from the events of those pairs only (the arrays a superset: the join keeps the pairs themselves).
    let theirs = `(user_id, anonymous_id) IN (${aheadSql})`
    if (ahead.length <= AHEAD_LISTED) {
      params.a_users = [...new Set(ahead.map((a) => a.user_id))]
      params.a_anons = [...new Set(ahead.map((a) => a.anonymous_id))]
      theirs = 'user_id IN {a_users:Array(String)} AND anonymous_id IN {a_anons:Array(String)}'
    }
    correction = `LEFT JOIN (
        SELECT user_id, anonymous_id, maxIf(timestamp, type IN ${ACTIVITY_TYPES_SQL} AND timestamp <= {now:DateTime64(3)}) AS by_now
        FROM events WHERE org_id = {org:String} AND ${theirs}
        GROUP BY user_id, anonymous_id
      ) AS c ON c.user_id = x.user_id AND c.anonymous_id = x.anonymous_id`
    lastActive = `if(x.last_active > {now:DateTime64(3)}, c.by_now, x.last_active)`
  }
  const pairs = (sql: string) => `
      SELECT x.person AS person, ${lastActive} AS last_seen, last_seen > toDateTime64(0, 3, 'UTC') AS active
      FROM (${sql}) AS x
      ${correction}
      WHERE x.first_seen <= {now:DateTime64(3)}`
  const identified = `SELECT person, max(last_seen) AS last_seen, max(active) AS active FROM (${pairs(identifiedPairsSql())}) WHERE ${shownSql(query)} GROUP BY person`
  const anonymous = `SELECT person, last_seen, active FROM (${pairs(anonymousPairsSql())}) WHERE ${shownSql(query)}`
  return { rows: query.ip2company ? `${identified}\n      UNION ALL\n      ${anonymous}` : identified, params }
}

/** The list's order (keys, last activity, whether ever active, how many in all), a page of it or (limit 0) all. */
function orderedPeople(client: Client, people: PeopleSql, limit: number, offset: number) {
  return rows<{ person: string; last_seen: string; active: number; total: string }>(
    client,
    `SELECT person, last_seen, active, count() OVER () AS total
     FROM (${people.rows})
     ORDER BY active DESC, last_seen DESC, person
     ${limit > 0 ? 'LIMIT {limit:UInt32} OFFSET {offset:UInt32}' : ''}`,
    { ...people.params, limit, offset },
  )
}

export async function listPeople(client: Client, org: string, now: Date, query: PeopleQuery): Promise<PeopleList> {
  const people = await peopleSql(client, org, now, query)
  const page = await orderedPeople(client, people, PEOPLE_PAGE_SIZE, (query.page - 1) * PEOPLE_PAGE_SIZE)
  // A page past the end has no row to carry the total.
  const total = page.length > 0 ? page[0]!.total : (await rows<{ total: string }>(client, `SELECT count() AS total FROM (${people.rows})`, people.params))[0]?.total
  return { totalUsers: num(total), users: await describePeople(client, org, now, page) }
}

/** People a CSV file reads at a time: each slice's traits, companies and identities are one query each. */
const EXPORT_SLICE = 500

/**
 * Every person of the list for a query, in the list's order (the CSV
 * download: the whole filtered list, not a page). The order is read once;
 * the people are described a slice at a time, so that no query names every
 * person at once.
 */
export async function allPeople(client: Client, org: string, now: Date, query: Omit<PeopleQuery, 'page'>): Promise<PersonRow[]> {
  const ordered = await orderedPeople(client, await peopleSql(client, org, now, query), 0, 0)
  const out: PersonRow[] = []
  for (let at = 0; at < ordered.length; at += EXPORT_SLICE) out.push(...(await describePeople(client, org, now, ordered.slice(at, at + EXPORT_SLICE))))
  return out
}

/** The rows of some people of the list: traits, company, visits and identification, read for them only, in parallel. */
async function describePeople(client: Client, org: string, now: Date, page: Array<{ person: string; last_seen: string; active: number }>): Promise<PersonRow[]> {
  const persons = page.map((p) => p.person)
  if (persons.length === 0) return []
  // Their rows only: each query below reads the page's people's events, not the organisation's.
  const params = { org, now: chTime(now), persons, ...FREE_MAIL_PARAMS, ...(await peopleRowsParams(client, org, persons)) }
  const [traits, companies, visits, identities] = await Promise.all([
    rows<KnownTraits & { person: string; business_email: number | string; personal_email: number | string }>(
      client,
      `SELECT person, ${knownTraitsSql()}, ${emailKindsSql()}
       FROM (${personEventsSql(['timestamp', 'traits'], `e.type = 'identify' AND ${PEOPLE_ROWS_SQL} AND has(${PERSONS}, person)`, 'trait_calls')})
       GROUP BY person`,
      params,
    ),
    rows<{ person: string; group_id: string; company_domain: string }>(
      client,
      personCompanySql(personEventsSql(['type', 'timestamp', 'group_id', 'traits'], `e.type IN ('group', 'identify') AND ${PEOPLE_ROWS_SQL} AND has(${PERSONS}, person)`, 'trait_calls')),
      params,
    ),
    rows<{ person: string; visits: string }>(
      client,
      // A visit starts at a person's first activity and after every gap longer than SESSION_GAP_MS between two,
      // counted over their half hours' first and last moments (clickhouse/0016: the same count as over every
      // event). A span whose first moment is by now counts; its moments after now are left out.
      `SELECT person, 1 + arrayCount(d -> d > {gap:UInt32}, arrayDifference(arraySort(arrayConcat(
         groupArray(toUnixTimestamp64Milli(first_at)), groupArrayIf(toUnixTimestamp64Milli(last_at), last_at <= {now:DateTime64(3)}))))) AS visits
       FROM (${personEventsSql(['first_at', 'last_at'], `e.first_at <= {now:DateTime64(3)} AND ${PEOPLE_ROWS_SQL} AND has(${PERSONS}, person)`, 'activity_spans')})
       GROUP BY person`,
      { ...params, gap: SESSION_GAP_MS },
    ),
    // Visitor identification (identification/people.ts): a partner's record, a company from the address.
    loadPersonIdentities(client, org, persons),
  ])
  const groups = await loadGroups(client, org, [...new Set(companies.map((c) => c.group_id).filter(Boolean))])

  const traitsOf = new Map(traits.map((t) => [t.person, t]))
  const companyOf = new Map(companies.map((c) => [c.person, c]))
  const visitsOf = new Map(visits.map((v) => [v.person, num(v.visits)]))
  return page.map((p): PersonRow => {
    const t = traitsOf.get(p.person)
    const c = companyOf.get(p.person)
    const g = c?.group_id ? groups.get(c.group_id) : undefined
    // What the events say comes first; identification fills what they leave empty.
    const id = identities.get(p.person)
    const name = (t ? fullName(t) : null) ?? (id?.name || null)
    const email = t?.t_email.trim() || null
    const anonymous = isAnonymousKey(p.person)
    const companyDomain = c?.company_domain || id?.companyDomain || null
    return {
      id: p.person,
      anonymous,
      visitor: name ?? email ?? (anonymous ? 'Anonymous visitor' : p.person),
      email,
      company: g?.name || t?.t_company.trim() || c?.company_domain || id?.companyName || id?.companyDomain || null,
      companyDomain,
      visits: visitsOf.get(p.person) ?? 0,
      role: t?.t_role.trim() || id?.role || null,
      lastSeen: num(p.active) > 0 ? isoOf(p.last_seen) : null,
      employees: numberOf(g?.employees ?? '') ?? numberOf(t?.t_employees ?? '') ?? id?.employees ?? null,
      revenue: numberOf(g?.revenue ?? '') ?? numberOf(t?.t_revenue ?? '') ?? id?.revenue ?? null,
      linkedInUrl: linkedInUrlOf(t?.t_linkedInUrl ?? '') ?? linkedInUrlOf(id?.linkedinUrl ?? ''),
      hasBusinessEmail: num(t?.business_email) > 0 || (id?.hasBusinessEmail ?? false),
      hasPersonalEmail: num(t?.personal_email) > 0 || (id?.hasPersonalEmail ?? false),
      hasHEM: (t?.t_hashedEmail ?? '').trim() !== '' || (id?.hasHem ?? false),
    }
  })
}

interface GroupInfo {
  name: string
  employees: string
  revenue: string
}

/** The company's own traits from its group calls: the latest non-empty name, employees and revenue. */
async function loadGroups(client: Client, org: string, groupIds: string[]): Promise<Map<string, GroupInfo>> {
  if (groupIds.length === 0) return new Map()
  const found = await rows<GroupInfo & { group_id: string }>(
    client,
    `SELECT group_id, ${latestTraitSql(`'name'`)} AS name, ${latestTraitSql(`'employees'`)} AS employees, ${latestTraitSql(`'revenue'`)} AS revenue
     FROM trait_calls
     WHERE org_id = {org:String} AND type = 'group' AND has({groups:Array(String)}, group_id)
     GROUP BY group_id`,
    { org, groups: groupIds },
  )
  return new Map(found.map((g) => [g.group_id, g]))
}

/** A profile address, made absolute; anything but http(s) is dropped (the screen links to it). */
export function linkedInUrlOf(text: string): string | null {
  const t = text.trim()
  if (!t) return null
  const url = /^https?:\/\//i.test(t) ? t : /^(www\.)?linkedin\.com\//i.test(t) ? `https://${t}` : null
  if (!url) return null
  try {
    return new URL(url).protocol.startsWith('http') ? url : null
  } catch {
    return null
  }
}
