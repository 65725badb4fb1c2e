import { TRAIT_OPERATIONS } from './trait-filters.ts'
import { z } from 'zod'

/**
 * Metrics (spec part 2 §3-§5, §9): the stored metric, its definition, the
 * editor's rules and the graph call's answer. The server validates with these
 * schemas, the editor applies the same rules, so both agree on what a metric is.
 */

export const DATE_RANGES = ['last7Days', 'last30Days', 'last3Months', 'last6Months', 'lastYear'] as const
export const AUDIENCE_TYPES = ['user', 'company'] as const
export const MEASURES = ['unique', 'total', 'conversionRate', 'uniqueCompanies'] as const
export const OPERATIONS = ['any', 'all', 'ordered'] as const
export const OCCURRING_PERIODS = ['daily', 'weekly', 'monthly'] as const
export const GRAPH_TYPES = ['line', 'bar', 'table', 'metric', 'funnel'] as const
export const GRAPH_LAYOUTS = ['stacked', 'side'] as const
export const AGGREGATES = ['and', 'or'] as const
export const PROPERTY_OPERATIONS = ['is', 'isNot', 'startsWith', 'endsWith', 'contains', 'doesNotContain', 'greaterThan', 'lessThan'] as const
export const OCCURRING_OPERATIONS = ['equals', 'not', 'moreThan', 'atLeast', 'lessThan', 'atMost', 'between', 'notBetween'] as const
/** Audience-trait operators (part 3 §3's table, by trait type): a metric's audience traits use the same words (contracts/src/trait-filters.ts). */
export { TRAIT_OPERATIONS } from './trait-filters.ts'

export type DateRange = (typeof DATE_RANGES)[number]
export type AudienceType = (typeof AUDIENCE_TYPES)[number]
export type MeasureBy = (typeof MEASURES)[number]
export type Operation = (typeof OPERATIONS)[number]
export type OccurringPeriod = (typeof OCCURRING_PERIODS)[number]
export type GraphType = (typeof GRAPH_TYPES)[number]
export type GraphLayout = (typeof GRAPH_LAYOUTS)[number]
export type PropertyOperation = (typeof PROPERTY_OPERATIONS)[number]
export type OccurringOperation = (typeof OCCURRING_OPERATIONS)[number]

export const METRIC_LIMITS = { name: 50, description: 200, events: 20, traits: 20, eventName: 200, value: 1000 } as const

export const METRIC_NOT_FOUND = 'Metric not found'
/** The graph query ran past the engine's time limit (query/src/metrics/sql/query.ts). */
export const METRIC_TOO_SLOW = 'This metric took too long to compute; try a shorter date range'

export const BETWEEN_MESSAGE = 'Event filter using "between" must have its first value less than or equal to the last value'

const value = z.string().max(METRIC_LIMITS.value)

/** A condition on one of the event's properties: path is a dotted path inside properties ("plan", "cart.total"). */
export const propertyFilterSchema = z.object({
  path: z.string().min(1).max(METRIC_LIMITS.eventName),
  operation: z.enum(PROPERTY_OPERATIONS),
  value,
})

/** How often the event must occur for a member to count, per period; counts start at 1. */
export const occurringFilterSchema = z
  .object({
    operation: z.enum(OCCURRING_OPERATIONS),
    value: z.number().int().min(1, 'Occurring values have a minimum of 1'),
    value2: z.number().int().min(1, 'Occurring values have a minimum of 1').optional(),
  })
  .refine((o) => !(o.operation === 'between' || o.operation === 'notBetween') || (o.value2 !== undefined && o.value <= o.value2), {
    message: BETWEEN_MESSAGE,
    path: ['value2'],
  })

export const metricEventSchema = z.object({
  name: z.string().trim().min(1, 'Event name must be provided').max(METRIC_LIMITS.eventName),
  property: propertyFilterSchema.optional(),
  occurring: occurringFilterSchema.optional(),
})

export const audienceTraitSchema = z.object({
  name: z.string().min(1).max(METRIC_LIMITS.eventName),
  operation: z.enum(TRAIT_OPERATIONS),
  value: z.union([value, z.array(value).max(100)]).optional(),
})

export const breakdownSchema = z.object({
  /** A trait of the audience type's entity (user or company traits). */
  trait: z.string().min(1).max(METRIC_LIMITS.eventName),
  /** The trait's type, as the traits look-up names it (string, number, boolean, date…). */
  type: z.string().max(50).default('string'),
  /** Only these values get their own series; empty: the most frequent ones. */
  values: z.array(value).max(50).default([]),
})

export const metricDefinitionSchema = z.object({
  audienceType: z.enum(AUDIENCE_TYPES).default('user'),
  measureBy: z.enum(MEASURES).default('unique'),
  events: z.array(metricEventSchema).max(METRIC_LIMITS.events).default([]),
  isAnyEvent: z.boolean().default(false),
  operation: z.enum(OPERATIONS).default('any'),
  occurring: z.enum(OCCURRING_PERIODS).default('daily'),
  audience: z
    .object({ traits: z.array(audienceTraitSchema).max(METRIC_LIMITS.traits).default([]), aggregate: z.enum(AGGREGATES).default('and') })
    .default({ traits: [], aggregate: 'and' }),
  breakdown: breakdownSchema.nullish(),
  dateRange: z.enum(DATE_RANGES).default('last30Days'),
  graphType: z.enum(GRAPH_TYPES).default('line'),
  graphLayout: z.enum(GRAPH_LAYOUTS).default('stacked'),
})

export type MetricDefinition = z.output<typeof metricDefinitionSchema>
export type MetricEvent = z.output<typeof metricEventSchema>

export const METRIC_DEFAULTS: MetricDefinition = metricDefinitionSchema.parse({})
export const DEFAULT_CATEGORY = 'other'

/** POST /api/orgs/{organization}/metrics and POST …/metrics/{metricId}. */
export const saveMetricSchema = z.object({
  name: z
    .string({ error: 'Metric name must be provided' })
    .trim()
    .min(1, 'Metric name must be provided')
    .max(METRIC_LIMITS.name, 'Metric name must have at most 50 characters'),
  description: z.string().trim().max(METRIC_LIMITS.description, 'Metric description must have at most 200 characters').default(''),
  category: z
    .string()
    .trim()
    .max(50)
    .transform((c) => c || DEFAULT_CATEGORY)
    .default(DEFAULT_CATEGORY),
  definition: metricDefinitionSchema,
})
export type SaveMetric = z.input<typeof saveMetricSchema>

/** The metric's kind (part 2 §3), derived, never stored. */
export type MetricType = 'audience' | 'event' | 'funnel' | undefined

export function metricType(d: Pick<MetricDefinition, 'events' | 'isAnyEvent' | 'operation'>, audienceId?: string | null): MetricType {
  if (audienceId) return 'audience'
  if (d.events.length > 0 && d.operation === 'ordered') return 'funnel'
  if (d.events.length > 0 || d.isAnyEvent) return 'event'
  return undefined
}

/** An empty metric shows an empty line graph and makes no call (part 2 §4). */
export const isEmptyMetric = (d: Pick<MetricDefinition, 'events' | 'isAnyEvent'>) => d.events.length === 0 && !d.isAnyEvent

/**
 * The editor's seven rules (part 2 §4), applied after every change until
 * nothing moves. `changed` names the field the user just set, which decides
 * the one real conflict: measureBy total meeting operation ordered. Rule 2
 * ("total is not valid with ordered: measureBy becomes unique") and rule 3
 * ("ordered with total: the operation becomes any") both fix it, in opposite
 * ways; the field the user did not touch gives way, so the choice just made
 * stands. Elsewhere (a definition loaded or sent as is) rule 2 acts: the
 * ordered funnel is the costlier thing to rebuild.
 *
 * Rules 1 and 2, when both apply (measureBy total, no events, not any event,
 * operation ordered): rule 1 wins. A total of nothing has nothing to count
 * whatever the operation, so measureBy becomes unique and rule 2 has nothing
 * left to change; rule 5 then turns the event-less ordered into any.
 */
export function applyMetricRules(input: MetricDefinition, changed?: keyof MetricDefinition): MetricDefinition {
  let d = { ...input }
  for (let pass = 0; pass < 8; pass++) {
    const before = JSON.stringify(d)
    const noEvents = d.events.length === 0 && !d.isAnyEvent
    // 1. total with no events and not any event becomes unique.
    if (d.measureBy === 'total' && noEvents) d = { ...d, measureBy: 'unique' }
    // 3. ordered with total: the operation becomes any, when the user chose total.
    if (d.operation === 'ordered' && d.measureBy === 'total' && changed === 'measureBy') d = { ...d, operation: 'any' }
    // 2. conversionRate only with ordered, and total not with ordered: otherwise unique.
    if ((d.measureBy === 'conversionRate' && d.operation !== 'ordered') || (d.measureBy === 'total' && d.operation === 'ordered')) {
      d = { ...d, measureBy: 'unique' }
    }
    // 4. all with no events and not any event becomes any.
    if (d.operation === 'all' && noEvents) d = { ...d, operation: 'any' }
    // 5. ordered with no events becomes any.
    if (d.operation === 'ordered' && d.events.length === 0) d = { ...d, operation: 'any' }
    // 6. funnel only with ordered; otherwise line.
    if (d.graphType === 'funnel' && d.operation !== 'ordered') d = { ...d, graphType: 'line' }
    // 7. weekly or monthly with the last 7 days becomes daily.
    if (d.occurring !== 'daily' && d.dateRange === 'last7Days') d = { ...d, occurring: 'daily' }
    if (JSON.stringify(d) === before) break
  }
  return d
}

/** GET /api/orgs/{organization}/metrics/category */
export interface MetricCategories {
  categories: Array<{ category: string; metrics: Array<{ id: string; name: string; valid: boolean }> }>
}

/** GET /api/orgs/{organization}/metrics/{metricId} */
export interface StoredMetric {
  id: string
  name: string
  description: string
  category: string
  definition: MetricDefinition
}

/**
 * POST /api-v2/orgs/{organization}/metrics/graph: what the graph draws.
 * labels are the x axis: for line, bar and table the periods' first days
 * (YYYY-MM-DD; a table shows each dataset as a row, the periods as columns),
 * for a funnel the step names, for a metric one label (the date range as an
 * ISO interval, "2026-02-01/2026-03-02"). Each dataset is one series aligned
 * with labels: one per breakdown value (then 'Other' and 'Not set'), else one
 * named like the header. header.name names the measure ('Unique users',
 * 'Unique companies', 'Total events', 'Conversion rate'); header.value is the
 * headline number of metric and funnel graphs (a funnel's: its conversion in
 * percent for conversion rate, else the members completing it). Conversion
 * rates are percentages. layout is the one to draw: side only for bar graphs
 * with a breakdown, not ordered. partial (line, bar and table) lists the
 * indices of labels whose period is not wholly counted: the last one, which
 * holds today and is not over yet, and the first when the range starts after
 * its first day (the last 30 days counted by month start mid-month); the
 * dashboard marks them, so that a period under way does not read as a fall.
 */
export interface MetricGraph {
  type: GraphType
  layout?: GraphLayout
  header: { name: string; value?: number }
  data: { labels: string[]; datasets: Array<{ label: string; data: number[] }>; partial?: number[] }
}
