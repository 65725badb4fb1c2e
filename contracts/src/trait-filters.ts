/**
 * The trait-filter vocabulary, once: trait types, the operators each type
 * takes (part 3 §3's table), and the units of relative dates. An audience's
 * matches, a metric's audience traits and a scoring model's excluded audience
 * all filter people with these words, and the query layer
 * (query/src/filters/traits.ts) gives each one meaning, the same everywhere.
 */
export const TRAIT_TYPES = ['string', 'stringArray', 'number', 'boolean', 'date'] as const
export type AudienceTraitType = (typeof TRAIT_TYPES)[number]

/** Operators by trait type (part 3 §3's table). Booleans also take is_true and is_false, as §3 names them. */
export const OPERATORS = {
  string: ['is', 'is_not', 'contains', 'does_not_contain', 'is_set', 'is_not_set'],
  stringArray: ['contains', 'does_not_contain'],
  number: ['equals', 'not_equal', 'greater_than', 'greater_than_or_equal_to', 'less_than', 'less_than_or_equal_to', 'between', 'not_between', 'is_numeric', 'is_not_numeric'],
  boolean: ['is', 'is_not', 'is_true', 'is_false'],
  date: ['on', 'not_on', 'before', 'since', 'between', 'not_between', 'last', 'not_in_the_last', 'before_the_last', 'in_the_next'],
  audience: ['is'],
} as const satisfies Record<AudienceTraitType | 'audience', readonly string[]>

/** Every trait operator of every type, each once: what a metric's audience trait may say (its type is not given). */
export const TRAIT_OPERATIONS = [...new Set(TRAIT_TYPES.flatMap((t) => OPERATORS[t]))] as unknown as readonly [TraitOperation, ...TraitOperation[]]
export type TraitOperation = (typeof OPERATORS)[AudienceTraitType][number]

/** Relative dates count hours, or days, weeks and months of the organisation's calendar in its time zone. */
export const DATE_UNITS = ['hour', 'day', 'week', 'month'] as const
export type DateUnit = (typeof DATE_UNITS)[number]

/** Operators that take no value. */
export const NO_VALUE_OPERATIONS = ['is_set', 'is_not_set', 'is_numeric', 'is_not_numeric', 'is_true', 'is_false'] as const satisfies readonly TraitOperation[]
/** Operators that take two values (ends included). */
export const RANGE_OPERATIONS = ['between', 'not_between'] as const satisfies readonly TraitOperation[]
/** Operators that take a count and a unit, back or ahead from now. */
export const RELATIVE_DATE_OPERATIONS = ['last', 'not_in_the_last', 'before_the_last', 'in_the_next'] as const satisfies readonly TraitOperation[]

/** A value as text that reads as a finite number ("7", "-2.5"; not "" or "7 days"). */
export const isNumeric = (s: string) => s.trim() !== '' && Number.isFinite(Number(s))

/** What an operator takes, whatever the trait's type: nothing, one value, two (a range), or a count with a unit. */
export type TraitValueKind = 'none' | 'one' | 'range' | 'relative'

export function traitValueKind(operation: string): TraitValueKind {
  if ((NO_VALUE_OPERATIONS as readonly string[]).includes(operation)) return 'none'
  if ((RANGE_OPERATIONS as readonly string[]).includes(operation)) return 'range'
  if ((RELATIVE_DATE_OPERATIONS as readonly string[]).includes(operation)) return 'relative'
  return 'one'
}

/**
 * The type an operator implies when the trait's own is unknown (or lacks the
 * operator): a boolean for is_true, a number for greater_than, a date for
 * before; a range is numbers when both ends read as numbers, else days; a
 * text otherwise.
 */
export function impliedTraitType(operation: string, values: readonly string[] = []): AudienceTraitType {
  if (operation === 'is_true' || operation === 'is_false') return 'boolean'
  if ((RANGE_OPERATIONS as readonly string[]).includes(operation)) return values.every(isNumeric) ? 'number' : 'date'
  if ((OPERATORS.number as readonly string[]).includes(operation)) return 'number'
  if ((OPERATORS.date as readonly string[]).includes(operation)) return 'date'
  return 'string'
}
