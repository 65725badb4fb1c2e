import type { Params } from './params.ts'
import { botIdsSql, notBotSql } from '../../people/bots.ts'

/**
 * Who a metric counts: the one place that decides it, for every query of the
 * engine.
 *
 * A person is the people list's person (query/src/people/identity.ts, rules 1
 * to 3): the user id of the call; else, for an anonymous id that some event
 * linked to a user id (an event carrying both), that user id, the first one
 * linked where several were (a shared machine); else the anonymous id, a
 * visitor of their own. So a visitor's anonymous visits before signing up are
 * the account's, as soon as the sign-up links them, and a funnel from an
 * anonymous page to the sign-up counts one person through both steps. The
 * links come from identity_pairs (clickhouse/0004), the table the audience
 * engine reads them from, a few thousand rows against the events' millions,
 * joined to the events by anonymous id.
 *
 * A company is a Segment group: a person belongs to the group of their latest
 * group call (the account they act in now), so each person has at most one
 * company and a company's events are its people's events. People without a
 * group call belong to none and are left out of company metrics.
 *
 * Bots are nobody (people/bots.ts): the anonymous calls of a visitor marked
 * as a crawler or a headless browser are not counted, nor read for traits or
 * companies. Calls with a user id are never a bot's, so the rows with a user
 * id are read as before; only the anonymous rows check the organisation's set
 * of bot ids.
 *
 * Members are grouped by a 64-bit hash of their id rather than the id's text:
 * at 10 million events that cut a 30-day line's CPU time by a quarter
 * (bench/README.md). Two people are counted as one only if their ids collide,
 * about one chance in 370,000 among ten million people.
 */

/**
 * Each linked anonymous id with its user: the first pair carrying it, then the
 * smallest user id (people/identity.ts rule 2). Columns anonymous_id,
 * linked_user. With `seenBy` (a bound time), only the links made by then: the
 * audience engine's, which leaves out events stamped in the future.
 */
export function identityLinksSql(org: string, seenBy?: string): string {
  return `
    SELECT anonymous_id, argMin(user_id, (first_seen, user_id)) AS linked_user
    FROM (
      SELECT user_id, anonymous_id, min(first_seen) AS first_seen
      FROM identity_pairs
      WHERE org_id = ${org} AND user_id != '' AND anonymous_id != ''
      GROUP BY user_id, anonymous_id${seenBy ? `
      HAVING first_seen <= ${seenBy}` : ''}
    )
    GROUP BY anonymous_id`
}

/**
 * The identify and group calls of an organisation with each row's linked
 * user: what the queries of traits and companies read FROM. The calls are
 * `ev`; their anonymous_id and user_id must be named as ev.anonymous_id and
 * ev.user_id, the other columns as they are.
 *
 * They come from trait_calls (clickhouse/0004), which keeps each distinct
 * content of a member's calls once, at its latest time: a trait's latest
 * value and a person's latest group are the same read from there as from
 * every call in `events`, and at 10 million events a line broken down by a
 * user trait took 7.9 s reading them from `events` (bench/README.md).
 */
export const traitCallsWithLinks = (org: string) => `trait_calls AS ev LEFT JOIN (${identityLinksSql(org)}) AS l ON l.anonymous_id = ev.anonymous_id`

/** How selectWithPerson keys a person. */
export interface PersonKey {
  /** The id as text instead of its 64-bit hash. */
  asText?: boolean
  /** The key of an anonymous id no user id is linked to, from its SQL (the people list's 'anon:' keys); the id itself by default. */
  anonymous?: (anonymousId: string) => string
}

/**
 * `SELECT <person> AS person, <columns>` of an organisation's events that
 * `where` keeps, each row's person by the rules above: for the many rows a
 * query reads (track calls over a date range, the home page's two weeks). The
 * rows with a user id, nearly all of a product's track calls, are read
 * without the links; only the anonymous rows are joined to them, so the join
 * probes the few, not the millions. Which half a row is in is read from
 * `user_key` (clickhouse/0014: the user id's cityHash64, 0 without one), 8
 * bytes a row instead of the id's text, and the key is the person of the
 * first half as it is. `where` and `columns` name the events' columns bare
 * (never anonymous_id, user_id or user_key), and `where` holds the
 * organisation's condition. The person is its hash, or as `key` says.
 */
export function selectWithPerson(org: string, columns: string, where: string, key: PersonKey = {}): string {
  const anonymous = key.anonymous?.('ev.anonymous_id') ?? 'ev.anonymous_id'
  const linked = `if(l.linked_user != '', l.linked_user, ${anonymous})`
  // The second half's rows have no user id, so the bot rule (people/bots.ts) is their anonymous id's alone.
  return `
      SELECT ${key.asText ? 'user_id' : 'user_key'} AS person, ${columns} FROM events WHERE ${where} AND user_key != 0
      UNION ALL
      SELECT ${key.asText ? linked : `cityHash64(${linked})`} AS person, ${columns}
      FROM events AS ev LEFT JOIN (${identityLinksSql(org)}) AS l ON l.anonymous_id = ev.anonymous_id
      WHERE ${where} AND ev.user_key = 0 AND ev.anonymous_id != '' AND ev.anonymous_id NOT IN (${botIdsSql(org)})`
}

/** A row's person as text, over traitCallsWithLinks: '' for a row that names nobody. */
export const PERSON_ID = `if(ev.user_id != '', ev.user_id, if(l.linked_user != '', l.linked_user, ev.anonymous_id))`
/** The person as the engine groups them, over traitCallsWithLinks. */
export const PERSON = `cityHash64(${PERSON_ID})`
/** Rows that name a person at all, and not a bot (over traitCallsWithLinks). */
const hasPerson = (org: string) => `((ev.user_id != '' OR ev.anonymous_id != '') AND ${notBotSql(org, 'ev.')})`

/** person → company, from the organisation's whole history of group calls. */
export function metricPersonCompanySql(org: string): string {
  return `
    SELECT ${PERSON} AS person, argMax(group_id, timestamp) AS company
    FROM ${traitCallsWithLinks(org)}
    WHERE org_id = ${org} AND type = 'group' AND group_id != '' AND ${hasPerson(org)}
    GROUP BY person`
}

/** Where a member's traits come from: identify calls for people, group calls for companies, keyed as members are. */
export const TRAIT_SOURCE = {
  user: { type: 'identify', key: PERSON, present: hasPerson },
  company: { type: 'group', key: 'group_id', present: (_org: string) => `group_id != ''` },
} as const

/**
 * One column a trait, t0, t1, …: its value as text in the newest call that
 * carries it. Traits accumulate: a later call without the trait does not
 * unset it. Scoring's labels read traits by the same rule (scoring/sql/labels.ts).
 */
export function latestTraitColumns(p: Params, names: string[]): string[] {
  return names.map((name, i) => {
    const path = p.bind('String', name)
    return `argMaxIf(toString(getSubcolumn(traits, ${path})), timestamp, getSubcolumn(traits, ${path}) IS NOT NULL) AS t${i}`
  })
}
