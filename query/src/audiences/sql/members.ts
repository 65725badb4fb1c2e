import { collect, type ActionCount, type Condition, type TraitRef } from '../plan.ts'
import { conditionSql } from './conditions.ts'
import { shifted } from '../../filters/traits.ts'
import { Params } from '../../metrics/sql/params.ts'
import { identityLinksSql } from '../../metrics/sql/identity.ts'
import { notBotSql } from '../../people/bots.ts'

/**
 * Syntax: the SQL of an audience's members, one row per user who meets the
 * condition, with the columns the result tables show.
 *
 * Who a user is follows query/src/people/identity.ts's rules: a person is a user
 * id; an anonymous id belongs to the user id it was first seen with (earliest
 * event carrying both, then the smallest user id), and its calls without a
 * user id are that user's; anonymous ids never linked are anonymous visitors,
 * not members. A user's traits are the latest non-empty value of each over
 * their identify calls (their linked anonymous ids' included); their company
 * is the group of their latest group call; a company's traits are the latest
 * non-empty value of each over its group calls. Actions count events up to
 * now; links count pairs first seen by now (a call stamped ahead of now sets
 * traits and latest activity at once: clickhouse/0004's caveat).
 *
 * What is read (clickhouse/0004_identities_and_traits.sql says why these
 * tables exist), all keyed by the (user_id, anonymous_id) a call carried:
 *
 *  - identity_pairs: the pairs, each with when it was first seen and its latest
 *    activity. The linked ones (both ids) give each anonymous id its user and
 *    every user id; the anonymous-only ones are read for linked ids only.
 *  - trait_calls, 'identify' range: each user trait's latest value and when.
 *  - trait_calls, 'group' range: each pair's latest group; and, by group id,
 *    each company trait's latest value.
 *  - events, the actions' event names from the earliest window start to now
 *    (ORDER BY org_id, event, timestamp: one small range per name): each
 *    action's count.
 *
 * Bots are nobody (people/bots.ts): the rows of a marked visitor's anonymous
 * id without a user id are dropped once, after the UNION ALL, before they are
 * grouped by person, so a bot's calls neither make a linked user known nor
 * set their traits, company, activity or counts.
 *
 * The parts are joined as rows of one UNION ALL, each pair given its person
 * (its user id, else its anonymous id's user: a hash join with the links, a
 * few thousand rows), grouped by person, joined to the person's company's
 * traits; then the condition. Calls of anonymous visitors come along in the
 * trait and action parts and are dropped there, having no person: filtering
 * them out first, with the links as a constant list in each part, made
 * ClickHouse spend more analysing the query than running it (measured at ten
 * million events: 250 ms of CPU for a page against 120 as it is now).
 */

/** Traits every result table shows, beside those the filters read. */
export const USER_DISPLAY: TraitRef[] = [
  { entity: 'user', name: 'name', read: 'text' },
  { entity: 'user', name: 'email', read: 'text' },
]
export const COMPANY_DISPLAY: TraitRef[] = [
  { entity: 'company', name: 'name', read: 'text' },
  { entity: 'company', name: 'domain', read: 'text' },
]

export interface MembersSql {
  /** SELECT of the members: person, company, last_seen, one column per trait and action. */
  sql: string
  /** sql's three clauses, for a query that adds to its level (the page's window functions). */
  select: string
  from: string
  where: string
  params: Record<string, unknown>
  /** The column of each trait and action, for the result tables. */
  traits: Array<TraitRef & { column: string }>
  actions: Array<ActionCount & { column: string }>
}

const sameTrait = (a: TraitRef, b: TraitRef) => a.entity === b.entity && a.name === b.name && a.read === b.read

export function membersSql(condition: Condition, input: { orgId: string; now: Date; timezone: string }): MembersSql {
  const p = new Params()
  const org = p.bind('String', input.orgId)
  const now = p.bind("DateTime64(3, 'UTC')", input.now.toISOString().slice(0, 23).replace('T', ' '))
  const tz = p.bind('String', input.timezone)

  const used = collect(condition)
  const traits: Array<TraitRef & { column: string }> = []
  for (const t of [...USER_DISPLAY, ...COMPANY_DISPLAY, ...used.traits]) {
    if (traits.some((x) => sameTrait(x, t))) continue
    const n = traits.filter((x) => x.entity === t.entity).length
    traits.push({ ...t, column: `${t.entity === 'user' ? 'u' : 'c'}${n}` })
  }
  const actions = used.actions.map((a, i) => ({ ...a, column: `a${i}` }))
  const userTraits = traits.filter((t) => t.entity === 'user')
  const companyTraits = traits.filter((t) => t.entity === 'company')

  // A trait's value on one call: its text, or for lists their JSON (read back as elements at the end).
  const valueOf = (t: TraitRef) => {
    const path = p.bind('String', t.name)
    return t.read === 'array' ? `ifNull(toJSONString(getSubcolumn(traits, ${path})), '')` : `toString(getSubcolumn(traits, ${path}))`
  }
  const givenIn = (v: string, t: TraitRef) => (t.read === 'array' ? `${v} NOT IN ('', 'null')` : `${v} != ''`)
  const given_ = (t: TraitRef & { column: string }) => givenIn(`v_${t.column}`, t)
  // A list's JSON as its elements; a single value is a list of one.
  const elements = (v: string) => `if(${v} = '', [], if(JSONType(${v}) = 'Array', JSONExtract(${v}, 'Array(String)'), [if(JSONType(${v}) = 'String', JSONExtractString(${v}), ${v})]))`

  // Every anonymous id linked to a user, with that user: the first pair carrying it (then the smallest user id).
  const links = identityLinksSql(org, now)

  // One shape for every part: the pair, then each column (its default where the part has none).
  const zeroTime = `toDateTime64(0, 3, 'UTC')`
  const columns: Array<{ name: string; empty: string; merge: (c: string) => string }> = [
    { name: 'known', empty: '0', merge: (c) => `max(${c})` },
    { name: 'last_seen', empty: zeroTime, merge: (c) => `max(${c})` },
    { name: 'company', empty: "''", merge: (c) => `argMax(${c}, company_at)` },
    { name: 'company_at', empty: zeroTime, merge: () => '' },
    ...userTraits.flatMap((t) => [
      { name: t.column, empty: "''", merge: (c: string) => `argMax(${c}, ${t.column}_at)` },
      { name: `${t.column}_at`, empty: zeroTime, merge: () => '' },
    ]),
    ...actions.map((a) => ({ name: a.column, empty: 'toUInt64(0)', merge: (c: string) => `sum(${c})` })),
  ]
  const part = (given: Record<string, string>, from: string) =>
    `SELECT user_id, anonymous_id, ${columns.map((c) => `${given[c.name] ?? c.empty} AS ${c.name}`).join(', ')}\n      ${from}`

  // Every user id and linked anonymous id, first seen by now. Apart, so that each is a range of the table's key:
  // user ids sort after '' (a few thousand pairs), linked anonymous ids are looked up in the user_id = '' range,
  // which holds every anonymous visitor (hundreds of thousands at ten million events) and is otherwise not read.
  const pairs = (where: string) =>
    part({ known: '1', last_seen: 'max(last_active)' }, `FROM identity_pairs WHERE org_id = ${org} AND ${where} GROUP BY user_id, anonymous_id HAVING min(first_seen) <= ${now}`)
  const parts = [pairs(`user_id > ''`), pairs(`user_id = '' AND anonymous_id IN (SELECT anonymous_id FROM (${links}))`)]
  if (userTraits.length) {
    const given: Record<string, string> = {}
    for (const t of userTraits) {
      given[t.column] = `argMaxIf(v_${t.column}, timestamp, ${given_(t)})`
      given[`${t.column}_at`] = `maxIf(timestamp, ${given_(t)})`
    }
    parts.push(
      part(
        given,
        `FROM (SELECT user_id, anonymous_id, timestamp${userTraits.map((t) => `, ${valueOf(t)} AS v_${t.column}`).join('')}
               FROM trait_calls WHERE org_id = ${org} AND type = 'identify')
        GROUP BY user_id, anonymous_id`,
      ),
    )
  }
  parts.push(
    part(
      { company: "argMaxIf(group_id, timestamp, group_id != '')", company_at: "maxIf(timestamp, group_id != '')" },
      `FROM trait_calls WHERE org_id = ${org} AND type = 'group' GROUP BY user_id, anonymous_id`,
    ),
  )
  if (actions.length) {
    const counted = [...new Set(actions.flatMap((a) => a.events))]
    // Window starts as UTC instants, so the earliest can be taken whatever zone each was counted in.
    const starts = actions.map((a) => `toTimeZone(${shifted({ p, now, tz }, a.since)}, 'UTC')`)
    const earliest = starts.length === 1 ? starts[0] : `least(${starts.join(', ')})`
    const given = Object.fromEntries(
      actions.map((a, i) => [a.column, `countIf(event IN ${p.bind('Array(String)', a.events)} AND timestamp >= ${starts[i]})`]),
    )
    parts.push(
      part(
        given,
        `FROM events WHERE org_id = ${org} AND event IN ${p.bind('Array(String)', counted)} AND timestamp >= ${earliest} AND timestamp <= ${now}
        GROUP BY user_id, anonymous_id`,
      ),
    )
  }

  const merged = columns.filter((c) => c.merge(c.name) !== '').map((c) => `${c.merge(`x.${c.name}`)} AS ${c.name}`)
  const people = `
    SELECT if(x.user_id != '', x.user_id, l.linked_user) AS person, ${merged.join(', ')}
    FROM (${parts.join('\n      UNION ALL ')}) AS x
    LEFT JOIN (${links}) AS l ON x.anonymous_id = l.anonymous_id
    WHERE ${notBotSql(org, 'x.')}
    GROUP BY person
    HAVING person != '' AND known = 1`

  const companies = `
    SELECT group_id AS company${companyTraits.map((t) => `, argMaxIf(v_${t.column}, timestamp, ${given_(t)}) AS ${t.column}`).join('')}
    FROM (
      SELECT group_id, timestamp${companyTraits.map((t) => `, ${valueOf(t)} AS v_${t.column}`).join('')}
      FROM trait_calls
      WHERE org_id = ${org} AND type = 'group' AND group_id != ''
    )
    GROUP BY group_id`

  // Lists are kept as JSON up to here (argMax keeps one value); their elements are read once per person.
  const columnOf = (t: TraitRef) => traits.find((x) => sameTrait(x, t))!.column
  const countColumns = new Map(used.actions.map((a, i) => [a, actions[i]!.column]))
  const where = conditionSql({ p, now, tz, column: columnOf, count: (a) => countColumns.get(a)! }, condition)
  const select = [
    'pe.person AS person',
    'pe.company AS company',
    'pe.last_seen AS last_seen',
    ...userTraits.map((t) => (t.read === 'array' ? `${elements(`pe.${t.column}`)} AS ${t.column}` : `pe.${t.column} AS ${t.column}`)),
    ...companyTraits.map((t) => (t.read === 'array' ? `${elements(`co.${t.column}`)} AS ${t.column}` : `co.${t.column} AS ${t.column}`)),
    ...actions.map((a) => `pe.${a.column} AS ${a.column}`),
  ]
  // One level: the condition reads the select's aliases (a list trait as its elements), and the page adds its window
  // functions to the same level (results.ts). A level of SELECT * around it cost ClickHouse's analyser about a
  // fifth of its time for the page, which is planning more than running (bench/README.md, issue 19).
  const from = `(${people}) AS pe
    LEFT JOIN (${companies}) AS co ON pe.company = co.company`
  const sql = `
  SELECT ${select.join(', ')}
  FROM ${from}
  WHERE ${where}`
  return { sql, select: select.join(', '), from, where, params: p.values, traits, actions }
}
