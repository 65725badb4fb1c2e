import { EMAIL_DOMAIN_SQL, MAX_IDENTITIES, memberFilter, type MemberIds } from '../companies/members.ts'
import { rows, type Client } from '../companies/query.ts'
import { identityLinksSql, selectWithPerson } from '../metrics/sql/identity.ts'
import { botIdsSql, notBotSql } from './bots.ts'

/**
 * Who a person is: the one place that decides it, for the people list, the
 * profiles and the audience engine alike. Companies are decided beside it,
 * in companies/members.ts (which company a person belongs to is there too,
 * as personCompanySql, read the other way round).
 *
 * The rules, read from the events themselves:
 *
 * 1. A person is a user id. Every event carrying that user id is theirs.
 * 2. Linking. Any event that carries both a user id and an anonymous id links
 *    the anonymous id to that user id; the anonymous id's events without a
 *    user id (visits before signing up, a lead's form) are then the user's.
 *    An anonymous id linked to several user ids (a shared machine) belongs to
 *    the one it was linked to first (earliest event, then the smallest user id,
 *    so the answer never depends on the order rows come back in).
 * 3. Anonymous visitors. An anonymous id never linked to a user id is a person
 *    of its own, keyed 'anon:' + the anonymous id. The people list shows them
 *    only with 'Show anonymous users' (the call's ip2company). Once a later
 *    event links the anonymous id, its history moves to the user at once: keys
 *    are computed when read, never stored.
 * 4. Traits. A person's traits are, for each trait, the latest non-empty value
 *    over their identify calls (their user id's and their linked anonymous
 *    ids'): traits accumulate, as Segment's do, and a later call without a
 *    trait, or with it empty, does not unset it.
 * 5. Activity is page, screen and track calls (identify, group and alias say
 *    who, not what). A visit is a session: a gap of more than 30 minutes
 *    between a person's activity events starts a new one (the rule of the
 *    company page's time spent, companies/activity.ts).
 *
 * Events with neither id belong to nobody. Events stamped after now (a client
 * clock ahead) count once their time comes, as on the company page. A bot's
 * events (bots.ts: anonymous calls of a visitor marked as a crawler or a
 * headless browser) belong to nobody either.
 *
 * How the SQL is used: personEventsSql() is a subquery of an organisation's
 * events, each with its `person`; every people query selects from it (with
 * {org:String} bound), so the rules above hold in every number. Who is
 * there and when they were last active, for a whole organisation (the
 * people list's order and total), is read from the pairs of ids instead
 * (identifiedPairsSql, anonymousPairsSql), and a page of people's columns from their own rows
 * only (PEOPLE_ROWS_SQL): at ten million events, reading them all took the
 * list about a minute (bench/README.md). A query about one person (the
 * profiles) resolves the person first (resolvePerson) and reads their rows
 * through memberFilter, as the company page reads a company's: a direct
 * filter on user_id and anonymous_id that ClickHouse's bloom filter indexes
 * serve.
 */

export const ANONYMOUS_PREFIX = 'anon:'
export const isAnonymousKey = (person: string) => person.startsWith(ANONYMOUS_PREFIX)
export const anonymousKey = (anonymousId: string) => `${ANONYMOUS_PREFIX}${anonymousId}`

/** Rule 5's activity, as SQL. */
export const ACTIVITY_TYPES_SQL = `('page', 'screen', 'track')`

/**
 * Rule 2: each linked anonymous id with the user id it belongs to
 * (anonymous_id, linked_user). Read from identity_pairs (clickhouse/0004: one
 * row per pair of ids an event carried, with when it was first seen), a few
 * thousand rows where the events are millions: the same answer as the
 * events' own pairs give (the metric engine's identityLinksSql). Reads
 * {org:String}.
 */
export const IDENTITY_LINKS_SQL = identityLinksSql('{org:String}')

/** Rules 1–3: the person of an event row `e` joined to its link `l`. */
export const PERSON_KEY_SQL = `if(e.user_id != '', e.user_id, if(l.linked_user != '', l.linked_user, concat('${ANONYMOUS_PREFIX}', e.anonymous_id)))`

/**
 * The organisation's events with their `person` (rules 1–3), as a subquery.
 * `columns` are columns of events, unqualified (timestamp, type, traits…);
 * `where` further conditions on the event row, written against `e`
 * (e.type = 'identify'). Reads {org:String}. With `from` 'trait_calls', the
 * identify and group calls of clickhouse/0004's trait_calls instead (each
 * distinct content of a caller once, with its latest time: rule 4's latest
 * values are the same), sorted by type and ids, so that a few people's
 * traits are a look-up; its columns are type, user_id, anonymous_id,
 * group_id, timestamp and traits. With 'activity_spans', clickhouse/0016's
 * activity per pair of ids and half hour (columns user_id, anonymous_id,
 * first_at, last_at), sorted by the ids: a few people's visits.
 */
export function personEventsSql(columns: readonly string[], where?: string, from: 'events' | 'trait_calls' | 'activity_spans' = 'events'): string {
  const cols = columns.map((c) => `e.${c} AS ${c}`).join(', ')
  return `
    SELECT ${PERSON_KEY_SQL} AS person${cols ? `, ${cols}` : ''}
    FROM ${from} AS e
    LEFT JOIN (${IDENTITY_LINKS_SQL}) AS l ON e.anonymous_id = l.anonymous_id
    WHERE e.org_id = {org:String} AND (e.user_id != '' OR e.anonymous_id != '') AND ${notBotSql('{org:String}', 'e.')}${where ? ` AND (${where})` : ''}`
}

/**
 * personEventsSql for a scan of many rows (a time window of the whole
 * organisation's events, as the home page reads): the same rows and persons,
 * read as the metric engine reads them (selectWithPerson), in two halves. A
 * row with a user id is that user's (rule 1) and never a bot's, so only the
 * anonymous rows are joined to the links and checked against the bots. At 10
 * million events the home page's two weeks of activity took 0.25 s this way
 * and 0.93 s joined whole. A few people's rows found by the bloom filter
 * indexes (PEOPLE_ROWS_SQL) read faster in one piece, so personEventsSql
 * stays one. `columns` and `where` name the events' columns bare (never
 * user_id or anonymous_id); the organisation is {org:String}.
 */
export function windowEventsSql(columns: readonly string[], where: string): string {
  return selectWithPerson('{org:String}', columns.join(', '), `org_id = {org:String} AND (${where})`, { asText: true, anonymous: (id) => `concat('${ANONYMOUS_PREFIX}', ${id})` })
}

/**
 * Rules 1–3 over identity_pairs (clickhouse/0004) instead of the events:
 * the pairs of ids the organisation's events carried, with their person,
 * when each was first seen and its latest activity (page, screen or track;
 * 1970-01-01 for none). A person's pairs are all their events, so what the
 * people list orders and counts by (who is there by now, when they were
 * last active) is read from pairs, not millions of events. The table
 * keeps what calls said whatever their time: a pair's latest activity may be
 * stamped after now, which the list corrects from the events
 * (api/src/people/list.ts). Columns person, user_id, anonymous_id,
 * first_seen, last_active; reads {org:String}.
 *
 * The pairs come in two disjoint halves, which together are every pair:
 * identifiedPairsSql's, the pairs of identified people (with a user id, or an
 * anonymous id linked to one, IDENTITY_LINKS_SQL), and anonymousPairsSql's,
 * those of anonymous visitors (neither). A list without anonymous visitors
 * reads the first only: at the demo's 10 million events that is 3,590 pairs
 * of 444,254 (1,255 people of 441,919), and the list's order took 55–65 ms
 * this way against 150–180 (bench/README.md).
 */
export function identifiedPairsSql(): string {
  return `
  SELECT if(p.user_id != '', p.user_id, l.linked_user) AS person,
    p.user_id AS user_id, p.anonymous_id AS anonymous_id, p.first_seen AS first_seen, p.last_active AS last_active
  FROM (
    SELECT user_id, anonymous_id, min(first_seen) AS first_seen, max(last_active) AS last_active
    FROM identity_pairs
    WHERE org_id = {org:String} AND (user_id != '' OR anonymous_id IN (SELECT anonymous_id FROM (${IDENTITY_LINKS_SQL})))
    GROUP BY user_id, anonymous_id
  ) AS p
  LEFT JOIN (${IDENTITY_LINKS_SQL}) AS l ON p.anonymous_id = l.anonymous_id
  WHERE ${notBotSql('{org:String}', 'p.')}`
}

/**
 * The other half: each anonymous visitor's one pair (no user id, an anonymous
 * id no user is linked to, not a bot's), its person 'anon:' and the id. A
 * person of one pair needs no grouping by person and no join to the links:
 * the list's order with anonymous visitors took 230–320 ms grouping all
 * 441,919 people by their key, 170–240 ms with them apart (bench/README.md).
 * A user id spelled as an 'anon:' key (the prefix and an anonymous id) is a
 * person of the first half, and the visitor of that anonymous id one of this
 * half: two rows under one key, where grouping them by key made them one.
 */
export function anonymousPairsSql(): string {
  return `
  SELECT concat('${ANONYMOUS_PREFIX}', anonymous_id) AS person, '' AS user_id, anonymous_id, first_seen, last_active
  FROM (
    SELECT anonymous_id, min(first_seen) AS first_seen, max(last_active) AS last_active
    FROM identity_pairs
    WHERE org_id = {org:String} AND user_id = '' AND anonymous_id NOT IN (SELECT anonymous_id FROM (${IDENTITY_LINKS_SQL}))
      AND ${notBotSql('{org:String}')}
    GROUP BY anonymous_id
  )`
}

/**
 * Some people's events, as a condition on events `e`: the rows of their
 * user ids, and the anonymous rows of the anonymous ids that are theirs (an
 * 'anon:' key's own; those linked to their user ids). A query about a page of
 * people adds it to personEventsSql's `where`, so that ClickHouse reads their
 * rows instead of every event of the organisation (in trait_calls and
 * activity_spans their sort keys find them; in events the bloom filter
 * indexes on user_id and anonymous_id skip the granules that hold none of
 * them); the rules still
 * decide each row's person. memberFilter is the same filter over bare
 * columns, for queries that join nothing. Reads {p_users:Array(String)} and
 * {p_anons:Array(String)}, which peopleRowsParams gives.
 */
export const PEOPLE_ROWS_SQL = `(e.user_id IN {p_users:Array(String)} OR (e.user_id = '' AND e.anonymous_id IN {p_anons:Array(String)}))`

/** The parameters of PEOPLE_ROWS_SQL for some people (identity.ts's keys). */
export async function peopleRowsParams(client: Client, org: string, persons: readonly string[]): Promise<{ p_users: string[]; p_anons: string[] }> {
  const users = persons.filter((p) => !isAnonymousKey(p))
  const anons = persons.filter(isAnonymousKey).map((p) => p.slice(ANONYMOUS_PREFIX.length))
  const linked = users.length === 0 ? [] : await rows<{ anonymous_id: string }>(
    client,
    `SELECT anonymous_id FROM (${IDENTITY_LINKS_SQL}) WHERE linked_user IN {users:Array(String)}`,
    { org, users },
  )
  return { p_users: users, p_anons: [...anons, ...linked.map((l) => l.anonymous_id)] }
}

/**
 * Rule 4 for one trait: the latest non-empty value as text, in a query
 * grouped by person over identify rows that have `timestamp` and `traits`.
 * `path` is SQL naming the trait's path: a bound parameter
 * ({t_email:String}) or a literal of fl0's own ('email'), never user input
 * spliced in.
 */
export function latestTraitSql(path: string): string {
  const value = `toString(getSubcolumn(traits, ${path}))`
  return `argMaxIf(${value}, timestamp, ${value} != '')`
}

/**
 * The latest non-empty of several traits, in order of preference (role, else
 * title, else jobTitle); '' when none is. One multiIf, each trait in it twice:
 * nested ifs (`if(a != '', a, b)`) wrote the first twice at every level, so
 * the six paths of a hashed e-mail came to 32 copies and knownTraitsSql to
 * 14,553 characters, which ClickHouse parsed and analysed for every page of
 * people (bench/README.md).
 */
export function firstTraitSql(paths: readonly string[]): string {
  const parts = paths.map(latestTraitSql)
  const last = parts.pop()!
  return parts.length === 0 ? last : `multiIf(${parts.map((p) => `${p} != '', ${p}`).join(', ')}, ${last})`
}

/**
 * The traits the people list and profiles read by name. Hashed e-mails
 * (hasHEM): the SHA-256 or MD5 of an address, as a client sends it today;
 * the identification issue adds the hashed e-mails its callback links to a
 * visitor, here.
 */
export const TRAIT_PATHS = {
  name: ['name'],
  firstName: ['firstName', 'first_name'],
  lastName: ['lastName', 'last_name'],
  email: ['email'],
  role: ['role', 'title', 'jobTitle'],
  company: ['company', 'companyName', 'company_name'],
  employees: ['employees', 'employee_count'],
  revenue: ['revenue', 'annualRevenue', 'annual_revenue'],
  linkedInUrl: ['linkedinUrl', 'linkedInUrl', 'linkedin_url', 'linkedin'],
  hashedEmail: ['hashedEmail', 'hem', 'email_sha256', 'sha256_email', 'emailHash', 'email_md5'],
} as const satisfies Record<string, readonly string[]>

const literal = (path: string) => `'${path.replace(/[^A-Za-z0-9_.]/g, '')}'`

/** Columns of TRAIT_PATHS (one per key), for a query grouped by person over identify rows. */
export function knownTraitsSql(): string {
  return Object.entries(TRAIT_PATHS)
    .map(([key, paths]) => `${firstTraitSql(paths.map(literal))} AS t_${key}`)
    .join(',\n      ')
}

/**
 * E-mail kinds, over all of a person's identify calls: a business e-mail is
 * one at a domain that is not free mail (companies/domain.ts), a personal
 * one at a free-mail provider. Someone may have both. Columns business_email
 * and personal_email (0 or 1), for a query grouped by person over identify
 * rows with `traits`; reads {free_mail:Array(String)} (members.ts's
 * FREE_MAIL_PARAMS).
 */
export function emailKindsSql(): string {
  const d = EMAIL_DOMAIN_SQL
  return `max(${d} != '' AND NOT has({free_mail:Array(String)}, ${d})) AS business_email, max(has({free_mail:Array(String)}, ${d})) AS personal_email`
}

export type KnownTraits = { [K in keyof typeof TRAIT_PATHS as `t_${K}`]: string }

/** The name someone is shown by: their name, else first and last name. */
export function fullName(t: Pick<KnownTraits, 't_name' | 't_firstName' | 't_lastName'>): string | null {
  const full = [t.t_firstName, t.t_lastName].map((s) => s.trim()).filter(Boolean).join(' ')
  return t.t_name.trim() || full || null
}

/** A trait's text as a number, when it is one (employees may come as "120"). */
export function numberOf(text: string): number | null {
  if (text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}

/** One person's ids: what memberFilter reads (companies/members.ts). */
export interface ResolvedPerson extends MemberIds {
  key: string
  anonymous: boolean
}

/**
 * Resolves a person key (a user id, or 'anon:…') to the ids whose events are
 * theirs; undefined when the organisation has no such person: a user id no
 * event carries, or an anonymous id that is unknown, linked to a user (its
 * events are that user's now) or a bot's. A user's anonymous ids leave out
 * bots' (bots.ts): their calls with the user id stay the user's. Which ids
 * events carried is read from identity_pairs (a pair for every event's ids):
 * at 10 million events, asking `events` whether a user id is there took a
 * profile 190 ms, the pairs 10 ms.
 */
export async function resolvePerson(client: Client, org: string, key: string): Promise<ResolvedPerson | undefined> {
  if (isAnonymousKey(key)) {
    const anon = key.slice(ANONYMOUS_PREFIX.length)
    if (!anon) return undefined
    const [row] = await rows<{ seen: string; linked: string; bot: number }>(
      client,
      `SELECT count() AS seen, countIf(user_id != '') AS linked, {anon:String} IN (${botIdsSql()}) AS bot
       FROM identity_pairs WHERE org_id = {org:String} AND anonymous_id = {anon:String}`,
      { org, anon },
    )
    if (!row || Number(row.seen) === 0 || Number(row.linked) > 0 || Number(row.bot) > 0) return undefined
    return { key, anonymous: true, users: [], anons: [anon], persons: [key] }
  }
  const [row] = await rows<{ seen: string; anons: string[] }>(
    client,
    `SELECT (SELECT count() FROM identity_pairs WHERE org_id = {org:String} AND user_id = {user:String}) AS seen,
       (SELECT groupArray(${MAX_IDENTITIES})(anonymous_id) FROM (${IDENTITY_LINKS_SQL}) WHERE linked_user = {user:String} AND anonymous_id NOT IN (${botIdsSql()})) AS anons`,
    { org, user: key },
  )
  if (!row || Number(row.seen) === 0) return undefined
  const anons = [...row.anons].sort()
  return { key, anonymous: false, users: [key], anons, persons: anons.map(() => key) }
}

/** The SQL filter and person key of one resolved person's events (memberFilter's). */
export function personFilter(person: ResolvedPerson) {
  return memberFilter(person)
}
