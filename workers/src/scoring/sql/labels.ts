import { audienceTraitsSql, traitCallsWithLinks, latestTraitColumns, occurringCondition, PERSON_ID, propertyCondition, selectWithPerson, type MetricPlan, type Params, type Step } from '@fl0/query'
import type { Span } from '../windows.ts'

/**
 * Syntax: who reached a metric in a span of days, one row per person
 * (`person`). The label of a scoring model.
 *
 * It means what the metric engine means (query/src/metrics): the plan is the
 * engine's own (planMetric: the editor's rules applied, property filters,
 * occurring filters, audience traits resolved), a person is the engine's
 * PERSON_ID, and a person reaches the metric in the span when the engine would
 * count them in a metric graph over that span as one period (its 'range'
 * bucket): with operation any, one of the steps at least once (with its
 * occurring filter); all, every step; ordered, the steps in order (its
 * windowFunnel, or sequenceMatch when steps share an event), each step's
 * occurring filter met; and the audience traits hold. What differs is the
 * span, which the engine always ends at now: here it is any run of days in
 * the organisation's zone (the date range, or the one before it for a
 * backtest). A company metric labels each person by their own events, its
 * traits read on the person's company.
 *
 * A person is named here by their id as text (PERSON_ID: the engine's rule,
 * metrics/sql/identity.ts, a linked anonymous id's events the user's), where
 * the engine groups by a hash of it: the label is matched to users by id.
 *
 * scoring/labels.integration.test.ts checks it against the engine's graphs.
 */
export function reachedSql(p: Params, plan: MetricPlan, orgId: string, span: Span): string {
  const org = p.bind('String', orgId)
  const tz = p.bind('String', span.timezone)
  const steps = plan.steps.map((s) => stepCondition(p, s))
  const anyEvent = plan.steps.some((s) => s.event === null)
  const eventFilter = anyEvent ? '' : `AND event IN ${p.bind('Array(String)', [...new Set(plan.steps.map((s) => s.event!))])}`
  // The rows carry each step's condition as s0, s1, …; a person's counts and funnel are over those.
  const flags = steps.map((_, i) => `s${i}`)
  const counts = flags.map((s, i) => `countIf(${s}) AS c${i}`)
  if (plan.operation === 'ordered') counts.push(`${funnelLevel(p, plan, span, flags)} AS level`)

  const rows = selectWithPerson(
    org,
    `timestamp${steps.map((s, i) => `, ${s} AS s${i}`).join('')}`,
    `org_id = ${org} AND type = 'track' ${eventFilter}
        AND timestamp >= ${p.bind("DateTime64(3, 'UTC')", span.since)} AND timestamp <= ${p.bind("DateTime64(3, 'UTC')", span.until)}
        AND toDate(timestamp, ${tz}) BETWEEN ${p.bind('Date', span.from)} AND ${p.bind('Date', span.to)}`,
    { asText: true },
  )
  const perPerson = `
      SELECT person, ${counts.join(', ')}
      FROM (${rows})
      GROUP BY person`

  const conditions = [qualifying(p, plan)]
  let joins = ''
  if (plan.traits.length) {
    const names = [...new Set(plan.traits.map((t) => t.trait))]
    conditions.push(audienceTraitsSql(p, plan, tz, (trait) => `mt.t${names.indexOf(trait)}`)!)
    joins =
      plan.audience === 'company'
        ? `LEFT JOIN (${personCompanySql(org)}) AS pc ON pc.person = pm.person LEFT JOIN (${traitsSql(p, 'company', org, names)}) AS mt ON mt.member = pc.company`
        : `LEFT JOIN (${traitsSql(p, 'user', org, names)}) AS mt ON mt.member = pm.person`
  }
  return `SELECT pm.person AS person FROM (${perPerson}) AS pm ${joins} WHERE ${conditions.join(' AND ')}`
}

function stepCondition(p: Params, s: Step): string {
  if (s.event === null) return '1'
  const name = `event = ${p.bind('String', s.event)}`
  return s.property ? `(${name} AND ${propertyCondition(p, s.property)})` : name
}

/** How far through the ordered steps a person got in the span. */
function funnelLevel(p: Params, plan: MetricPlan, span: Span, steps: string[]): string {
  const ts = 'toUInt64(toUnixTimestamp64Milli(timestamp))'
  const conds = steps.join(', ')
  if (plan.matcher === 'windowFunnel' || plan.steps.length === 1) {
    const spanMs = Date.parse(`${span.to}T00:00:00Z`) - Date.parse(`${span.from}T00:00:00Z`) + 2 * 86_400_000
    return `windowFunnel(${p.bind('UInt64', spanMs)})(${ts}, ${conds})`
  }
  return plan.steps
    .map((_, k) => `sequenceMatch(${p.bind('String', plan.steps.slice(0, k + 1).map((__, i) => `(?${i + 1})`).join('.*'))})(${ts}, ${conds})`)
    .join(' + ')
}

/** Did the person reach the metric: the engine's rule for one period. */
function qualifying(p: Params, plan: MetricPlan): string {
  const n = plan.steps.length
  if (plan.operation === 'ordered') {
    // A step counts only if it and every step before it meet their occurring filters.
    const branches: string[] = []
    plan.steps.forEach((s, i) => {
      if (s.occurring) branches.push(`NOT (${occurringCondition(p, `pm.c${i}`, s.occurring)})`, `least(pm.level, ${i})`)
    })
    const level = branches.length ? `multiIf(${branches.join(', ')}, pm.level)` : 'pm.level'
    return `${level} >= ${n}`
  }
  const ok = plan.steps.map((s, i) => (s.occurring ? `(pm.c${i} >= 1 AND ${occurringCondition(p, `pm.c${i}`, s.occurring)})` : `pm.c${i} >= 1`))
  return `(${ok.join(plan.operation === 'all' ? ' AND ' : ' OR ')})`
}

/** person → company: the group of the person's latest group call (the engine's rule). */
function personCompanySql(org: string): string {
  return `
    SELECT ${PERSON_ID} AS person, argMax(group_id, timestamp) AS company
    FROM ${traitCallsWithLinks(org)}
    WHERE org_id = ${org} AND type = 'group' AND group_id != '' AND person != ''
    GROUP BY person`
}

/** Where traits come from: identify calls for people, group calls for companies (the engine's rule). */
const TRAIT_SOURCE = {
  user: { type: 'identify', key: PERSON_ID },
  company: { type: 'group', key: 'group_id' },
} as const

/** Each member's latest value of the named traits, as text ("" when never given). */
function traitsSql(p: Params, audience: 'user' | 'company', org: string, names: string[]): string {
  const source = TRAIT_SOURCE[audience]
  return `
    SELECT ${source.key} AS member, ${latestTraitColumns(p, names).join(', ')}
    FROM ${traitCallsWithLinks(org)}
    WHERE org_id = ${org} AND type = '${source.type}' AND member != ''
    GROUP BY member`
}
