import { z } from 'zod'
import type { MetricGraph } from './metrics.ts'

/**
 * Reports (spec part 3 §2-§9): custom reports made of saved metrics, and the
 * feature reports computed from a feature's events. The specification's texts
 * are kept word for word; what it leaves to fl0 (the caps' messages, a cap on
 * a report's metrics, not found) is decided here once, for the server and the
 * dashboard alike.
 */
export const REPORT_LIMITS = {
  /** Part 3 §5 and §9: the name input is capped at 50 characters, the description at 500. */
  name: 50,
  description: 500,
  /** A report is a page of metric cards, each one graph query: more than this is no longer a page anyone reads. */
  metrics: 50,
  /** Metric ids are ours (newId: a UUID); anything much longer is not one. */
  metricId: 100,
} as const

export const REPORT_ERRORS = {
  nameRequired: 'Report name must be given',
  nameTooLong: `Report name must have at most ${REPORT_LIMITS.name} characters`,
  descriptionTooLong: `Report description must have at most ${REPORT_LIMITS.description} characters`,
  metricIdsList: 'Metrics must be a list of metric ids',
  tooManyMetrics: `A report can have at most ${REPORT_LIMITS.metrics} metrics`,
  /** A metric id the organisation does not have (another's, a deleted one, a made-up one). */
  unknownMetric: 'Metric not found',
  notFound: 'Report not found',
  /** Part 3 §8: shown with the option to reload the page. */
  saveFailed: 'An error has occurred saving the report',
} as const

/** The reports screens' texts (part 3 §2, §8). */
export const REPORT_TEXT = {
  heading: 'Reports',
  create: 'Create report...',
  custom: 'Custom reports',
  features: 'Feature reports',
  empty: 'No reports found',
  metricCount: (n: number) => `${n} metric(s)`,
  newReport: 'New report',
  addMetric: 'Add metric...',
  noMetrics: 'No metrics found',
  allCategories: 'All',
  edit: 'Edit',
  remove: 'Remove',
  delete: 'Delete...',
  deleteHeader: 'Delete report',
  deleteConfirm: (name: string) => `Are you sure you want to delete the report "${name}"?`,
  deleted: (name: string) => `Deleted report ${name} successfully`,
  featureAnalysis: 'Feature Analysis',
  audience: 'Audience',
  users: 'Users',
  companies: 'Companies',
} as const

const metricIdSchema = z.string().trim().min(1, REPORT_ERRORS.unknownMetric).max(REPORT_LIMITS.metricId, REPORT_ERRORS.unknownMetric)

/**
 * POST /api/orgs/{organization}/reports: the editor's whole state, on every
 * save. Without report_id (or with null) it creates the report and answers
 * its new id; with one it replaces that report's name, description and, when
 * sent, its metrics. The name is trimmed and must keep a character; metric
 * ids keep their order, each once.
 */
export const saveReportSchema = z.object({
  report_id: z.string().max(REPORT_LIMITS.metricId).nullish(),
  name: z
    .string({ error: REPORT_ERRORS.nameRequired })
    .transform((s) => s.trim())
    .refine((s) => s.length > 0, REPORT_ERRORS.nameRequired)
    .refine((s) => s.length <= REPORT_LIMITS.name, REPORT_ERRORS.nameTooLong),
  description: z
    .string()
    .nullish()
    .transform((s) => (s ?? '').trim())
    .refine((s) => s.length <= REPORT_LIMITS.description, REPORT_ERRORS.descriptionTooLong),
  metric_ids: z
    .array(metricIdSchema, { error: REPORT_ERRORS.metricIdsList })
    .transform((ids) => [...new Set(ids)])
    .pipe(z.array(z.string()).max(REPORT_LIMITS.metrics, REPORT_ERRORS.tooManyMetrics))
    .optional(),
})
export type SaveReport = z.input<typeof saveReportSchema>
export type SaveReportParsed = z.output<typeof saveReportSchema>

/** POST .../reports answers the report's id (new or the one sent). */
export interface SavedReport {
  report_id: string
}

/** A row of GET /api/orgs/{organization}/reports (most recently changed first). */
export interface ReportSummary {
  id: string
  name: string
  description: string
  metric_count: number
  /** ISO 8601, UTC. */
  updated_date: string
}

/** GET /api/orgs/{organization}/reports/{reportId}: the report with its metrics' ids, in the report's order. */
export interface Report extends ReportSummary {
  metrics: string[]
}

// ---------------------------------------------------------------------------
// Feature reports

export const FEATURE_AUDIENCES = ['user', 'company'] as const
export const FEATURE_MEASURES = ['unique', 'total'] as const
export const FEATURE_DATE_RANGES = ['lastYear', 'lastDay', 'last7Days', 'last30Days'] as const
export const FEATURE_OCCURRING = ['monthly', 'daily'] as const
export const FEATURE_GRAPH_TYPES = ['metric', 'line'] as const
export type FeatureDateRange = (typeof FEATURE_DATE_RANGES)[number]

/** Part 3 §9: "The feature report's default … date range is last7Days." */
export const FEATURE_DEFAULT_DATE_RANGE: FeatureDateRange = 'last7Days'

/**
 * POST /api-v2/orgs/{organization}/features/{featureId}/data/query: one
 * number or one line over the feature's events. Date ranges end today, in
 * the organisation's time zone, today included: lastDay is today so far,
 * last7Days today and the six days before, lastYear twelve calendar months
 * back to the day after (as the metric engine reads its ranges).
 */
export const featureQuerySchema = z.object({
  audienceType: z.enum(FEATURE_AUDIENCES).default('user'),
  measureBy: z.enum(FEATURE_MEASURES).default('unique'),
  dateRange: z.enum(FEATURE_DATE_RANGES).default(FEATURE_DEFAULT_DATE_RANGE),
  occurring: z.enum(FEATURE_OCCURRING).default('daily'),
  graphType: z.enum(FEATURE_GRAPH_TYPES).default('metric'),
})
export type FeatureQuery = z.output<typeof featureQuerySchema>

/**
 * The answer. metric: currentValue.value is the measure over the range
 * (members who used the feature, or its events), and currentValue.outOf the
 * same measure over every track event of the organisation in that range
 * (all active members, all events): value / outOf is the feature's adoption
 * or share. line: the graph, one point per day or month, as the metric
 * graph draws it.
 */
export type FeatureQueryResult = { currentValue: { value: number; outOf: number } } | { graph: MetricGraph }

/**
 * The Feature Analysis report's ten queries, sent at once (part 3 §7), and
 * which of the report's templates (part 3 §3: split, count, counts, graph,
 * list) shows each. The audience toggle sets audienceType on all ten.
 *
 *  counts  'Active users': today, last 7 days, last 30 days, last year       (1-4)
 *  split   'Adoption, last 7 days': of the members active on anything in the
 *          default range (last7Days), those who used the feature: 2's value
 *          against 2's outOf
 *  count   'Uses today', 'Uses, last 7 days' and uses per member over 7 days (5-6, and 6 / 2)
 *  graph   daily active members and daily uses over 30 days; monthly active
 *          members over the year                                              (7-9)
 *  list    uses by month over the year, newest first                         (10)
 */
export const FEATURE_REPORT_QUERIES = [
  { key: 'activeToday', template: 'counts', query: { measureBy: 'unique', dateRange: 'lastDay', occurring: 'daily', graphType: 'metric' } },
  { key: 'active7Days', template: 'counts', query: { measureBy: 'unique', dateRange: 'last7Days', occurring: 'daily', graphType: 'metric' } },
  { key: 'active30Days', template: 'counts', query: { measureBy: 'unique', dateRange: 'last30Days', occurring: 'daily', graphType: 'metric' } },
  { key: 'activeYear', template: 'counts', query: { measureBy: 'unique', dateRange: 'lastYear', occurring: 'monthly', graphType: 'metric' } },
  { key: 'usesToday', template: 'count', query: { measureBy: 'total', dateRange: 'lastDay', occurring: 'daily', graphType: 'metric' } },
  { key: 'uses7Days', template: 'count', query: { measureBy: 'total', dateRange: 'last7Days', occurring: 'daily', graphType: 'metric' } },
  { key: 'dailyActive', template: 'graph', query: { measureBy: 'unique', dateRange: 'last30Days', occurring: 'daily', graphType: 'line' } },
  { key: 'dailyUses', template: 'graph', query: { measureBy: 'total', dateRange: 'last30Days', occurring: 'daily', graphType: 'line' } },
  { key: 'monthlyActive', template: 'graph', query: { measureBy: 'unique', dateRange: 'lastYear', occurring: 'monthly', graphType: 'line' } },
  { key: 'monthlyUses', template: 'list', query: { measureBy: 'total', dateRange: 'lastYear', occurring: 'monthly', graphType: 'line' } },
] as const satisfies ReadonlyArray<{ key: string; template: 'split' | 'count' | 'counts' | 'graph' | 'list'; query: Omit<FeatureQuery, 'audienceType'> }>

export type FeatureReportKey = (typeof FEATURE_REPORT_QUERIES)[number]['key']
