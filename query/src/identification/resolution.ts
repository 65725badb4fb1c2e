import { FREE_MAIL_DOMAINS } from '../companies/domain.ts'

/**
 * Who a visit was and which company it came from: the one place that
 * decides it (docs/identification.md, "How a visit is resolved"). The
 * identity worker stores each visit's facts (workers/src/identity); this
 * resolves them when read, against the imported tables as they are now, so
 * an import counts at once and nothing resolved can go stale (the free
 * data's organisation-wide rules, below, follow the visits within a pass
 * of the workers).
 *
 * Person, for the visit's person (people/identity.ts's key: the user id; an
 * anonymous id linked to a user by any visit carrying both, the first such
 * link winning; else 'anon:' + the anonymous id):
 * 1. callback: a puid of any of the person's visits is linked (identity
 *    callback or cookie import) to an up_id, or to a hashed e-mail the
 *    universal table knows, and the universal table has that person. The
 *    latest such link wins. A link counts for the organisation a signed
 *    callback named; an unscoped one (an unsigned callback, a cookie import)
 *    for every organisation, except unsigned callbacks for an organisation
 *    that requires signed ones (callback_link_policy,
 *    clickhouse/0007_callback_link_scope.sql): from the moment it set its
 *    secret, the unsigned links it had stop counting too.
 * 2. identify: otherwise, the person is a user id, or gave an e-mail in an
 *    identify call; that e-mail's SHA-256 finds their universal record, if any.
 * Company, the first that applies:
 * 1. email_domain: the domain of the person's latest identified e-mail, unless
 *    it is free mail (companies/domain.ts): first-party evidence beats a
 *    partner's.
 * 2. callback / identify: the company of the person's universal record.
 * 3. ip: the visit's own address, when the range it matched is a company's,
 *    a university's or a government's (kind company, education, government:
 *    an imported range, else the free data's network, classified by the
 *    identity worker). Internet providers, hosting and mobile networks (kind
 *    isp, hosting, mobile) never name a company. Nor, for the free data, does
 *    an address shared by many (SHARED_ADDRESS_VISITORS different visitors
 *    in a day: a carrier's NAT, a café) or a network seen from many
 *    places (WIDE_NETWORK_PREFIXES /24s or /48s in 30 days: a provider the
 *    name rules missed): an office egresses through a few addresses.
 *    The domain: the range's, else the one the organisation's own visitors
 *    give the free data's network (NETWORK_DOMAINS_SQL: the business e-mail
 *    domain that at least two people identified from it share), so that
 *    the company page, logo and traits work. These three rules read all of
 *    the organisation's visits: the workers work them out when the visits
 *    change and keep them in network_rules (NETWORK_RULES_SQL), which the
 *    resolution reads, so they follow the visits within the workers' pass
 *    (5 s; a minute for an organisation whose visits never stop changing)
 *    rather than at once.
 * Bots (people/bots.ts) are nobody: their visits are left out.
 *
 * The SQL reads {free_mail:Array(String)} (RESOLUTION_PARAMS) and
 * {org:String}: one organisation's visits, or with {all_orgs:Bool} true,
 * every organisation's (the admin grids without a picked organisation);
 * persons never span organisations.
 * `visitFilter` narrows the visits read (written against identified_visits'
 * columns), e.g. to some persons' visitors.
 */
export const RESOLUTION_PARAMS = { free_mail: [...FREE_MAIL_DOMAINS] }
const ORG_FILTER = '({all_orgs:Bool} OR org_id = {org:String})'
/** A visit that is not a bot's (people/bots.ts's rule), the bots read for the organisations read only. */
const NOT_BOT_VISIT_SQL = `(user_id != '' OR (org_id, anonymous_id) NOT IN (SELECT org_id, anonymous_id FROM bot_visitors WHERE ${ORG_FILTER}))`

/** The kinds of network that name a visitor's organisation (workers/src/identity/networks/classify.ts). */
export const NAMED_KINDS_SQL = `('company', 'education', 'government')`
/** Different visitors in one day behind one address at which the free data no longer names it. */
export const SHARED_ADDRESS_VISITORS = 50
/** Different /24s (IPv6: /48s) of one network, among an organisation's visits of 30 days, at which it is taken for a provider. */
export const WIDE_NETWORK_PREFIXES = 50

/**
 * Each free-data network (org_id, ip_asn) whose domain the organisation's own
 * visitors give: of the visitors (browsers) seen in it, those whose latest
 * e-mail in an identify call is a business one; the domain of at least two
 * such e-mail addresses and of at least 60 % of them (a VPN or a coworking
 * space that slipped through as a company carries many domains, and gets
 * none). Reads {org:String}, {all_orgs:Bool} and {free_mail} (orgParams).
 */
const NETWORK_DOMAINS_SQL = `
  SELECT org_id, ip_asn, argMax(domain, (people, domain)) AS domain FROM (
    SELECT org_id, ip_asn, domain, people, sum(people) OVER (PARTITION BY org_id, ip_asn) AS all_people FROM (
      SELECT n.org_id AS org_id, n.ip_asn AS ip_asn, splitByChar('@', e.last_email)[-1] AS domain, uniqExact(e.last_email) AS people
      FROM (
        SELECT DISTINCT org_id, visitor_id, ip_asn FROM identified_visits FINAL
        WHERE ${ORG_FILTER} AND ip_source = 'free' AND ip_asn != 0 AND ip_kind IN ${NAMED_KINDS_SQL}
      ) AS n
      INNER JOIN (
        SELECT org_id, visitor_id, argMax(email, ended_at) AS last_email FROM identified_visits FINAL
        WHERE ${ORG_FILTER} AND email != '' GROUP BY org_id, visitor_id
      ) AS e ON e.org_id = n.org_id AND e.visitor_id = n.visitor_id
      WHERE NOT has({free_mail:Array(String)}, domain)
      GROUP BY org_id, ip_asn, domain
    )
  )
  WHERE people >= 2 AND people * 10 >= all_people * 6
  GROUP BY org_id, ip_asn`

/** An address as its /64 for IPv6 (privacy addresses rotate within it), itself for IPv4. */
const ADDRESS_KEY_SQL = (ip: string) => `cutIPv6(toIPv6OrDefault(${ip}), 8, 0)`
/** An address as its site: its /48 for IPv6, its /24 for IPv4. */
const PREFIX_KEY_SQL = (ip: string) => `cutIPv6(toIPv6OrDefault(${ip}), 10, 1)`

/**
 * The organisation-wide rules of the free data, worked out from the
 * organisation's visits other than bots': the addresses (per day) and the
 * networks that the free data does not name (the rules of shared addresses
 * and wide networks above, networks judged on their last 30 days), and the
 * networks' learned domains (NETWORK_DOMAINS_SQL). The workers run this when
 * an organisation's visits or bots change and keep its rows in network_rules
 * (clickhouse/0017_network_rules.sql; workers/src/identity/network-rules.ts);
 * the resolution reads them from there. Reads orgParams; answers org_id,
 * rule, address, day, ip_asn, domain.
 */
export const NETWORK_RULES_SQL = `
  SELECT org_id, 'shared_address' AS rule, ${ADDRESS_KEY_SQL('ip')} AS address, toDate(started_at) AS day, toUInt32(0) AS ip_asn, '' AS domain
  FROM identified_visits FINAL
  WHERE ${ORG_FILTER} AND ip_source = 'free' AND ip_kind IN ${NAMED_KINDS_SQL} AND ${NOT_BOT_VISIT_SQL}
  GROUP BY org_id, address, day HAVING uniqExact(visitor_id) >= ${SHARED_ADDRESS_VISITORS}
  UNION ALL
  SELECT org_id, 'wide_network' AS rule, '' AS address, toDate(0) AS day, ip_asn, '' AS domain
  FROM identified_visits FINAL
  WHERE ${ORG_FILTER} AND ip_source = 'free' AND ip_asn != 0 AND ip_kind IN ${NAMED_KINDS_SQL} AND ${NOT_BOT_VISIT_SQL}
    AND started_at >= now64(3) - INTERVAL 30 DAY
  GROUP BY org_id, ip_asn HAVING uniqExact(${PREFIX_KEY_SQL('ip')}) >= ${WIDE_NETWORK_PREFIXES}
  UNION ALL
  SELECT org_id, 'network_domain' AS rule, '' AS address, toDate(0) AS day, ip_asn, domain FROM (${NETWORK_DOMAINS_SQL}
  )`

/** The organisations' rules as the workers last wrote them (NETWORK_RULES_SQL), of one kind. */
const rulesOf = (rule: string, columns: string) => `SELECT ${columns} FROM network_rules FINAL WHERE ${ORG_FILTER} AND rule = '${rule}'`

/**
 * The addresses (per day) and networks that the free data does not name for
 * the organisation, and the networks' learned domains, as network_rules
 * holds them: a few rows, where working them out reads all of the
 * organisation's visits (0.5–0.9 s at 1.3 million visits, bench/README.md).
 */
const SHARED_SQL = `
  shared_addresses AS (${rulesOf('shared_address', 'org_id, address, day')}),
  wide_networks AS (${rulesOf('wide_network', 'org_id, ip_asn')}),
  network_domains AS (${rulesOf('network_domain', 'org_id, ip_asn, domain')})`

/** The organisation parameters: one organisation, or (undefined) all of them. */
export const orgParams = (orgId: string | undefined) => ({ org: orgId ?? '', all_orgs: orgId === undefined, ...RESOLUTION_PARAMS })

/**
 * Visits (`source`, as `k`) with what their address names: the free data's
 * network with its domain learned from the visitors, and no name behind a
 * shared address or a wide network ('shared'); an imported range as it is.
 */
const withNetworksSql = (source: string) => `
    SELECT k.*,
      if(k.ip_domain = '' AND k.ip_source = 'free', nd.domain, k.ip_domain) AS network_domain,
      if(k.ip_source = 'free' AND k.ip_kind IN ${NAMED_KINDS_SQL}
        AND ((k.org_id, ${ADDRESS_KEY_SQL('k.ip')}, toDate(k.started_at)) IN (SELECT org_id, address, day FROM shared_addresses)
          OR (k.org_id, k.ip_asn) IN (SELECT org_id, ip_asn FROM wide_networks)),
        'shared', k.ip_kind) AS network_kind,
      toUInt8(network_kind IN ${NAMED_KINDS_SQL} AND (network_domain != '' OR k.ip_company != '')) AS network_named
    FROM ${source} AS k
    LEFT JOIN network_domains AS nd ON nd.org_id = k.org_id AND nd.ip_asn = k.ip_asn`

/** An anonymous id's person: its own user id, else the one it is linked to (`linked_user`), else itself. */
const PERSON_KEY_SQL = `if(user_id != '', user_id, if(linked_user != '', linked_user, concat('anon:', anonymous_id)))`

export function resolutionCtes(visitFilter?: string): string {
  return `
  ${SHARED_SQL},
  visits AS (
    SELECT org_id, visitor_id, started_at, ended_at, anonymous_id, user_id, puid, ip, ip_company, ip_domain, ip_kind, ip_range_first, ip_range_last,
      ip_asn, ip_network, ip_source, ip_country, ip_region, ip_city, email, name
    FROM identified_visits FINAL
    WHERE ${ORG_FILTER} AND ${NOT_BOT_VISIT_SQL}${visitFilter ? ` AND (${visitFilter})` : ''}
  ),
  -- Each visit with its person, for what is read visit by visit (resolved_visits; the admin's grid and the export
  -- count visits per person from visit_networks).
  keyed AS (
    SELECT * EXCEPT linked_user, ${PERSON_KEY_SQL} AS person
    FROM (
      -- An anonymous id's link: the user id of its earliest visit that carries one. A window over the visits
      -- rather than a join to them grouped: each place that reads keyed (visit_networks, and through it
      -- resolved_visits) reads the visits, and their bot check, once rather than twice (bench/README.md).
      SELECT *, if(anonymous_id != '', argMinIf(user_id, (started_at, user_id), user_id != '') OVER (PARTITION BY org_id, anonymous_id), '') AS linked_user
      FROM visits
    )
  ),
  visit_networks AS (${withNetworksSql('keyed')}
  ),
  -- What people are made of, before anyone's person is known: the visits grouped by what decides it (the
  -- anonymous and the user id) and by the puid their links hang on, with what the person takes from them, each
  -- as the greatest (time, value) tuple of the group (the person's is the greatest of those of their groups that
  -- have one). A few rows a person where they had hundreds of visits: the link of each anonymous id (the user id
  -- of its earliest visit that carries one) is then a window over these groups, and the links of puids a join
  -- to them, rather than over every visit (bench/README.md, issue 19).
  visit_groups AS (
    SELECT v.org_id AS org_id, v.anonymous_id AS anonymous_id, v.user_id AS user_id, v.puid AS puid, min(v.started_at) AS first_at,
      -- Ties (two visits ending at the same moment) go to the greater value, whatever order the rows come in;
      -- the address's company name and domain both come from the same visit.
      maxIf((v.ended_at, v.email), v.email != '') AS latest_email, maxIf((v.ended_at, v.name), v.name != '') AS latest_name,
      maxIf((v.ended_at, v.network_domain, v.ip_company), v.network_named) AS latest_named
    FROM (${withNetworksSql('visits')}
    ) AS v
    GROUP BY v.org_id, v.anonymous_id, v.user_id, v.puid
  ),
  group_persons AS (
    SELECT * EXCEPT linked_user, ${PERSON_KEY_SQL} AS person
    FROM (
      SELECT *, if(anonymous_id != '', argMinIf(user_id, (first_at, user_id), user_id != '') OVER (PARTITION BY org_id, anonymous_id), '') AS linked_user
      FROM visit_groups
    )
  ),
  link_hems AS (
    SELECT hem, min(up_id) AS up_id FROM universal_hems
    WHERE hem IN (SELECT hem FROM identity_links WHERE hem != '')
    GROUP BY hem
  ),
  known_up_ids AS (
    SELECT DISTINCT up_id FROM universal_persons
    WHERE up_id IN (SELECT up_id FROM identity_links WHERE up_id != '') OR up_id IN (SELECT up_id FROM link_hems)
  ),
  signed_only_orgs AS (SELECT org_id FROM callback_link_policy FINAL WHERE signed_only = 1),
  -- Each puid's links (callbacks, cookie imports): the universal person it names (its own up_id, else its hashed
  -- e-mail's), and whether the universal table has that person.
  puid_links AS (
    SELECT l.puid AS puid, l.org_id AS link_org, l.source AS source, l.linked_at AS linked_at, l.hem AS hem,
      if(l.up_id != '', l.up_id, lh.up_id) AS up_id, k.up_id != '' AS known
    FROM identity_links AS l
    LEFT JOIN link_hems AS lh ON l.hem = lh.hem
    LEFT JOIN known_up_ids AS k ON k.up_id = if(l.up_id != '', l.up_id, lh.up_id)
    WHERE l.puid != ''
  ),
  -- The universal persons of the organisation's identified e-mails: each distinct e-mail hashed once (1,295 of
  -- them in 203,652 visits with one, at 10 million events).
  email_hems AS (
    SELECT hem, min(up_id) AS up_id FROM universal_hems
    WHERE hem IN (SELECT lower(hex(SHA256(email))) FROM (SELECT DISTINCT email FROM identified_visits WHERE ${ORG_FILTER} AND email != ''))
    GROUP BY hem
  ),
  -- Each person, from their visits' groups, with what the links of their puids that count for the organisation
  -- say (a signed callback's for the organisation it named; an unscoped link's for every organisation, but an
  -- unsigned callback's not for one that requires signed ones): the latest link to a known universal person,
  -- and whether any carried a hashed e-mail; and the company their address names, that of their latest visit
  -- whose network names one (the person's company, 'ip', when their own is not known). Every aggregate here
  -- is a max, which the links' fan-out of a group leaves as it is.
  people AS (
    SELECT c.org_id AS org_id, c.person AS person,
      -- A group without an e-mail (a name, a named network) has the empty tuple, dated 1970: it never competes,
      -- or a visit dated before 1970 (a device's clock; the ingest takes times from 1900) would lose to it.
      maxIf(c.latest_email, c.latest_email.2 != '').2 AS email, maxIf(c.latest_name, c.latest_name.2 != '').2 AS identify_name,
      -- Ties (two links made at once) go to the greater up_id, whatever order the join gives the rows.
      maxIf((c.linked_at, c.up_id), c.counts AND c.known).2 AS cb_up_id,
      max(c.counts AND c.hem != '') AS cb_has_hem,
      maxIf(c.latest_named, c.latest_named.2 != '' OR c.latest_named.3 != '') AS latest_named,
      latest_named.3 AS ip_company_name, latest_named.2 AS ip_company_domain
    FROM (
      SELECT g.org_id AS org_id, g.person AS person, g.latest_email AS latest_email, g.latest_name AS latest_name, g.latest_named AS latest_named,
        l.up_id AS up_id, l.linked_at AS linked_at, l.known AS known, l.hem AS hem,
        l.puid != '' AND (l.link_org = g.org_id
          OR (l.link_org = '' AND (l.source = 'cookies' OR g.org_id NOT IN (SELECT org_id FROM signed_only_orgs)))) AS counts
      FROM group_persons AS g LEFT JOIN puid_links AS l ON l.puid = g.puid
    ) AS c
    GROUP BY c.org_id, c.person
  ),
  resolved AS (
    SELECT p.org_id AS org_id, p.person AS person, p.email AS email, p.identify_name AS identify_name,
      p.ip_company_name AS ip_company_name, p.ip_company_domain AS ip_company_domain,
      if(p.cb_up_id != '', p.cb_up_id, ident.up_id) AS up_id,
      multiIf(p.cb_up_id != '', 'callback', NOT startsWith(p.person, 'anon:') OR p.email != '', 'identify', '') AS person_via,
      toUInt8(p.cb_has_hem OR (ident.up_id != '')) AS has_hem
    FROM people AS p
    -- The identified e-mail's hash, joined here rather than in a CTE of its own over people: each reference to
    -- people reads the persons' visits again.
    LEFT JOIN email_hems AS ident ON ident.hem = if(p.email != '', lower(hex(SHA256(p.email))), '')
  ),
  universal AS (
    SELECT up_id, first_name, last_name, job_title, company_name, company_domain, linkedin_url, business_email, personal_email,
      employees, revenue, city, region, country
    FROM universal_persons FINAL WHERE up_id IN (SELECT up_id FROM known_up_ids) OR up_id IN (SELECT up_id FROM email_hems)
  ),
  persons AS (
    SELECT r.org_id AS org_id, r.person AS person, r.person_via AS person_via, r.email AS email, r.has_hem AS has_hem,
      r.ip_company_name AS ip_company_name, r.ip_company_domain AS ip_company_domain,
      if(u.up_id != '', u.up_id, '') AS up_id,
      if(u.up_id != '', trimBoth(concat(u.first_name, ' ', u.last_name)), r.identify_name) AS person_name,
      u.job_title AS role, u.linkedin_url AS linkedin_url, u.employees AS employees, u.revenue AS revenue,
      arrayStringConcat(arrayFilter(x -> x != '', [u.city, u.region, u.country]), ', ') AS location,
      if(position(r.email, '@') > 0, splitByChar('@', r.email)[-1], '') AS email_domain,
      toUInt8(email_domain != '' AND NOT has({free_mail:Array(String)}, email_domain)) AS business_by_email,
      toUInt8(business_by_email OR u.business_email != '') AS has_business_email,
      toUInt8((email_domain != '' AND NOT business_by_email) OR u.personal_email != '') AS has_personal_email,
      multiIf(business_by_email, 'email_domain', u.company_domain != '' OR u.company_name != '', r.person_via, '') AS person_company_via,
      multiIf(business_by_email, email_domain, u.company_domain) AS person_company_domain,
      multiIf(business_by_email, if(u.company_domain = email_domain, u.company_name, ''), u.company_name) AS person_company_name,
      -- The person's company: their own, else the one their addresses name ('ip').
      multiIf(person_company_via != '', person_company_via, r.ip_company_domain != '' OR r.ip_company_name != '', 'ip', '') AS company_via,
      if(person_company_via != '', person_company_domain, r.ip_company_domain) AS company_domain,
      if(person_company_via != '', person_company_name, r.ip_company_name) AS company_name
    FROM resolved AS r LEFT JOIN universal AS u ON u.up_id = r.up_id
  ),
  resolved_visits AS (
    SELECT v.org_id AS org_id, v.visitor_id AS visitor_id, v.started_at AS started_at, v.ended_at AS ended_at,
      v.anonymous_id AS anonymous_id, v.user_id AS user_id, v.puid AS puid, v.ip AS ip,
      v.ip_company AS ip_company, v.ip_range_first AS ip_range_first, v.ip_range_last AS ip_range_last,
      v.ip_asn AS ip_asn, v.ip_network AS ip_network, v.ip_source AS ip_source, v.ip_country AS ip_country, v.ip_region AS ip_region, v.ip_city AS ip_city,
      v.ip_domain AS ip_domain, v.ip_kind AS ip_kind, v.network_domain AS network_domain, v.network_kind AS network_kind,
      v.person AS person, p.person_via AS person_via, p.person_name AS person_name, p.up_id AS up_id,
      multiIf(p.person_company_via != '', p.person_company_via, v.network_named, 'ip', '') AS company_via,
      multiIf(p.person_company_via != '', p.person_company_domain, v.network_named, v.network_domain, '') AS company_domain,
      multiIf(p.person_company_via != '', p.person_company_name, v.network_named, v.ip_company, '') AS company_name
    FROM visit_networks AS v
    LEFT JOIN persons AS p ON p.org_id = v.org_id AND p.person = v.person
  )`
}

/** Every visit of the organisation with its person and company (resolved_visits' columns). */
export function resolvedVisitsSql(visitFilter?: string): string {
  return `WITH ${resolutionCtes(visitFilter)}
  SELECT * FROM resolved_visits`
}

/**
 * The persons whose visits could resolve to {domain:String}: those with a visit
 * from one of its ranges, an e-mail at it, a puid linked to a universal person
 * of it, or an e-mail whose hash is one; as their visitor ids, user ids (with
 * the users their anonymous ids are linked to) and the anonymous ids linked
 * to those users. A person's resolution reads only their own visits, so
 * resolving these visits gives each of them the answer the whole
 * organisation's resolution would, at the cost of the few people concerned
 * (see companies/members.ts, which asks it per company). Reads orgParams and
 * {domain:String}, {limit:UInt32}.
 */
export const COMPANY_CANDIDATES_SQL = `
  WITH
    company_people AS (SELECT up_id FROM universal_persons FINAL WHERE company_domain = {domain:String}),
    company_hems AS (SELECT hem FROM universal_hems WHERE up_id IN (SELECT up_id FROM company_people)),
    -- The candidates' visitors, user ids and anonymous ids, from one read of the organisation's visits (each
    -- reference to a subquery of them read them again: three reads, about 280 ms at 10 million events).
    (
      SELECT (groupUniqArray({limit:UInt32})(visitor_id), groupUniqArrayIf(user_id, user_id != ''), groupUniqArrayIf(anonymous_id, anonymous_id != ''))
      FROM identified_visits FINAL
      WHERE org_id = {org:String} AND (
        ip_domain = {domain:String}
        OR (ip_source = 'free' AND ip_domain = '' AND ip_asn IN (SELECT ip_asn FROM (${rulesOf('network_domain', 'ip_asn, domain')}) WHERE domain = {domain:String}))
        OR endsWith(email, concat('@', {domain:String})) OR endsWith(email, concat('.', {domain:String}))
        OR (puid != '' AND puid IN (SELECT puid FROM identity_links WHERE up_id IN (SELECT up_id FROM company_people) OR (hem != '' AND hem IN (SELECT hem FROM company_hems))))
        OR (email != '' AND lower(hex(SHA256(email))) IN (SELECT hem FROM company_hems))
      )
    ) AS found
  SELECT found.1 AS visitors,
    -- With the users the candidates' anonymous ids are linked to: their visits found by visitor (a browser's
    -- visitor id is its anonymous id: USER_VISITOR_PREFIX), which the table's key narrows to their granules.
    arraySlice(arrayDistinct(arrayConcat(found.2, (
      SELECT groupUniqArray(user_id) FROM identified_visits FINAL
      WHERE org_id = {org:String} AND user_id != '' AND visitor_id IN found.3 AND anonymous_id IN found.3
    ))), 1, {limit:UInt32}) AS users`

/**
 * The anonymous ids linked to some users (by any visit carrying both): with
 * the users and visitors, the whole of those persons' visits. Reads
 * {org:String} and {c_users:Array(String)}; answers one row, anons.
 */
export const LINKED_ANONS_SQL = `
  SELECT groupUniqArray(anonymous_id) AS anons FROM identified_visits
  WHERE org_id = {org:String} AND anonymous_id != '' AND user_id IN {c_users:Array(String)}`

/**
 * A visitor of server-side calls: 'user:' and the user id (a backend's calls
 * carry no anonymous id). Any other visitor is the anonymous id itself
 * (workers/src/identity/visits.ts): identified_visits' visitor_id is the
 * anonymous id, else this and the user id.
 */
export const USER_VISITOR_PREFIX = 'user:'

/** An event's (or a visit's) visitor id in SQL, from its anonymous_id and user_id columns. */
export const VISITOR_ID_SQL = `if(anonymous_id != '', anonymous_id, concat('${USER_VISITOR_PREFIX}', user_id))`

/**
 * The visits of some persons, by visitor: {c_visitors:Array(String)}, as
 * candidateVisitors gives them. One condition on the first column of
 * identified_visits' key after the organisation, so that only the granules
 * of those visitors are read; asking for their user ids and anonymous ids as
 * well (an OR of three columns) read every visit of the organisation, about
 * 60 ms at 10 million events for a page of 50 people (bench/README.md).
 */
export const CANDIDATE_VISITS_FILTER = `visitor_id IN {c_visitors:Array(String)}`

/**
 * The visitors whose visits are the whole of some persons' (CANDIDATE_VISITS_FILTER's
 * {c_visitors}): visitor ids as stored, the anonymous ids (their browsers'
 * visitors), and for user ids their server-side visitor; the browsers of a
 * user are among the anonymous ids when they come from LINKED_ANONS_SQL, which
 * finds every anonymous id with a visit carrying one of the user ids.
 */
export function candidateVisitors(ids: { visitors?: readonly string[]; anons?: readonly string[]; users?: readonly string[] }): string[] {
  return [...new Set([...(ids.visitors ?? []), ...(ids.anons ?? []), ...(ids.users ?? []).map((u) => `${USER_VISITOR_PREFIX}${u}`)])]
}
