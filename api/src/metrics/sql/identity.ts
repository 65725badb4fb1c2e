import type { Params } from './params.ts'

/**
 * Who a metric counts: the one place that decides it, for every query of the
 * engine.
 *
 * A person is the user id of the call, else its anonymous id. analytics.js
 * sends the anonymous id along with the user id on every call after identify,
 * so a signed-in person is one member on every device; what this does not do
 * is join a visitor's anonymous visits before signing up to the account that
 * follows (they count as a member of their own, and an anonymous-to-signed-up
 * funnel needs its first step sent after identify). Linking those needs the
 * identity links the identification issue builds (issue 9); when they exist,
 * PERSON becomes a look-up there and every metric follows.
 *
 * A company is a Segment group: a person belongs to the group of their latest
 * group call (the account they act in now), so each person has at most one
 * company and a company's events are its people's events. People without a
 * group call belong to none and are left out of company metrics.
 *
 * Members are grouped by a 64-bit hash of their id rather than the id's text:
 * at 10 million events that cut a 30-day line's CPU time by a quarter
 * (bench/README.md). Two people are counted as one only if their ids collide,
 * about one chance in 370,000 among ten million people.
 */
export const PERSON = `if(user_id != '', cityHash64(user_id), cityHash64(anonymous_id))`
/** Rows that name a person at all. */
const HAS_PERSON = `(user_id != '' OR anonymous_id != '')`

/** person → company, from the organisation's whole history of group calls. */
export function personCompanySql(org: string): string {
  return `
    SELECT ${PERSON} AS person, argMax(group_id, timestamp) AS company
    FROM events
    WHERE org_id = ${org} AND type = 'group' AND group_id != '' AND ${HAS_PERSON}
    GROUP BY person`
}

/** Where a member's traits come from: identify calls for people, group calls for companies, keyed as members are. */
export const TRAIT_SOURCE = {
  user: { type: 'identify', key: PERSON, present: HAS_PERSON },
  company: { type: 'group', key: 'group_id', present: `group_id != ''` },
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
