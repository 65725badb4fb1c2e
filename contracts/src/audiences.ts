import { DATE_UNITS, OPERATORS, traitValueKind, type DateUnit } from './trait-filters.ts'
import { z } from 'zod'
import { PROPERTY_PATH_MAX } from './lexicon.ts'
import { EVENT_NAME_MAX } from './features.ts'

/**
 * Audiences (spec part 3 §2–§9): saved segments of users, built from filters
 * on user and company traits, on membership of other audiences, and on what
 * users did (events and features). The specification's texts and messages are
 * here word for word; what it leaves open (limits of lists, the messages of
 * malformed filters, not found) is decided here once, for the server and the
 * dashboard alike.
 *
 * A filter the user has not finished (no trait chosen, no value typed, a range
 * with one end) is incomplete, and is left out of what is saved and previewed
 * (part 3 §4): readFilters drops it. A filter that is finished but cannot mean
 * anything (an operator its type lacks, a date that does not parse, a range
 * whose second value is not above its first) is refused with a message naming
 * the field.
 */

export const AUDIENCE_NAME_MAX = 49
export const AUDIENCE_DESCRIPTION_MAX = 299
/** Input caps (part 3 §5): the description input takes more than the schema allows, so the rule can be shown. */
export const AUDIENCE_NAME_INPUT_MAX = 49
export const AUDIENCE_DESCRIPTION_INPUT_MAX = 399
/** Result tables page by 20 (part 3 §9). Pages start at 1. */
export const AUDIENCE_PAGE_SIZE = 20
/** Far more than a builder shows; keeps one query's size bounded. */
export const AUDIENCE_MATCHES_MAX = 50
export const AUDIENCE_ACTIONS_MAX = 20
/** A typed value as a filter accepts it. */
export const AUDIENCE_VALUE_MAX = 1000
/** Audiences nested in audiences, at most this deep (a loop is refused whatever the depth). */
export const AUDIENCE_NESTING_MAX = 10

export const AUDIENCE_ERRORS = {
  nameRequired: 'Name must be provided',
  nameTooLong: 'Name must have less than 50 characters',
  descriptionTooLong: 'Description must have less than 300 characters',
  notFound: 'Audience not found',
  nothingToChange: 'Name, description or filters must be given',
  filters: 'Filters must be an object with matches and actions',
  matches: 'Matches must be a list of filters',
  actions: 'Actions must be a list of filters',
  tooManyMatches: `At most ${AUDIENCE_MATCHES_MAX} trait filters can be used`,
  tooManyActions: `At most ${AUDIENCE_ACTIONS_MAX} action filters can be used`,
  matchAggregation: 'Match aggregation must be and or or',
  actionAggregation: 'Action aggregation must be and',
  kind: 'Kind must be user, company or audience',
  actionKind: 'Kind must be event or feature',
  oneOperator: 'A filter must have exactly one operator',
  operator: (type: string) => `This operator cannot be used on a ${type} trait`,
  traitTooLong: `Trait must have at most ${PROPERTY_PATH_MAX} characters`,
  valueTooLong: `Value must have at most ${AUDIENCE_VALUE_MAX} characters`,
  number: 'Value must be a number',
  boolean: 'Value must be true or false',
  date: 'Value must be a valid date (YYYY-MM-DD)',
  count: 'Value must be a whole number of 0 or more',
  unit: 'Unit must be hour, day, week or month',
  range: 'The second value must be greater than the first',
  measurement: 'Measurement must be total',
  dateRange: 'Date range must be the last number of hours, days, weeks or months',
  eventTooLong: `Event name must have at most ${EVENT_NAME_MAX} characters`,
  loop: 'An audience cannot include itself, directly or through other audiences',
  tooDeep: `Audiences can be nested at most ${AUDIENCE_NESTING_MAX} deep`,
  page: 'Page must be a whole number from 1',
} as const

/** The screens' texts and messages (part 3 §2, §8, §9). */
export const AUDIENCE_TEXT = {
  people: 'People',
  audiences: 'Audiences',
  create: 'Create audience...',
  createTitle: 'Create audience',
  save: 'Save audience',
  delete: 'Delete...',
  search: 'Search audience name...',
  columns: { audience: 'Audience', members: 'Members', companies: 'Companies' },
  noAudiences: 'No audiences found',
  noUsers: 'No users found',
  noCompanies: 'No companies found',
  noEvents: 'No events found',
  noFeatures: 'No features found',
  noTraits: 'No traits found',
  noValues: 'No values found',
  unknown: 'Unknown',
  tabs: { users: 'Users', companies: 'Companies' },
  name: 'Name',
  description: 'Description',
  saved: (name: string) => `The audience "${name}" has been saved`,
  savedOk: (name: string) => `Audience ${name} saved successfully`,
  deleted: (name: string) => `Deleted audience ${name} successfully`,
  deleteConfirm: (name: string) => `Are you sure you want to delete the audience "${name}"?`,
} as const

export { TRAIT_TYPES, OPERATORS, type AudienceTraitType } from './trait-filters.ts'

export type MatchType = keyof typeof OPERATORS
export type OperatorOf<T extends MatchType> = (typeof OPERATORS)[T][number]
/** The operator field of each type: the type's name with _op (part 3 §3). */
export const opField = <T extends MatchType>(type: T) => `${type}_op` as const
export const MATCH_TYPES = Object.keys(OPERATORS) as MatchType[]

export const ACTION_OPERATORS = ['equals', 'not_equal', 'greater_than', 'greater_than_or_equal_to', 'less_than', 'less_than_or_equal_to', 'between', 'not_between'] as const
export type ActionOperator = (typeof ACTION_OPERATORS)[number]
export { DATE_UNITS, type DateUnit } from './trait-filters.ts'
export const MATCH_KINDS = ['user', 'company', 'audience'] as const
export type MatchKind = (typeof MATCH_KINDS)[number]
export const ACTION_KINDS = ['event', 'feature'] as const
export type ActionKind = (typeof ACTION_KINDS)[number]

/**
 * What kind of value an operator takes: none (is_set), one text, one number,
 * a true/false, a day, two numbers or two days (between), or a count with a
 * unit (last 7 days). The editor clears the values when an operator change
 * needs another kind (part 3 §4).
 */
export type ValueKind = 'none' | 'text' | 'number' | 'boolean' | 'day' | 'numberRange' | 'dayRange' | 'relative' | 'audience'

export function valueKindOf(type: MatchType, op: string): ValueKind {
  if (type === 'audience') return 'audience'
  const kind = traitValueKind(op)
  if (kind === 'none') return 'none'
  switch (type) {
    case 'string':
    case 'stringArray':
      return 'text'
    case 'number':
      return kind === 'range' ? 'numberRange' : 'number'
    case 'boolean':
      return 'boolean'
    case 'date':
      return kind === 'range' ? 'dayRange' : kind === 'relative' ? 'relative' : 'day'
  }
}

type Scalar = string | number | boolean

/**
 * A match as it travels and is stored (part 3 §3): its kind, the trait, one
 * operator field named after the trait's type, and the value(s) the operator
 * takes. After readFilters: numbers are numbers, days are YYYY-MM-DD, and only
 * the fields the operator uses are kept.
 */
export interface AudienceMatch {
  kind: MatchKind
  trait?: string
  string_op?: OperatorOf<'string'>
  stringArray_op?: OperatorOf<'stringArray'>
  number_op?: OperatorOf<'number'>
  boolean_op?: OperatorOf<'boolean'>
  date_op?: OperatorOf<'date'>
  audience_op?: OperatorOf<'audience'>
  value?: Scalar | null
  value1?: Scalar | null
  value2?: Scalar | null
  unit?: DateUnit | null
  audience_id?: string | null
}

/** An action (part 3 §3): how often the user did an event, or any event of a feature, in the last N units. */
export interface AudienceAction {
  kind: ActionKind
  event_name?: string | null
  feature_id?: string | null
  measurement: 'total'
  occurrence_op: ActionOperator
  value?: number | string | null
  value1?: number | string | null
  value2?: number | string | null
  date_range: { kind: 'last'; value: number | string | null; unit: DateUnit }
}

export interface AudienceFilters {
  match_aggregation: 'and' | 'or'
  matches: AudienceMatch[]
  action_aggregation: 'and'
  actions: AudienceAction[]
}

/** The default action (part 3 §9): at least once in the last 7 days. */
export const DEFAULT_ACTION: AudienceAction = {
  kind: 'event',
  event_name: '',
  measurement: 'total',
  occurrence_op: 'greater_than_or_equal_to',
  value: 1,
  date_range: { kind: 'last', value: 7, unit: 'day' },
}

export const EMPTY_FILTERS: AudienceFilters = { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] }

/** The type a match's operator field names; undefined when it has none, or more than one. */
export function matchTypeOf(m: Partial<AudienceMatch>): MatchType | undefined {
  const present = MATCH_TYPES.filter((t) => (m as Record<string, unknown>)[opField(t)] != null)
  return present.length === 1 ? present[0] : undefined
}

export const matchOperatorOf = (m: Partial<AudienceMatch>): string | undefined => {
  const type = matchTypeOf(m)
  return type ? ((m as Record<string, unknown>)[opField(type)] as string) : undefined
}

type Issue = { path: Array<string | number>; message: string }
/** A finished filter, normalised; undefined when it is unfinished (left out); issues when it cannot mean anything. */
type Read<T> = { ok: T | undefined } | { issues: Issue[] }

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar day as YYYY-MM-DD; an ISO time is read as the day it names. */
export function parseDay(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(v.trim())
  if (!m || !DAY.test(m[1]!)) return undefined
  const d = new Date(`${m[1]}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === m[1] ? m[1] : undefined
}

function parseNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  if (typeof v !== 'string' || v.trim() === '') return undefined
  const n = Number(v.trim())
  return Number.isFinite(n) ? n : undefined
}

function parseCount(v: unknown): number | undefined {
  const n = parseNumber(v)
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined
}

function parseBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v
  if (v === 'true') return true
  if (v === 'false') return false
  return undefined
}

/**
 * A range's two ends, read by `parse`. One end missing: unfinished. The
 * second must be greater than the first (part 3 §5's rule, which the editor
 * applies as the values are typed).
 */
function readRange<T extends number | string>(m: { value1?: unknown; value2?: unknown }, parse: (v: unknown) => T | undefined, message: string): Read<{ value1: T; value2: T }> {
  if (blank(m.value1) || blank(m.value2)) return { ok: undefined }
  const a = parse(m.value1)
  const b = parse(m.value2)
  const issues: Issue[] = []
  if (a === undefined) issues.push({ path: ['value1'], message })
  if (b === undefined) issues.push({ path: ['value2'], message })
  if (issues.length) return { issues }
  if (!(b! > a!)) return { issues: [{ path: ['value2'], message: AUDIENCE_ERRORS.range }] }
  return { ok: { value1: a!, value2: b! } }
}

function readValue<T>(v: unknown, parse: (v: unknown) => T | undefined, message: string, path = 'value'): Read<T> {
  if (blank(v)) return { ok: undefined }
  const parsed = parse(v)
  return parsed === undefined ? { issues: [{ path: [path], message }] } : { ok: parsed }
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined)

function readText(v: unknown): Read<string> {
  const r = readValue(v, text, 'Value must be text')
  if ('ok' in r && r.ok !== undefined && r.ok.length > AUDIENCE_VALUE_MAX) return { issues: [{ path: ['value'], message: AUDIENCE_ERRORS.valueTooLong }] }
  return r
}

function readUnit(v: unknown): Read<DateUnit> {
  if (blank(v)) return { ok: 'day' }
  return DATE_UNITS.includes(v as DateUnit) ? { ok: v as DateUnit } : { issues: [{ path: ['unit'], message: AUDIENCE_ERRORS.unit }] }
}

/** Reads one match: normalised, undefined when unfinished, or the reasons it cannot be used. */
export function readMatch(raw: unknown): Read<AudienceMatch> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { issues: [{ path: [], message: AUDIENCE_ERRORS.matches }] }
  const m = raw as Record<string, unknown>
  if (!MATCH_KINDS.includes(m.kind as MatchKind)) return { issues: [{ path: ['kind'], message: AUDIENCE_ERRORS.kind }] }
  const kind = m.kind as MatchKind
  if (kind === 'audience') {
    if (m.audience_op != null && m.audience_op !== 'is') return { issues: [{ path: ['audience_op'], message: AUDIENCE_ERRORS.operator('audience') }] }
    if (blank(m.audience_id)) return { ok: undefined }
    if (typeof m.audience_id !== 'string') return { issues: [{ path: ['audience_id'], message: AUDIENCE_ERRORS.notFound }] }
    return { ok: { kind, audience_op: 'is', audience_id: m.audience_id } }
  }
  const types = MATCH_TYPES.filter((t) => t !== 'audience' && m[opField(t)] != null)
  if (types.length > 1) return { issues: [{ path: [], message: AUDIENCE_ERRORS.oneOperator }] }
  if (types.length === 0 || blank(m.trait)) return { ok: undefined }
  if (typeof m.trait !== 'string') return { issues: [{ path: ['trait'], message: 'Trait must be a name' }] }
  if (m.trait.length > PROPERTY_PATH_MAX) return { issues: [{ path: ['trait'], message: AUDIENCE_ERRORS.traitTooLong }] }
  const type = types[0] as Exclude<MatchType, 'audience'>
  const field = opField(type)
  const op = m[field] as string
  if (!(OPERATORS[type] as readonly string[]).includes(op)) return { issues: [{ path: [field], message: AUDIENCE_ERRORS.operator(type) }] }
  const base = { kind, trait: m.trait, [field]: op } as AudienceMatch
  const done = <T extends object>(r: Read<T>): Read<AudienceMatch> => ('issues' in r ? r : { ok: r.ok === undefined ? undefined : { ...base, ...r.ok } })
  const one = <T>(r: Read<T>) => done('issues' in r ? r : { ok: r.ok === undefined ? undefined : { value: r.ok as Scalar } })

  switch (valueKindOf(type, op)) {
    case 'none':
      return { ok: base }
    case 'text':
      return one(readText(m.value))
    case 'number':
      return one(readValue(m.value, parseNumber, AUDIENCE_ERRORS.number))
    case 'boolean':
      return one(readValue(m.value, parseBoolean, AUDIENCE_ERRORS.boolean))
    case 'day':
      return one(readValue(m.value, parseDay, AUDIENCE_ERRORS.date))
    case 'numberRange':
      return done(readRange(m, parseNumber, AUDIENCE_ERRORS.number))
    case 'dayRange':
      return done(readRange(m, parseDay, AUDIENCE_ERRORS.date))
    case 'relative': {
      const value = readValue(m.value, parseCount, AUDIENCE_ERRORS.count)
      const unit = readUnit(m.unit)
      if ('issues' in value || 'issues' in unit) return { issues: [...('issues' in value ? value.issues : []), ...('issues' in unit ? unit.issues : [])] }
      return done({ ok: value.ok === undefined ? undefined : { value: value.ok, unit: unit.ok! } })
    }
    case 'audience':
      return { ok: undefined }
  }
}

/** Reads one action: normalised, undefined when unfinished (no event or feature, no count), or its issues. */
export function readAction(raw: unknown): Read<AudienceAction> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { issues: [{ path: [], message: AUDIENCE_ERRORS.actions }] }
  const a = raw as Record<string, unknown>
  if (!ACTION_KINDS.includes(a.kind as ActionKind)) return { issues: [{ path: ['kind'], message: AUDIENCE_ERRORS.actionKind }] }
  const kind = a.kind as ActionKind
  if (a.measurement != null && a.measurement !== 'total') return { issues: [{ path: ['measurement'], message: AUDIENCE_ERRORS.measurement }] }
  const op = (a.occurrence_op ?? DEFAULT_ACTION.occurrence_op) as ActionOperator
  if (!ACTION_OPERATORS.includes(op)) return { issues: [{ path: ['occurrence_op'], message: `Occurrence operator must be one of ${ACTION_OPERATORS.join(', ')}` }] }
  const range = (a.date_range ?? DEFAULT_ACTION.date_range) as Record<string, unknown>
  if (typeof range !== 'object' || range === null || (range.kind != null && range.kind !== 'last')) return { issues: [{ path: ['date_range'], message: AUDIENCE_ERRORS.dateRange }] }
  const days = readValue(range.value, parseCount, AUDIENCE_ERRORS.count, 'value')
  const unit = readUnit(range.unit)
  const issues: Issue[] = []
  if ('issues' in days) issues.push(...days.issues.map((i) => ({ ...i, path: ['date_range', ...i.path] })))
  if ('issues' in unit) issues.push(...unit.issues.map((i) => ({ ...i, path: ['date_range', ...i.path] })))
  const count = op === 'between' || op === 'not_between' ? readRange(a, parseCount, AUDIENCE_ERRORS.count) : readValue(a.value, parseCount, AUDIENCE_ERRORS.count)
  if ('issues' in count) issues.push(...count.issues)
  const target = kind === 'event' ? a.event_name : a.feature_id
  if (!blank(target) && typeof target !== 'string') issues.push({ path: [kind === 'event' ? 'event_name' : 'feature_id'], message: 'Must be text' })
  if (kind === 'event' && typeof target === 'string' && target.length > EVENT_NAME_MAX) issues.push({ path: ['event_name'], message: AUDIENCE_ERRORS.eventTooLong })
  if (issues.length) return { issues }
  if (blank(target) || ('ok' in days && days.ok === undefined) || ('ok' in count && count.ok === undefined)) return { ok: undefined }
  const values = typeof (count as { ok: unknown }).ok === 'number' ? { value: (count as { ok: number }).ok } : (count as { ok: { value1: number; value2: number } }).ok
  return {
    ok: {
      kind,
      ...(kind === 'event' ? { event_name: target as string } : { feature_id: target as string }),
      measurement: 'total',
      occurrence_op: op,
      ...values,
      date_range: { kind: 'last', value: (days as { ok: number }).ok, unit: (unit as { ok: DateUnit }).ok },
    },
  }
}

function readList<T>(list: unknown[], read: (raw: unknown) => Read<T>, name: string, ctx: z.RefinementCtx): T[] {
  const out: T[] = []
  list.forEach((raw, i) => {
    const r = read(raw)
    if ('issues' in r) for (const issue of r.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [name, i, ...issue.path] })
    else if (r.ok !== undefined) out.push(r.ok)
  })
  return out
}

/**
 * The filters object (part 3 §3), as saved and previewed: unfinished filters
 * left out, the rest normalised; refused when one cannot mean anything.
 */
export const audienceFiltersSchema = z
  .object(
    {
      match_aggregation: z.enum(['and', 'or'], { error: AUDIENCE_ERRORS.matchAggregation }).default('and'),
      matches: z.array(z.unknown(), { error: AUDIENCE_ERRORS.matches }).max(AUDIENCE_MATCHES_MAX, AUDIENCE_ERRORS.tooManyMatches).default([]),
      action_aggregation: z.literal('and', { error: AUDIENCE_ERRORS.actionAggregation }).default('and'),
      actions: z.array(z.unknown(), { error: AUDIENCE_ERRORS.actions }).max(AUDIENCE_ACTIONS_MAX, AUDIENCE_ERRORS.tooManyActions).default([]),
    },
    { error: AUDIENCE_ERRORS.filters },
  )
  .transform((f, ctx): AudienceFilters => ({
    match_aggregation: f.match_aggregation,
    matches: readList(f.matches, readMatch, 'matches', ctx),
    action_aggregation: 'and',
    actions: readList(f.actions, readAction, 'actions', ctx),
  }))

/** Filters as the dashboard holds them (values as typed), read the way the server reads them: what would be saved. */
export function completeFilters(filters: AudienceFilters): AudienceFilters | undefined {
  const parsed = audienceFiltersSchema.safeParse(filters)
  return parsed.success ? parsed.data : undefined
}

export const audienceNameSchema = z
  .string({ error: AUDIENCE_ERRORS.nameRequired })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, AUDIENCE_ERRORS.nameRequired)
  .refine((s) => s.length <= AUDIENCE_NAME_MAX, AUDIENCE_ERRORS.nameTooLong)

export const audienceDescriptionSchema = z
  .string({ error: AUDIENCE_ERRORS.descriptionTooLong })
  .max(AUDIENCE_DESCRIPTION_MAX, AUDIENCE_ERRORS.descriptionTooLong)

/** POST /api/orgs/{organization}/audiences, and the create modal (part 3 §5). */
export const createAudienceSchema = z.object({
  name: audienceNameSchema,
  description: audienceDescriptionSchema.default(''),
})
export type CreateAudience = z.input<typeof createAudienceSchema>

/**
 * PATCH .../audiences/{audienceId} (part 3 §7): filters; or name, description
 * and filters; or name and description. What is left out stays.
 */
export const updateAudienceSchema = z
  .object({
    name: audienceNameSchema.optional(),
    description: audienceDescriptionSchema.optional(),
    filters: audienceFiltersSchema.optional(),
  })
  .refine((b) => b.name !== undefined || b.description !== undefined || b.filters !== undefined, { message: AUDIENCE_ERRORS.nothingToChange, path: ['filters'] })
export type UpdateAudience = z.input<typeof updateAudienceSchema>

/** POST .../audiences/filters: the filters to preview and the page of both tables. */
export const previewAudienceSchema = z.object({
  filters: audienceFiltersSchema,
  page: z.coerce.number({ error: AUDIENCE_ERRORS.page }).int(AUDIENCE_ERRORS.page).min(1, AUDIENCE_ERRORS.page).max(1_000_000, AUDIENCE_ERRORS.page).default(1),
})
export type PreviewAudience = z.input<typeof previewAudienceSchema>

/** POST .../audiences: the new audience's id. */
export interface CreatedAudience {
  audience_id: string
}

/** A row of GET .../audiences (part 3 §7), with its members counted now. */
export interface AudienceSummary {
  id: string
  name: string
  description: string
  userCount: number
  companyCount: number
}
export interface AudienceList {
  audiences: AudienceSummary[]
}

/** GET .../audiences/{audienceId}. */
export interface AudienceDetail {
  audience: { id: string; name: string; description: string; filters: AudienceFilters }
}

/** A result table's column (part 3 §3): the row's key and the header shown. */
export interface AudienceColumn {
  key: string
  displayName: string
}
export type AudienceCell = string | number | null
export type AudienceUserRow = { userId: string } & Record<string, AudienceCell>
export type AudienceCompanyRow = { companyId: string } & Record<string, AudienceCell>

/** POST .../audiences/filters: both tables' totals and the requested page of each. */
export interface AudienceResults {
  totalUsers: number
  totalCompanies: number
  users: AudienceUserRow[]
  companies: AudienceCompanyRow[]
  userColumns: AudienceColumn[]
  companyColumns: AudienceColumn[]
}
