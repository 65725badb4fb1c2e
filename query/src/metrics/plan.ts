import {
  applyMetricRules,
  type AudienceType,
  type FieldError,
  type GraphLayout,
  type GraphType,
  type MeasureBy,
  type MetricDefinition,
  type OccurringOperation,
  type Operation,
  type PropertyOperation,
} from '@fl0/contracts'
import { resolveTrait, type TraitCondition } from './traits.ts'
import { BUCKET_OF, metricWindow, type MetricWindow } from './window.ts'

/**
 * Meaning and decisions: a metric definition, as the editor sends it, becomes
 * a plan that says what to count, with every choice made here and nothing
 * left for the SQL printer (sql/query.ts) to decide. Pure, tested with toEqual.
 *
 * The decisions, in one place:
 *
 * - The editor's seven rules apply first (contracts' applyMetricRules, with
 *   its precedence), so a definition sent as is counts as the editor would
 *   show it: total with ordered counts unique, a funnel without ordered is a
 *   line.
 * - The period is the unit. Every point of a line, bar or table answers the
 *   question for its period alone: any = did any of the events in the period,
 *   all = did every one of them in the period, ordered = did the steps in
 *   that order within the period. The metric and funnel graphs make the whole
 *   date range one period.
 * - A step is an event name with an optional property filter; "any event"
 *   is any track event (the events the lexicon and the picker list; page,
 *   identify and group calls are not events there). With operation any or
 *   all it is one more step; an order has no place for it, so ordered uses
 *   the listed events only.
 * - Filters with an empty value are ignored, as the editor omits them.
 * - Occurring filters need the event at least once (counts start at 1): "not
 *   2 times" means did it, but not exactly twice. They are ignored when
 *   measuring total (part 2 §5). In an ordered metric a member reaches a step
 *   only if that step's and every earlier step's occurring filter holds.
 * - Ordered steps that share an event name cannot use windowFunnel, which
 *   lets one event fill two steps; those funnels match with sequenceMatch.
 * - Breakdown: one series per value of the trait, for the explicit values or
 *   else the BREAKDOWN_TOP values with the most members; the rest is 'Other',
 *   members without the trait 'Not set'.
 */
export const BREAKDOWN_TOP = 10

export interface Step {
  label: string
  /** null: any track event. */
  event: string | null
  property?: PropertyCondition
  occurring?: OccurringCondition
}

export type PropertyCondition =
  | { path: string; operation: Exclude<PropertyOperation, 'greaterThan' | 'lessThan'>; value: string }
  | { path: string; operation: 'greaterThan' | 'lessThan'; value: number }

export interface OccurringCondition {
  operation: OccurringOperation
  value: number
  value2?: number
}

export interface MetricPlan {
  audience: AudienceType
  measure: MeasureBy
  operation: Operation
  steps: Step[]
  /** How ordered steps are matched (see above); undefined unless ordered. */
  matcher?: 'windowFunnel' | 'sequence'
  window: MetricWindow
  traits: TraitCondition[]
  aggregate: 'and' | 'or'
  breakdown?: { trait: string; values: string[]; top: number }
  graph: GraphType
  layout: GraphLayout
  /** What the graph's header and single series are called. */
  name: string
}

export type Planned = { ok: true; plan: MetricPlan } | { ok: false; errors: FieldError[] }

export interface PlanContext {
  now: Date
  /** A zone isKnownZone accepts. */
  timezone: string
}

export function planMetric(input: MetricDefinition, ctx: PlanContext): Planned {
  const d = applyMetricRules(input)
  const errors: FieldError[] = []
  const ordered = d.operation === 'ordered'
  const total = d.measureBy === 'total'

  const steps: Step[] = d.events.map((e, i) => {
    const step: Step = { label: e.name, event: e.name }
    if (e.property && e.property.value.trim() !== '') {
      const { path, operation } = e.property
      if (operation === 'greaterThan' || operation === 'lessThan') {
        const value = Number(e.property.value)
        if (!Number.isFinite(value) || e.property.value.trim() === '') errors.push({ name: `events.${i}.property.value`, message: 'Value must be a number' })
        else step.property = { path, operation, value }
      } else step.property = { path, operation, value: e.property.value }
    }
    if (e.occurring && !total) step.occurring = { ...e.occurring }
    return step
  })
  if (d.isAnyEvent && !ordered) steps.push({ label: 'Any event', event: null })

  const traits: TraitCondition[] = []
  d.audience.traits.forEach((t, i) => {
    const resolved = resolveTrait(t)
    if (resolved === undefined) return
    if ('error' in resolved) errors.push({ name: `audience.traits.${i}.value`, message: resolved.error })
    else traits.push(resolved)
  })

  if (errors.length > 0) return { ok: false, errors }

  const names = steps.map((s) => s.event)
  const bucket = d.graphType === 'metric' || d.graphType === 'funnel' ? 'range' : BUCKET_OF[d.occurring]
  const breakdown = d.breakdown
    ? { trait: d.breakdown.trait, values: [...new Set(d.breakdown.values.map((v) => v.trim()).filter(Boolean))], top: BREAKDOWN_TOP }
    : undefined
  return {
    ok: true,
    plan: {
      audience: d.audienceType,
      measure: d.measureBy,
      operation: d.operation,
      steps,
      matcher: ordered ? (new Set(names).size < names.length ? 'sequence' : 'windowFunnel') : undefined,
      window: metricWindow(ctx.now, ctx.timezone, d.dateRange, bucket),
      traits,
      aggregate: d.audience.aggregate,
      breakdown,
      graph: d.graphType,
      // Side by side is for bar graphs with a breakdown; everything else stacks.
      layout: d.graphType === 'bar' && breakdown && !ordered ? d.graphLayout : 'stacked',
      name: measureName(d.measureBy, d.audienceType),
    },
  }
}

export function measureName(measure: MeasureBy, audience: AudienceType): string {
  if (measure === 'total') return 'Total events'
  if (measure === 'conversionRate') return 'Conversion rate'
  if (measure === 'uniqueCompanies' || audience === 'company') return 'Unique companies'
  return 'Unique users'
}
