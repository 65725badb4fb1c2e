import {
  AUDIENCE_ERRORS,
  AUDIENCE_NESTING_MAX,
  audienceFiltersSchema,
  matchOperatorOf,
  matchTypeOf,
  type ActionOperator,
  type AudienceAction,
  type AudienceFilters,
  type AudienceMatch,
  type DateUnit,
} from '@fl0/contracts'

/**
 * What audience filters mean, decided before any SQL is printed: the filters
 * (part 3 §3) in, a tree of conditions on one person out. Nested audiences are
 * replaced by their own conditions; features by their events.
 *
 * Members are users (a user id), with the events of the anonymous ids linked
 * to them (query/src/people/identity.ts's rules). Anonymous visitors never
 * linked to a user are not members of any audience: the people list shows
 * them only on request, and an audience is a list of people one can act on.
 *
 * A user's trait is the latest non-empty value it was given (identify calls;
 * for a company trait, the group calls of the user's company, which is the
 * group of their latest group call), read as text: "7", "true",
 * "2026-01-15 10:00:00". Operators say how to read it:
 *
 * - string: is, is_not compare exactly (values come from the values look-up);
 *   contains, does_not_contain ignore case, as a search box does; is_set,
 *   is_not_set: a non-empty value or none.
 * - stringArray: contains, does_not_contain: an element is the value. A
 *   single value (not a list) counts as a list of one.
 * - number: the text read as a number; between is inclusive (the second value
 *   is above the first: part 3 §5). is_numeric: it reads as a number;
 *   is_not_numeric: it is set and does not (bad data, not missing data).
 * - boolean: is_true, is_false; is and is_not with true or false. "true" and
 *   "false" in any case, as booleans or as text.
 * - date: on, not_on, before, since and between compare the day the value
 *   falls on in the organisation's time zone (a bare YYYY-MM-DD is that day
 *   itself; a time without an offset is UTC, as the ingest stores times).
 *   last, not_in_the_last, before_the_last and in_the_next compare with now,
 *   N hours, days, weeks or months back or ahead, counted on the
 *   organisation's calendar (a day across a daylight-saving change is 23 or 25
 *   hours; a month back from 31 March is the last day of February).
 *
 * Negative tests (is_not, does_not_contain, not_equal, not_between, not_on,
 * not_in_the_last, is false's opposite is_not true…) hold for users who lack
 * the trait: "plan is not pro" takes in those with no plan. This matches the
 * metric engine's audience traits (query/src/metrics/traits.ts).
 *
 * Actions count the user's events of one name (or of any of a feature's
 * events) from N units before now up to now, and compare the count; "at least
 * 1" is the default. A count below a value (less than 3, equals 0, not between)
 * holds for users who never did it.
 *
 * An audience that no longer exists, or a feature that no longer exists,
 * matches no one / counts no events: saved audiences that name it still
 * open (the editor labels it 'Unknown').
 */
export type TraitRead = 'text' | 'array'
export interface TraitRef {
  entity: 'user' | 'company'
  name: string
  read: TraitRead
}

/** A signed distance from now: { amount: -7, unit: 'day' } is 7 days ago on the organisation's calendar. */
export interface Shift {
  amount: number
  unit: DateUnit
}

export type Compare = '=' | '!=' | '>' | '>=' | '<' | '<='

export type TraitTest =
  | { test: 'is'; value: string; negate: boolean }
  | { test: 'contains'; value: string; negate: boolean }
  | { test: 'set'; negate: boolean }
  | { test: 'hasElement'; value: string; negate: boolean }
  | { test: 'number'; op: Compare; value: number }
  | { test: 'numberBetween'; from: number; to: number; negate: boolean }
  | { test: 'numeric'; negate: boolean }
  | { test: 'boolean'; value: boolean; negate: boolean }
  | { test: 'day'; op: '=' | '!=' | '<' | '>='; day: string }
  | { test: 'dayBetween'; from: string; to: string; negate: boolean }
  /** now + from ≤ the instant ≤ now + to; an open end is unbounded. */
  | { test: 'instant'; from?: Shift; to?: Shift; negate: boolean }

export interface ActionCount {
  /** The event names counted; none (a deleted feature) counts nothing. */
  events: string[]
  /** The window: from now + since up to now. */
  since: Shift
  /** For the result table's column header. */
  label: string
  compare: { op: Compare; value: number } | { op: 'between' | 'not_between'; from: number; to: number }
}

export type Condition =
  | { kind: 'trait'; trait: TraitRef; test: TraitTest }
  | { kind: 'action'; action: ActionCount }
  | { kind: 'and' | 'or'; of: Condition[] }
  | { kind: 'nobody' }

/** Filters that refer to each other, or nest too deep: a 400 on the filters. */
export class AudienceFilterError extends Error {
  constructor(
    message: string,
    readonly field = 'filters',
  ) {
    super(message)
  }
}

/** What planning reads from the metadata store. */
export interface PlanSources {
  /** The saved filters of audiences of the organisation (unknown ids left out). */
  audiences(ids: string[]): Promise<Array<{ id: string; filters: unknown }>>
  /** A feature's name and events, or undefined when it no longer exists. */
  feature(id: string): Promise<{ name: string; events: string[] } | undefined>
}

const COMPARE: Record<string, Compare> = {
  equals: '=',
  not_equal: '!=',
  greater_than: '>',
  greater_than_or_equal_to: '>=',
  less_than: '<',
  less_than_or_equal_to: '<=',
}
const DAY_OPS = { on: '=', not_on: '!=', before: '<', since: '>=' } as const

/** One match's condition; `audience` matches are resolved by planFilters. */
export function audienceTraitCondition(m: AudienceMatch): Condition | undefined {
  const type = matchTypeOf(m)
  const op = matchOperatorOf(m)
  if (!type || !op || type === 'audience' || m.kind === 'audience' || !m.trait) return undefined
  const ref = (read: TraitRead = 'text'): TraitRef => ({ entity: m.kind as 'user' | 'company', name: m.trait!, read })
  const cond = (test: TraitTest, read?: TraitRead): Condition => ({ kind: 'trait', trait: ref(read), test })
  const value = m.value
  switch (type) {
    case 'string':
      if (op === 'is_set' || op === 'is_not_set') return cond({ test: 'set', negate: op === 'is_not_set' })
      if (op === 'is' || op === 'is_not') return cond({ test: 'is', value: String(value), negate: op === 'is_not' })
      return cond({ test: 'contains', value: String(value), negate: op === 'does_not_contain' })
    case 'stringArray':
      return cond({ test: 'hasElement', value: String(value), negate: op === 'does_not_contain' }, 'array')
    case 'number':
      if (op === 'is_numeric' || op === 'is_not_numeric') return cond({ test: 'numeric', negate: op === 'is_not_numeric' })
      if (op === 'between' || op === 'not_between') return cond({ test: 'numberBetween', from: Number(m.value1), to: Number(m.value2), negate: op === 'not_between' })
      return cond({ test: 'number', op: COMPARE[op]!, value: Number(value) })
    case 'boolean':
      if (op === 'is_true' || op === 'is_false') return cond({ test: 'boolean', value: op === 'is_true', negate: false })
      return cond({ test: 'boolean', value: value === true, negate: op === 'is_not' })
    case 'date': {
      if (op in DAY_OPS) return cond({ test: 'day', op: DAY_OPS[op as keyof typeof DAY_OPS], day: String(value) })
      if (op === 'between' || op === 'not_between') return cond({ test: 'dayBetween', from: String(m.value1), to: String(m.value2), negate: op === 'not_between' })
      const n = Number(value)
      const unit = (m.unit ?? 'day') as DateUnit
      if (op === 'last') return cond({ test: 'instant', from: { amount: -n, unit }, to: { amount: 0, unit }, negate: false })
      if (op === 'not_in_the_last') return cond({ test: 'instant', from: { amount: -n, unit }, to: { amount: 0, unit }, negate: true })
      if (op === 'before_the_last') return cond({ test: 'instant', to: { amount: -n, unit }, negate: false })
      return cond({ test: 'instant', from: { amount: 0, unit }, to: { amount: n, unit }, negate: false })
    }
  }
}

function actionCompare(a: AudienceAction): ActionCount['compare'] {
  const op = a.occurrence_op as ActionOperator
  if (op === 'between' || op === 'not_between') return { op, from: Number(a.value1), to: Number(a.value2) }
  return { op: COMPARE[op]!, value: Number(a.value) }
}

const unitLabel = (n: number, unit: DateUnit) => `${n} ${unit}${n === 1 ? '' : 's'}`

/**
 * The condition of a whole set of filters: the matches joined by their
 * aggregation, and (and) every action. No filter at all: everyone.
 * `within` holds the audiences being resolved, outermost first: meeting one
 * again is a loop.
 */
export async function planFilters(filters: AudienceFilters, sources: PlanSources, within: string[] = []): Promise<Condition> {
  if (within.length > AUDIENCE_NESTING_MAX) throw new AudienceFilterError(AUDIENCE_ERRORS.tooDeep)
  const nestedIds = filters.matches.filter((m) => m.kind === 'audience' && m.audience_id).map((m) => m.audience_id!)
  for (const id of nestedIds) if (within.includes(id)) throw new AudienceFilterError(AUDIENCE_ERRORS.loop)
  const saved = new Map((await sources.audiences(nestedIds)).map((a) => [a.id, a.filters]))

  const matches: Condition[] = []
  for (const m of filters.matches) {
    if (m.kind !== 'audience') {
      const c = audienceTraitCondition(m)
      if (c) matches.push(c)
      continue
    }
    const stored = saved.get(m.audience_id!)
    // A saved filter set that no longer reads (written by an older version) is as good as unknown.
    const parsed = stored === undefined ? undefined : audienceFiltersSchema.safeParse(stored)
    matches.push(parsed?.success ? await planFilters(parsed.data, sources, [...within, m.audience_id!]) : { kind: 'nobody' })
  }

  const actions: Condition[] = []
  for (const a of filters.actions) {
    const target = a.kind === 'feature' ? await sources.feature(a.feature_id!) : { name: a.event_name!, events: [a.event_name!] }
    const n = Number(a.date_range.value)
    actions.push({
      kind: 'action',
      action: {
        events: target?.events ?? [],
        since: { amount: -n, unit: a.date_range.unit },
        label: `${target?.name ?? 'Unknown'} (last ${unitLabel(n, a.date_range.unit)})`,
        compare: actionCompare(a),
      },
    })
  }

  const parts: Condition[] = []
  if (matches.length) parts.push(matches.length === 1 ? matches[0]! : { kind: filters.match_aggregation, of: matches })
  parts.push(...actions)
  return parts.length === 1 ? parts[0]! : { kind: 'and', of: parts }
}

/** Every trait and action a condition reads, each once, in the order met: the query's columns. */
export function collect(c: Condition, out: { traits: TraitRef[]; actions: ActionCount[] } = { traits: [], actions: [] }) {
  switch (c.kind) {
    case 'trait':
      if (!out.traits.some((t) => t.entity === c.trait.entity && t.name === c.trait.name && t.read === c.trait.read)) out.traits.push(c.trait)
      break
    case 'action':
      if (!out.actions.includes(c.action)) out.actions.push(c.action)
      break
    case 'and':
    case 'or':
      for (const x of c.of) collect(x, out)
      break
  }
  return out
}
