import type { ActionCount, Condition, TraitRef } from '../plan.ts'
import { collect } from '../plan.ts'
import { conditionSql, shifted } from './conditions.ts'
import { Params } from './params.ts'

/**
 * Syntax: the SQL of an audience's members, one row per user who meets the
 * condition, with the columns the result tables show.
 *
 * Who a user is follows api/src/people/identity.ts's rules: a person is a user
 * id; an anonymous id belongs to the user id it was first seen with (earliest
 * event carrying both, then the smallest user id), and its events without a
 * user id are that user's; anonymous ids never linked are anonymous visitors,
 * not members. A user's traits are the latest non-empty value of each over
 * their identify calls (their linked anonymous ids' included); their company
 * is the group of their latest group call; a company's traits are the latest
 * non-empty value of each over its group calls. Events stamped after now
 * (a client clock ahead) are not counted yet.
 *
 * How, in one read of the organisation's events (ORDER BY org_id, event,
 * timestamp: one range):
 *
 *  1. pairs: GROUP BY (user_id, anonymous_id), the few thousand identities
 *     the events carry, each with what the filters need: the latest value of
 *     each trait read and when it was given, the latest group, the count of
 *     each action's events in its window, the first time the two ids were seen
 *     together, the last activity.
 *  2. people: each pair's person (its user id, else the user its anonymous
 *     id is linked to: a window over pairs of one anonymous id), then GROUP BY
 *     person, taking each trait's latest value over the person's pairs.
 *  3. companies: the group calls GROUP BY group_id, each company trait's
 *     latest value, joined to people by their company.
 *  4. the condition, over that one row per user.
 *
 * Linking on pairs rather than on events is what keeps this one pass: the
 * link of an anonymous id is decided among the pairs that carry it, so no
 * second read of events (and no join of millions of events to their links)
 * is needed.
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
  const given = (v: string, t: TraitRef) => (t.read === 'array' ? `${v} NOT IN ('', 'null')` : `${v} != ''`)
  // A list's JSON as its elements; a single value is a list of one.
  const elements = (v: string) => `if(${v} = '', [], if(JSONType(${v}) = 'Array', JSONExtract(${v}, 'Array(String)'), [if(JSONType(${v}) = 'String', JSONExtractString(${v}), ${v})]))`

  const windowStart = (a: ActionCount) => shifted({ p, now, tz }, a.since)
  const actionCount = (a: ActionCount & { column: string }) =>
    `countIf(event IN ${p.bind('Array(String)', a.events)} AND timestamp >= ${windowStart(a)} AND timestamp <= ${now}) AS ${a.column}`

  const pairs = `
      SELECT user_id, anonymous_id,
        minIf(timestamp, user_id != '' AND anonymous_id != '') AS linked_at,
        maxIf(timestamp, type IN ('page', 'screen', 'track')) AS last_seen,
        argMaxIf(group_id, timestamp, type = 'group' AND group_id != '') AS company,
        maxIf(timestamp, type = 'group' AND group_id != '') AS company_at${userTraits
          .map((t) => `,\n        argMaxIf(v_${t.column}, timestamp, type = 'identify' AND ${given(`v_${t.column}`, t)}) AS ${t.column}, maxIf(timestamp, type = 'identify' AND ${given(`v_${t.column}`, t)}) AS ${t.column}_at`)
          .join('')}${actions.map((a) => `,\n        ${actionCount(a)}`).join('')}
      FROM (
        SELECT user_id, anonymous_id, timestamp, type, event, group_id${userTraits.map((t) => `, if(type = 'identify', ${valueOf(t)}, '') AS v_${t.column}`).join('')}
        FROM events
        WHERE org_id = ${org} AND timestamp <= ${now} AND (user_id != '' OR anonymous_id != '')
      )
      GROUP BY user_id, anonymous_id`

  const people = `
    SELECT person, max(last_seen) AS last_seen, argMax(company, company_at) AS company${userTraits.map((t) => `, argMax(${t.column}, ${t.column}_at) AS ${t.column}`).join('')}${actions
      .map((a) => `, sum(${a.column}) AS ${a.column}`)
      .join('')}
    FROM (
      SELECT *, if(user_id != '', user_id, if(anonymous_id = '', '', argMinIf(user_id, (linked_at, user_id), user_id != '') OVER (PARTITION BY anonymous_id))) AS person
      FROM (${pairs})
    )
    WHERE person != ''
    GROUP BY person`

  const companies = `
    SELECT group_id AS company${companyTraits.map((t) => `, argMaxIf(v_${t.column}, timestamp, ${given(`v_${t.column}`, t)}) AS ${t.column}`).join('')}
    FROM (
      SELECT group_id, timestamp${companyTraits.map((t) => `, ${valueOf(t)} AS v_${t.column}`).join('')}
      FROM events
      WHERE org_id = ${org} AND event = '' AND type = 'group' AND group_id != '' AND timestamp <= ${now}
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
  const sql = `
  SELECT * FROM (
    SELECT ${select.join(', ')}
    FROM (${people}) AS pe
    LEFT JOIN (${companies}) AS co ON pe.company = co.company
  )
  WHERE ${where}`
  return { sql, params: p.values, traits, actions }
}
