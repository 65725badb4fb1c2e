import type { MembershipRule } from '@fl0/contracts'
import { CANDIDATE_VISITS_FILTER, candidateVisitors, COMPANY_CANDIDATES_SQL, LINKED_ANONS_SQL, orgParams, resolutionCtes } from '../identification/resolution.ts'
import { FREE_MAIL_DOMAINS, isFreeMailDomain } from './domain.ts'
import { botIdsSql, NOT_BOT_SQL } from '../people/bots.ts'
import { rows, type Client } from './query.ts'

/**
 * Who belongs to a company: the one place that decides it. Every query of the
 * company page reads a company's events through `memberFilter` below, so a
 * new way of knowing (the identification issue's IP ranges, identity
 * callbacks and universal person table) is added here and reaches every
 * number on the page at once.
 *
 * Today's rules, read from the events themselves:
 *
 * 1. Segment group. A `group` call whose traits.domain or traits.website names
 *    the domain (lowercased, without www.) makes its group id the company's.
 *    Every group call with such a group id, with or without those traits
 *    (clients often send them once), makes its caller a member.
 * 2. Business e-mail. An `identify` whose traits.email is at the domain, or at
 *    one of its subdomains (jo@eu.acme.com), makes its caller a member, unless
 *    the domain is a free-mail provider's (domain.ts): jo@gmail.com works at
 *    no company called gmail.com.
 * 3. Anonymous history. Any event that carries both a user id and an anonymous
 *    id links the two, so a member's visits before signing up, made under the
 *    anonymous id alone, are theirs too. An anonymous visitor who became a
 *    member by rules 1 or 2 without a user id (a lead filling in a form) is a
 *    person of their own, 'anon:' + the anonymous id, until a later event links
 *    them to a user id, which then becomes a member by that same link.
 *
 * 4. Identified visits. A visit that visitor identification resolved to the
 *    domain (identification/resolution.ts: its address's range, a person the
 *    identity callback or a cookie links, an identified person's universal
 *    record, an identified business e-mail) makes its visitor a member, as
 *    rule 2 does: its user id, else its anonymous id.
 *
 * A person is keyed by their user id (or 'anon:…'). An anonymous id linked to
 * several member user ids (a shared machine) goes to the one linked first.
 *
 * Bots are nobody's (people/bots.ts): a visitor marked as a crawler or a
 * headless browser is no evidence and no member, and a member's anonymous ids
 * leave out bots' (their calls with the member's user id stay the member's).
 *
 * Evidence is read from the whole history, not the page's 30 days: someone
 * who signed up a year ago and visited yesterday is still the company's. The
 * look-ups read only identify and group calls and the link columns, and stop
 * at MAX_IDENTITIES rows; the identification issue's derived tables will
 * replace the scans with a look-up. The member ids travel to the page's
 * queries as bound array parameters, which a ClickHouse server receives in
 * the request's URL (1 MiB at most by default): 2,000 ids of each kind stay
 * well inside it.
 */
export const MAX_IDENTITIES = 2000
/** Linking rounds: a lead's anonymous id can bring in a user id, whose other devices then follow. */
const LINK_ROUNDS = 3

export interface CompanyMembers {
  domain: string
  /** The rules that found the company: empty means fl0 does not know it. */
  identifiedBy: MembershipRule[]
  groupIds: string[]
  /** Member user ids. */
  users: string[]
  /** Anonymous ids of members, each with its person (`persons[i]` is `anons[i]`'s). */
  anons: string[]
  persons: string[]
  /** Distinct people. */
  people: number
}

interface Evidence {
  rule: MembershipRule
  group_id: string
  user_id: string
  anonymous_id: string
}

interface Link {
  anonymous_id: string
  user_id: string
}

// Rules 1 and 2's evidence, read from trait_calls (clickhouse/0004: each distinct group or identify call of a caller
// once), not from every event: the same callers and groups.
const EVIDENCE_SQL = `
SELECT * FROM (
  SELECT DISTINCT 'group' AS rule, group_id, user_id, if(user_id = '', anonymous_id, '') AS anonymous_id
  FROM trait_calls
  WHERE org_id = {org:String} AND type = 'group' AND ${NOT_BOT_SQL} AND group_id IN (
    SELECT DISTINCT group_id FROM trait_calls
    WHERE org_id = {org:String} AND type = 'group' AND group_id != ''
      AND (domainWithoutWWW(lower(traits.domain::String)) = {domain:String}
        OR domainWithoutWWW(lower(traits.website::String)) = {domain:String})
  )
  UNION ALL
  SELECT DISTINCT 'email' AS rule, '' AS group_id, user_id, if(user_id = '', anonymous_id, '') AS anonymous_id
  FROM trait_calls
  WHERE org_id = {org:String} AND type = 'identify' AND {business:Bool} AND ${NOT_BOT_SQL}
    AND position(lower(traits.email::String), '@') > 0
    AND (splitByChar('@', lower(trimBoth(traits.email::String)))[-1] AS email_domain) != ''
    AND (email_domain = {domain:String} OR endsWith(email_domain, concat('.', {domain:String})))
)
LIMIT {limit:UInt32}`

// The links of the members' ids, oldest first, from identity_pairs (clickhouse/0004: each pair with when it was first seen).
const LINKS_SQL = `
SELECT anonymous_id, user_id
FROM identity_pairs
WHERE org_id = {org:String} AND anonymous_id != '' AND user_id != ''
  AND (has({users:Array(String)}, user_id) OR has({anons:Array(String)}, anonymous_id))
  AND anonymous_id NOT IN (${botIdsSql()})
GROUP BY anonymous_id, user_id
ORDER BY min(first_seen), anonymous_id, user_id
LIMIT {limit:UInt32}`

/** Rule 4: visitors whose visits resolved to the domain, by how ('email_domain' is rule 2's e-mail). */
const VISIT_EVIDENCE_SQL = `
WITH ${resolutionCtes(CANDIDATE_VISITS_FILTER)}
SELECT DISTINCT if(company_via = 'email_domain', 'email', company_via) AS rule, '' AS group_id, user_id, if(user_id = '', anonymous_id, '') AS anonymous_id
FROM resolved_visits
WHERE company_domain = {domain:String}
LIMIT {limit:UInt32}`

/** Rule 4's evidence: only the persons who could resolve to the domain are resolved (identification/resolution.ts). */
async function visitEvidence(client: Client, org: string, domain: string): Promise<Evidence[]> {
  const [candidates] = await rows<{ visitors: string[]; users: string[] }>(client, COMPANY_CANDIDATES_SQL, { ...orgParams(org), domain, limit: MAX_IDENTITIES })
  if (!candidates || (candidates.visitors.length === 0 && candidates.users.length === 0)) return []
  const [linked] = await rows<{ anons: string[] }>(client, LINKED_ANONS_SQL, { org, c_users: candidates.users })
  const params = { ...orgParams(org), domain, limit: MAX_IDENTITIES, c_visitors: candidateVisitors({ visitors: candidates.visitors, anons: linked?.anons, users: candidates.users }) }
  return rows<Evidence>(client, VISIT_EVIDENCE_SQL, params)
}

export async function resolveCompanyMembers(client: Client, org: string, domain: string): Promise<CompanyMembers> {
  const [events, visits] = await Promise.all([
    rows<Evidence>(client, EVIDENCE_SQL, { org, domain, business: !isFreeMailDomain(domain), limit: MAX_IDENTITIES }),
    visitEvidence(client, org, domain),
  ])
  const evidence = [...events, ...visits]
  const identifiedBy = (['group', 'email', 'ip', 'callback', 'identify'] as const).filter((rule) => evidence.some((e) => e.rule === rule))
  const groupIds = [...new Set(evidence.map((e) => e.group_id).filter(Boolean))].sort()

  const users = new Set(evidence.map((e) => e.user_id).filter(Boolean))
  const anonymousMembers = new Set(evidence.filter((e) => !e.user_id && e.anonymous_id).map((e) => e.anonymous_id))
  let links: Link[] = []
  for (let round = 0; round < LINK_ROUNDS; round++) {
    links = await rows<Link>(client, LINKS_SQL, { org, users: [...users], anons: [...anonymousMembers], limit: MAX_IDENTITIES })
    const before = users.size
    for (const l of links) if (anonymousMembers.has(l.anonymous_id) && users.size < MAX_IDENTITIES) users.add(l.user_id)
    if (users.size === before) break
  }

  // Links come oldest first: an anonymous id goes to the member it was linked to first.
  const personOf = new Map<string, string>()
  for (const l of links) if (users.has(l.user_id) && !personOf.has(l.anonymous_id)) personOf.set(l.anonymous_id, l.user_id)
  for (const anon of anonymousMembers) if (!personOf.has(anon)) personOf.set(anon, `anon:${anon}`)

  const people = new Set([...users, ...personOf.values()])
  return {
    domain,
    identifiedBy,
    groupIds,
    users: [...users].sort(),
    anons: [...personOf.keys()],
    persons: [...personOf.values()],
    people: people.size,
  }
}

/** The ids whose events memberFilter picks: a company's members, or one person (people/identity.ts's resolvePerson). */
export type MemberIds = Pick<CompanyMembers, 'users' | 'anons' | 'persons'>

/**
 * The SQL that picks a company's events and names their person, for the
 * queries of the company page: `where` selects the rows of members (a row
 * with a user id belongs to that user; a row without one to the person its
 * anonymous id is linked to), `person` is the row's person key. Both read the
 * query parameters `params` gives.
 */
export function memberFilter(members: MemberIds) {
  return {
    where: `(has({m_users:Array(String)}, user_id) OR (user_id = '' AND has({m_anons:Array(String)}, anonymous_id)))`,
    person: `if(user_id != '', user_id, transform(anonymous_id, {m_anons:Array(String)}, {m_persons:Array(String)}, ''))`,
    params: { m_users: members.users, m_anons: members.anons, m_persons: members.persons },
  }
}

/**
 * The rules above read the other way round: each person's company, for the
 * people list and the profiles (people/identity.ts decides who a person is).
 *
 * - Rule 1: the person's latest group call whose group names a domain (the
 *   group's traits.domain, else traits.website, on any of its group calls);
 *   without one, their latest group call names the group (its traits still
 *   describe the company) but no domain.
 * - Rule 2: otherwise the domain of the latest business e-mail of their
 *   identify calls (free mail names no company). A subdomain's address
 *   (jo@eu.acme.com) names eu.acme.com, whose page finds the person by the
 *   same rule.
 * So every company_domain this answers opens a company page that counts the
 * person among its members.
 *
 * `personEvents` is a subquery with the columns person, type, timestamp,
 * group_id and traits (people/identity.ts's personEventsSql). Columns:
 * person, group_id, company_domain ('' when none), via ('group', 'email' or
 * ''). Reads {org:String} and {free_mail:Array(String)} (FREE_MAIL_PARAMS).
 */
export const GROUP_DOMAIN_SQL = `if(domainWithoutWWW(lower(traits.domain::String)) != '', domainWithoutWWW(lower(traits.domain::String)), domainWithoutWWW(lower(traits.website::String)))`
export const EMAIL_DOMAIN_SQL = `if(position(traits.email::String, '@') > 0, splitByChar('@', lower(trimBoth(traits.email::String)))[-1], '')`
export const FREE_MAIL_PARAMS = { free_mail: [...FREE_MAIL_DOMAINS] }

/**
 * Each group id of the organisation with the domain its group calls name
 * (group_id, domain), read from trait_calls (clickhouse/0004: each distinct
 * group call once, with its latest time; the latest domain is the same).
 */
export const GROUP_DOMAINS_SQL = `
  SELECT group_id, argMaxIf(d, timestamp, d != '') AS domain
  FROM (SELECT group_id, timestamp, ${GROUP_DOMAIN_SQL} AS d FROM trait_calls WHERE org_id = {org:String} AND type = 'group' AND group_id != '')
  GROUP BY group_id`

export function personCompanySql(personEvents: string): string {
  return `
    SELECT person, group_id, group_domain, email_domain,
      if(group_domain != '', group_domain, email_domain) AS company_domain,
      multiIf(group_domain != '', 'group', email_domain != '', 'email', '') AS via
    FROM (
      SELECT s.person AS person,
        argMaxIf(g.domain, s.timestamp, s.type = 'group' AND g.domain != '') AS group_domain,
        argMaxIf(s.group_id, (g.domain != '', s.timestamp), s.type = 'group' AND s.group_id != '') AS group_id,
        argMaxIf(s.email_domain, s.timestamp, s.type = 'identify' AND s.email_domain != '' AND NOT has({free_mail:Array(String)}, s.email_domain)) AS email_domain
      FROM (SELECT person, type, timestamp, group_id, ${EMAIL_DOMAIN_SQL} AS email_domain FROM (${personEvents}) WHERE type IN ('group', 'identify')) AS s
      LEFT JOIN (${GROUP_DOMAINS_SQL}) AS g ON s.group_id = g.group_id
      GROUP BY s.person
    )`
}
