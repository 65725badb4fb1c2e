import { isNumeric, parseDay, type AudienceTraitType, type DateUnit, type TraitOperation } from '@fl0/contracts'
import type { Params } from '../metrics/sql/params.ts'

/**
 * What a trait filter means, once for every path that filters people by a
 * trait: an audience's matches (audiences/plan.ts), a metric's audience traits
 * (metrics/traits.ts) and so a scoring model's labels, and a scoring model's
 * excluded audience. The words come from contracts/src/trait-filters.ts; here
 * they get their meaning (resolveTraitFilter) and their SQL (traitTestSql).
 *
 * A person's trait is the latest non-empty value it was given, read as text:
 * "7", "true", "2026-01-15 10:00:00".
 *
 * - string: is, is_not compare exactly (with several values: is one of them);
 *   contains, does_not_contain ignore case, as a search box does; is_set,
 *   is_not_set: a non-empty value or none.
 * - stringArray: contains, does_not_contain: an element is the value. A single
 *   value (not a list) counts as a list of one.
 * - number: the text read as a number; between is inclusive. is_numeric: it
 *   reads as a number; is_not_numeric: it is set and does not.
 * - boolean: is_true, is_false; is and is_not with true or false. "true" and
 *   "false" in any case.
 * - date: a bare day (YYYY-MM-DD) is that day in the organisation's time zone;
 *   a time without an offset is UTC, as the ingest stores times. on, not_on,
 *   before, since and between compare the day the value falls on in the
 *   organisation's zone. last, not_in_the_last, before_the_last and
 *   in_the_next compare with now, N hours, days, weeks or months back or
 *   ahead, on the organisation's calendar: a day across a daylight-saving
 *   change is 23 or 25 hours, a month back from 31 March is the last day of
 *   February (not 30 × 24 hours), as users of an analytics tool read "the
 *   last month".
 *
 * Negative tests (is_not, does_not_contain, not_equal, not_between, not_on,
 * not_in_the_last) hold for people who lack the trait: "plan is not pro"
 * takes in those with no plan.
 */

/** A signed distance from now: { amount: -7, unit: 'day' } is 7 days ago on the organisation's calendar. */
export interface Shift {
  amount: number
  unit: DateUnit
}

export type Compare = '=' | '!=' | '>' | '>=' | '<' | '<='

export type TraitTest =
  | { test: 'is'; values: string[]; negate: boolean }
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

/** A trait filter as every path states it: its operator, its values as text, a unit for relative dates, and its type when the editor knows it. */
interface TraitFilter {
  operation: TraitOperation
  values: string[]
  unit?: DateUnit
  /** Known for an audience's matches; a metric's traits leave it out, and their values tell (two numbers or two days for between). */
  type?: AudienceTraitType
}

export const COMPARES: Partial<Record<TraitOperation, Compare>> = {
  equals: '=',
  not_equal: '!=',
  greater_than: '>',
  greater_than_or_equal_to: '>=',
  less_than: '<',
  less_than_or_equal_to: '<=',
}
const DAY_OPS: Partial<Record<TraitOperation, '=' | '!=' | '<' | '>='>> = { on: '=', not_on: '!=', before: '<', since: '>=' }

const TRAIT_FILTER_ERRORS = {
  twoValues: 'Two values must be given',
  order: 'The first value must not be greater than the second',
  numbersOrDates: 'Values must be two numbers or two dates',
  notNegative: 'Value must not be negative',
  number: 'Value must be a number',
  date: 'Value must be a date',
} as const

/** undefined: dropped (no value given, as the editors drop it on save); error: the value cannot mean what the operator asks. */
export function resolveTraitFilter(f: TraitFilter): TraitTest | undefined | { error: string } {
  const values = f.values.map((v) => v.trim()).filter(Boolean)
  const op = f.operation
  switch (op) {
    case 'is_set':
    case 'is_not_set':
      return { test: 'set', negate: op === 'is_not_set' }
    case 'is_numeric':
    case 'is_not_numeric':
      return { test: 'numeric', negate: op === 'is_not_numeric' }
    case 'is_true':
    case 'is_false':
      return { test: 'boolean', value: op === 'is_true', negate: false }
  }
  if (values.length === 0) return undefined
  const first = values[0]!
  switch (op) {
    case 'is':
    case 'is_not':
      if (f.type === 'boolean') return { test: 'boolean', value: first.toLowerCase() === 'true', negate: op === 'is_not' }
      return { test: 'is', values, negate: op === 'is_not' }
    case 'contains':
    case 'does_not_contain':
      return f.type === 'stringArray' ? { test: 'hasElement', value: first, negate: op === 'does_not_contain' } : { test: 'contains', value: first, negate: op === 'does_not_contain' }
    case 'between':
    case 'not_between': {
      if (values.length < 2) return { error: TRAIT_FILTER_ERRORS.twoValues }
      const negate = op === 'not_between'
      const [a, b] = [values[0]!, values[1]!]
      if (f.type !== 'date' && isNumeric(a) && isNumeric(b)) {
        return Number(a) <= Number(b) ? { test: 'numberBetween', from: Number(a), to: Number(b), negate } : { error: TRAIT_FILTER_ERRORS.order }
      }
      const [da, db] = [parseDay(a), parseDay(b)]
      if (!da || !db) return { error: TRAIT_FILTER_ERRORS.numbersOrDates }
      return da <= db ? { test: 'dayBetween', from: da, to: db, negate } : { error: TRAIT_FILTER_ERRORS.order }
    }
    case 'last':
    case 'not_in_the_last':
    case 'before_the_last':
    case 'in_the_next': {
      const n = Number(first)
      // 0 is allowed: "in the last 0 days" is from now to now (the audience editor can say it).
      if (!isNumeric(first) || n < 0) return { error: TRAIT_FILTER_ERRORS.notNegative }
      const unit = f.unit ?? 'day'
      if (op === 'last') return { test: 'instant', from: { amount: -n, unit }, to: { amount: 0, unit }, negate: false }
      if (op === 'not_in_the_last') return { test: 'instant', from: { amount: -n, unit }, to: { amount: 0, unit }, negate: true }
      if (op === 'before_the_last') return { test: 'instant', to: { amount: -n, unit }, negate: false }
      return { test: 'instant', from: { amount: 0, unit }, to: { amount: n, unit }, negate: false }
    }
  }
  const compare = COMPARES[op]
  if (compare) return isNumeric(first) ? { test: 'number', op: compare, value: Number(first) } : { error: TRAIT_FILTER_ERRORS.number }
  const dayOp = DAY_OPS[op]
  if (dayOp) {
    const day = parseDay(first)
    return day ? { test: 'day', op: dayOp, day } : { error: TRAIT_FILTER_ERRORS.date }
  }
  return undefined
}

/** Where a trait test is printed: bound values, and placeholders of now (DateTime64 UTC) and of the organisation's zone. */
export interface TraitSqlContext {
  p: Params
  now: string
  tz: string
}

/** now moved by a shift: hours are hours; days, weeks and months are the organisation's calendar's. */
export function shifted(ctx: TraitSqlContext, s: Shift): string {
  if (s.amount === 0) return ctx.now
  const n = ctx.p.bind('Float64', s.amount)
  if (s.unit === 'hour') return `addHours(${ctx.now}, toInt64(${n}))`
  const fn = { day: 'addDays', week: 'addWeeks', month: 'addMonths' }[s.unit]
  return `${fn}(toTimeZone(${ctx.now}, ${ctx.tz}), toInt64(${n}))`
}

/** A trait's text as an instant: a bare day starts at midnight in the organisation's zone; a time without an offset is UTC; NULL when it is no date. */
const instantOf = (t: string, tz: string) => `if(length(${t}) = 10, parseDateTime64BestEffortOrNull(${t}, 3, ${tz}), parseDateTime64BestEffortOrNull(${t}, 3, 'UTC'))`

const orDefault = (test: string, holdsWhenMissing: boolean) => `ifNull(${test}, ${holdsWhenMissing ? 1 : 0})`
const not = (test: string, negate: boolean) => (negate ? `NOT (${test})` : test)

/** Syntax only: a trait test on `col` (the person's latest value as text, "" when never given; for hasElement, its elements). */
export function traitTestSql(ctx: TraitSqlContext, col: string, t: TraitTest): string {
  const { p } = ctx
  const number = `toFloat64OrNull(${col})`
  switch (t.test) {
    case 'is':
      return t.values.length === 1 ? `${col} ${t.negate ? '!=' : '='} ${p.bind('String', t.values[0])}` : `${col} ${t.negate ? 'NOT IN' : 'IN'} ${p.bind('Array(String)', t.values)}`
    case 'contains':
      return `positionCaseInsensitiveUTF8(${col}, ${p.bind('String', t.value)}) ${t.negate ? '=' : '>'} 0`
    case 'set':
      return `${col} ${t.negate ? '=' : '!='} ''`
    case 'hasElement':
      return not(`has(${col}, ${p.bind('String', t.value)})`, t.negate)
    case 'number':
      // not_equal holds for people without a number there; the others need one.
      return orDefault(`${number} ${t.op} ${p.bind('Float64', t.value)}`, t.op === '!=')
    case 'numberBetween':
      return not(orDefault(`${number} BETWEEN ${p.bind('Float64', t.from)} AND ${p.bind('Float64', t.to)}`, false), t.negate)
    case 'numeric':
      return t.negate ? `(${col} != '' AND isNull(${number}))` : `isNotNull(${number})`
    case 'boolean':
      return `lowerUTF8(${col}) ${t.negate ? '!=' : '='} '${t.value ? 'true' : 'false'}'`
    case 'day': {
      const day = `toDate(${instantOf(col, ctx.tz)}, ${ctx.tz})`
      return orDefault(`${day} ${t.op} ${p.bind('Date', t.day)}`, t.op === '!=')
    }
    case 'dayBetween': {
      const day = `toDate(${instantOf(col, ctx.tz)}, ${ctx.tz})`
      return not(orDefault(`${day} BETWEEN ${p.bind('Date', t.from)} AND ${p.bind('Date', t.to)}`, false), t.negate)
    }
    case 'instant': {
      const at = instantOf(col, ctx.tz)
      const parts = [t.from && `${at} >= ${shifted(ctx, t.from)}`, t.to && `${at} <= ${shifted(ctx, t.to)}`].filter(Boolean)
      return not(orDefault(parts.join(' AND '), false), t.negate)
    }
  }
}
