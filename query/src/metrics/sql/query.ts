import type { MetricPlan, Step } from '../plan.ts'
import { audienceTraitsSql, occurringCondition, propertyCondition } from './conditions.ts'
import { traitCallsWithLinks, latestTraitColumns, metricPersonCompanySql, selectWithPerson, TRAIT_SOURCE } from './identity.ts'
import { Params } from './params.ts'

/**
 * Syntax: a plan as one ClickHouse query with bound parameters. It reads in
 * stages, each a CTE:
 *
 *   person_company  person → company (company audiences, unique companies)
 *   member_traits   each member's latest value of the traits the plan names
 *   per_member      one row per member and period: how often they did each
 *                   step (c0, c1…), the events matching any step (n), and for
 *                   ordered metrics how far through the steps they got (level)
 *   members         per_member with the member's company, traits and
 *                   breakdown value, narrowed by the audience filter
 *
 * and the final SELECT aggregates `members` per period (and per breakdown
 * series) into the parts the graph is made of (see `parts`). Tested by its
 * results on real data (engine.integration.test.ts), never by its text.
 */
export interface MetricQuery {
  sql: string
  params: Record<string, unknown>
}

/** The parts a row carries, by measure and graph (shape.ts reads them). */
export interface Part {
  name: string
  kind: 'count' | 'sum' | 'companies'
  cond: string
}

/**
 * Seconds a graph query may run. chDB cannot interrupt a query from outside
 * (an aborted request stops waiting, the engine finishes the work), but
 * ClickHouse stops itself at this limit, so an abandoned query never holds
 * the engine longer than this.
 */
export const MAX_EXECUTION_SECONDS = 30

export function printMetricQuery(plan: MetricPlan, orgId: string): MetricQuery {
  const p = new Params()
  const org = p.bind('String', orgId)
  const tz = p.bind('String', plan.window.timezone)
  const from = p.bind('Date', plan.window.from)
  const n = plan.steps.length
  const ordered = plan.operation === 'ordered'
  const company = plan.audience === 'company'
  const needsCompanies = company || plan.measure === 'uniqueCompanies'

  // Traits: one column per trait the filter or the breakdown names.
  const traitNames = [...new Set([...plan.traits.map((t) => t.trait), ...(plan.breakdown ? [plan.breakdown.trait] : [])])]
  const traitColumn = (name: string) => `mt.t${traitNames.indexOf(name)}`

  // Stage 1: the events, one row each, with the period and which steps it is.
  const stepSql = plan.steps.map((s) => stepCondition(p, s))
  const anyEvent = plan.steps.some((s) => s.event === null)
  // Any event: every track call has a name (the ingest refuses one without)
  // and no other call has one, so `event != ''` is the track calls again,
  // said in the sort key's terms: the read skips the page views, identify
  // and group calls (more than half the rows of a site with a snippet)
  // instead of reading their type to drop them. The 30-day line at 10
  // million events: 304 → 212 ms (bench/README.md).
  const eventFilter = anyEvent ? `AND event != ''` : `AND event IN ${p.bind('Array(String)', [...new Set(plan.steps.map((s) => s.event!))])}`
  const period = periodSql(plan, tz, from)
  const base = selectWithPerson(
    org,
    `timestamp, ${period} AS period${stepSql.map((s, i) => `, ${s} AS s${i}`).join('')}`,
    `org_id = ${org} AND type = 'track' ${eventFilter}
        AND timestamp >= ${startOf(from, tz)} AND timestamp <= ${p.bind("DateTime64(3, 'UTC')", plan.window.until)}`,
  )

  // Stage 2: per member and period.
  const counts = stepSql.map((_, i) => `countIf(s${i}) AS c${i}`)
  counts.push(`countIf(${stepSql.map((_, i) => `s${i}`).join(' OR ')}) AS n`)
  if (ordered) counts.push(`${funnelLevel(p, plan)} AS level`)
  const perMember = `
      SELECT ${company ? 'pc.company' : 'e.person'} AS member, period, ${counts.join(', ')}
      FROM (${base}) AS e
      ${company ? 'INNER JOIN person_company AS pc ON pc.person = e.person' : ''}
      GROUP BY member, period`

  // Stage 3: company, traits, breakdown value, audience filter.
  const audience = audienceTraitsSql(p, plan, tz, traitColumn)
  const where = audience ? `WHERE ${audience}` : ''
  const members = `
      SELECT pm.*, ${company ? 'pm.member' : needsCompanies ? 'pc2.company' : "''"} AS company,
        ${effectiveLevel(p, plan)} AS eff, ${plan.breakdown ? traitColumn(plan.breakdown.trait) : "''"} AS bv
      FROM per_member AS pm
      ${needsCompanies && !company ? 'LEFT JOIN person_company AS pc2 ON pc2.person = pm.member' : ''}
      ${traitNames.length ? 'LEFT JOIN member_traits AS mt ON mt.member = pm.member' : ''}
      ${where}`

  const ctes: string[] = []
  if (needsCompanies) ctes.push(`person_company AS (${metricPersonCompanySql(org)})`)
  if (traitNames.length) ctes.push(`member_traits AS (${memberTraitsSql(p, plan, org, traitNames)})`)
  ctes.push(`per_member AS (${perMember})`, `members AS (${members})`)

  const qualify = qualifying(p, plan, n)
  const parts = partsOf(plan, qualify, n)
  let final = `SELECT toString(period) AS period, ${parts.map((x) => `${aggregate(x, 'final')} AS ${x.name}`).join(', ')} FROM members GROUP BY period`
  if (plan.breakdown) {
    const b = breakdownSelect(p, plan, parts)
    ctes.push(`by_value AS (${b.byValue})`)
    final = b.select
  }
  return {
    sql: `WITH ${ctes.join(',\n')}\n${final}\nSETTINGS max_execution_time = ${MAX_EXECUTION_SECONDS}`,
    params: p.values,
  }
}

/**
 * The first moment of the day `from` in the zone `tz`, as ClickHouse's own
 * zone data has it (the first moment there is, where a clock change skips
 * midnight): one bound the sort key skips by, where a coarse bound a day
 * wider and each row's day in the zone compared cost the 30-day line of
 * unique users 5–10 % of its time at 10 million events (bench/README.md).
 */
const startOf = (from: string, tz: string) => `toDateTime64(toDateTime(${from}, ${tz}), 3, 'UTC')`

function stepCondition(p: Params, s: Step): string {
  if (s.event === null) return '1'
  const name = `event = ${p.bind('String', s.event)}`
  return s.property ? `(${name} AND ${propertyCondition(p, s.property)})` : name
}

function periodSql(plan: MetricPlan, tz: string, from: string): string {
  switch (plan.window.bucket) {
    case 'day':
      return `toDate(timestamp, ${tz})`
    case 'week':
      return `toMonday(toDate(timestamp, ${tz}))`
    case 'month':
      return `toStartOfMonth(toDate(timestamp, ${tz}))`
    case 'range':
      return from
  }
}

/**
 * How far through the ordered steps a member got within the period. The
 * window is the whole range: the period already bounds the events.
 */
function funnelLevel(p: Params, plan: MetricPlan): string {
  const ts = 'toUInt64(toUnixTimestamp64Milli(timestamp))'
  const conds = plan.steps.map((_, i) => `s${i}`).join(', ')
  if (plan.matcher === 'windowFunnel' || plan.steps.length === 1) {
    const spanMs = Date.parse(`${plan.window.to}T00:00:00Z`) - Date.parse(`${plan.window.from}T00:00:00Z`) + 2 * 86_400_000
    return `windowFunnel(${p.bind('UInt64', spanMs)})(${ts}, ${conds})`
  }
  // sequenceMatch per prefix of the steps: one event fills one step only.
  return plan.steps
    .map((_, k) => `sequenceMatch(${p.bind('String', plan.steps.slice(0, k + 1).map((__, i) => `(?${i + 1})`).join('.*'))})(${ts}, ${conds})`)
    .join(' + ')
}

/** The level after occurring filters: a step counts only if it and every step before it meet theirs. */
function effectiveLevel(p: Params, plan: MetricPlan): string {
  if (plan.operation !== 'ordered') return '0'
  const branches: string[] = []
  plan.steps.forEach((s, i) => {
    if (s.occurring) branches.push(`NOT (${occurringCondition(p, `pm.c${i}`, s.occurring)})`, `least(pm.level, ${i})`)
  })
  return branches.length ? `multiIf(${branches.join(', ')}, pm.level)` : 'pm.level'
}

/** Did the member count in the period? */
function qualifying(p: Params, plan: MetricPlan, n: number): string {
  if (plan.operation === 'ordered') return `eff >= ${n}`
  const ok = plan.steps.map((s, i) => (s.occurring ? `(c${i} >= 1 AND ${occurringCondition(p, `c${i}`, s.occurring)})` : `c${i} >= 1`))
  return `(${ok.join(plan.operation === 'all' ? ' AND ' : ' OR ')})`
}

/**
 * What each row carries. Funnel graphs: members (or companies) reaching each
 * step. Otherwise: the measure's value; conversion rate as members entering
 * (first step) and converting (last step). `rank` orders breakdown values.
 */
function partsOf(plan: MetricPlan, qualify: string, n: number): Part[] {
  const counted: Part['kind'] = plan.measure === 'uniqueCompanies' && plan.audience !== 'company' ? 'companies' : 'count'
  if (plan.graph === 'funnel') {
    return plan.steps.map((_, k) => ({ name: `step${k + 1}`, kind: plan.measure === 'conversionRate' ? 'count' : counted, cond: `eff >= ${k + 1}` }))
  }
  if (plan.measure === 'conversionRate') {
    return [
      { name: 'entered', kind: 'count', cond: 'eff >= 1' },
      { name: 'converted', kind: 'count', cond: `eff >= ${n}` },
    ]
  }
  if (plan.measure === 'total') return [{ name: 'value', kind: 'sum', cond: qualify }]
  return [{ name: 'value', kind: counted, cond: qualify }]
}

function aggregate(part: Part, form: 'final' | 'state' | 'merge'): string {
  if (form === 'merge') return part.kind === 'companies' ? `uniqExactIfMerge(${part.name})` : `sum(${part.name})`
  switch (part.kind) {
    case 'count':
      return `countIf(${part.cond})`
    case 'sum':
      return `sumIf(n, ${part.cond})`
    case 'companies':
      return `uniqExactIf${form === 'state' ? 'State' : ''}(company, ${part.cond} AND company != '')`
  }
}

/**
 * One series per breakdown value: the explicit values in their order, or the
 * values ranked by members over the whole range; the rest merge into one
 * unnamed series ('Other'). A second grouping set gives each period's total
 * over every value (the header's number).
 */
function breakdownSelect(p: Params, plan: MetricPlan, parts: Part[]): { byValue: string; select: string } {
  const b = plan.breakdown!
  // Values rank by the members counted in the first part, summed over the periods.
  const rankPart: Part = { name: 'rank_part', kind: 'count', cond: parts[0]!.cond }
  const states = parts.map((x) => `${aggregate(x, 'state')} AS ${x.name}`).join(', ')
  const names = parts.map((x) => x.name).join(', ')
  const ranked = b.values.length
    ? `SELECT *, indexOf(${p.bind('Array(String)', b.values)}, bv) AS r FROM by_value`
    : `SELECT *, dense_rank() OVER (ORDER BY rank_key DESC, bv ASC) AS r
       FROM (SELECT *, sum(rank_part) OVER (PARTITION BY bv) AS rank_key FROM by_value)`
  const top = b.values.length || b.top
  return {
    byValue: `SELECT period, bv, ${states}, ${aggregate(rankPart, 'final')} AS rank_part FROM members GROUP BY period, bv`,
    select: `SELECT toString(period) AS period, grouping(named) AS overall, named, series, min(r) AS rank, ${parts.map((x) => `${aggregate(x, 'merge')} AS ${x.name}`).join(', ')}
FROM (SELECT period, r, r BETWEEN 1 AND ${p.bind('UInt32', top)} AS named, if(named, bv, '') AS series, ${names} FROM (${ranked}))
GROUP BY GROUPING SETS ((period, named, series), (period))`,
  }
}

function memberTraitsSql(p: Params, plan: MetricPlan, org: string, names: string[]): string {
  const source = TRAIT_SOURCE[plan.audience]
  return `
    SELECT ${source.key} AS member, ${latestTraitColumns(p, names).join(', ')}
    FROM ${traitCallsWithLinks(org)}
    WHERE org_id = ${org} AND type = '${source.type}' AND ${source.present(org)}
    GROUP BY member`
}
