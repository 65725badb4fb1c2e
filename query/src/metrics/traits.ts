import { chTime, type TRAIT_OPERATIONS } from '@fl0/contracts'
import type { z } from 'zod'
import type { audienceTraitSchema } from '@fl0/contracts'

/**
 * What an audience-trait filter means (contracts' TRAIT_OPERATIONS, part 3
 * §3's operators by trait type), decided before any SQL is printed.
 *
 * A member's trait is the latest value it was given (the newest identify
 * call that carries it for users, the newest group call for companies), read
 * as text: "7", "true", "2026-01-15". The operator says how to read it:
 *
 * - is, is_not: the text is (not) one of the values; booleans read "true" or
 *   "false". contains, does_not_contain: the text holds the value, ignoring
 *   case. is_set, is_not_set: it has a non-empty value or not.
 * - equals … less_than_or_equal_to, between, not_between: the text read as a
 *   number; between takes two values, ends included. is_numeric,
 *   is_not_numeric: it reads as a number, or is set and does not.
 * - is_true, is_false.
 * - on, not_on, before, since: the date in the organisation's zone against a
 *   day (YYYY-MM-DD); between and not_between with two days compare dates.
 *   last, not_in_the_last, before_the_last, in_the_next: against now, with a
 *   count and a unit (hour, day, week, month = 30 days; day by default),
 *   given as "7" or ["7", "week"].
 *
 * Negative tests (is_not, does_not_contain, not_equal, not_between, not_on,
 * not_in_the_last) hold for members who lack the trait: "plan is not pro" takes
 * in those with no plan. A filter missing its value is dropped, as the editor
 * drops it on save.
 */
type TraitInput = z.output<typeof audienceTraitSchema>
type TraitOperation = (typeof TRAIT_OPERATIONS)[number]

export type TraitCondition = { trait: string } & (
  | { test: 'in'; values: string[]; negate: boolean }
  | { test: 'contains'; value: string; negate: boolean }
  | { test: 'set'; negate: boolean }
  | { test: 'compare'; op: '=' | '!=' | '>' | '>=' | '<' | '<='; value: number }
  | { test: 'between'; from: number; to: number; negate: boolean }
  | { test: 'numeric'; negate: boolean }
  | { test: 'boolean'; value: boolean }
  | { test: 'day'; op: '=' | '!=' | '<' | '>='; day: string }
  | { test: 'dayBetween'; from: string; to: string; negate: boolean }
  /** ClickHouse times in UTC; either end may be open. */
  | { test: 'instant'; from?: string; to?: string; negate: boolean }
)

const COMPARE: Partial<Record<TraitOperation, '=' | '!=' | '>' | '>=' | '<' | '<='>> = {
  equals: '=',
  not_equal: '!=',
  greater_than: '>',
  greater_than_or_equal_to: '>=',
  less_than: '<',
  less_than_or_equal_to: '<=',
}
const DAY_OPS: Partial<Record<TraitOperation, '=' | '!=' | '<' | '>='>> = { on: '=', not_on: '!=', before: '<', since: '>=' }
const UNIT_MS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const

/** undefined: dropped (no value); error: the value cannot mean what the operator asks. */
export function resolveTrait(t: TraitInput, now: Date): TraitCondition | undefined | { error: string } {
  const trait = t.name
  const values = (Array.isArray(t.value) ? t.value : t.value === undefined ? [] : [t.value]).map((v) => v.trim()).filter(Boolean)
  const op = t.operation
  switch (op) {
    case 'is_set':
    case 'is_not_set':
      return { trait, test: 'set', negate: op === 'is_not_set' }
    case 'is_numeric':
    case 'is_not_numeric':
      return { trait, test: 'numeric', negate: op === 'is_not_numeric' }
    case 'is_true':
    case 'is_false':
      return { trait, test: 'boolean', value: op === 'is_true' }
  }
  if (values.length === 0) return undefined
  const first = values[0]!
  switch (op) {
    case 'is':
    case 'is_not':
      return { trait, test: 'in', values, negate: op === 'is_not' }
    case 'contains':
    case 'does_not_contain':
      return { trait, test: 'contains', value: first, negate: op === 'does_not_contain' }
    case 'between':
    case 'not_between': {
      if (values.length < 2) return { error: 'Two values must be given' }
      const negate = op === 'not_between'
      const [a, b] = [values[0]!, values[1]!]
      if (isNumber(a) && isNumber(b)) {
        return Number(a) <= Number(b) ? { trait, test: 'between', from: Number(a), to: Number(b), negate } : { error: 'The first value must not be greater than the second' }
      }
      const [da, db] = [dayOf(a), dayOf(b)]
      if (!da || !db) return { error: 'Values must be two numbers or two dates' }
      return da <= db ? { trait, test: 'dayBetween', from: da, to: db, negate } : { error: 'The first value must not be greater than the second' }
    }
    case 'last':
    case 'not_in_the_last':
    case 'before_the_last':
    case 'in_the_next': {
      const count = Number(first)
      const unit = (values[1] ?? 'day') as keyof typeof UNIT_MS
      if (!isNumber(first) || count <= 0) return { error: 'Value must be a positive number' }
      if (!(unit in UNIT_MS)) return { error: 'Unit must be hour, day, week or month' }
      const span = count * UNIT_MS[unit]
      const at = (ms: number) => chTime(new Date(ms))
      const t0 = now.getTime()
      if (op === 'last') return { trait, test: 'instant', from: at(t0 - span), to: at(t0), negate: false }
      if (op === 'not_in_the_last') return { trait, test: 'instant', from: at(t0 - span), to: at(t0), negate: true }
      if (op === 'before_the_last') return { trait, test: 'instant', to: at(t0 - span), negate: false }
      return { trait, test: 'instant', from: at(t0), to: at(t0 + span), negate: false }
    }
  }
  const compare = COMPARE[op]
  if (compare) return isNumber(first) ? { trait, test: 'compare', op: compare, value: Number(first) } : { error: 'Value must be a number' }
  const dayOp = DAY_OPS[op]
  if (dayOp) {
    const day = dayOf(first)
    return day ? { trait, test: 'day', op: dayOp, day } : { error: 'Value must be a date' }
  }
  return { error: 'Unknown operation' }
}

const isNumber = (s: string) => s.trim() !== '' && Number.isFinite(Number(s))

/** YYYY-MM-DD from "2026-01-15" or an ISO time ("2026-01-15T10:00:00Z" is that day as written). */
function dayOf(s: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(s)
  if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`))) return undefined
  return new Date(`${m[1]}T00:00:00Z`).toISOString().slice(0, 10) === m[1] ? m[1] : undefined
}
