import type { z } from 'zod'
import { AUDIENCE_ERRORS, DATE_UNITS, traitValueKind, type audienceTraitSchema, type DateUnit } from '@fl0/contracts'
import { resolveTraitFilter, type TraitTest } from '../filters/traits.ts'

/**
 * A metric's audience traits (part 2 §4: the audience's trait filters): each
 * means what the same filter means in an audience (filters/traits.ts), read
 * from the metric's form: the value as text, a list for is / is not and for
 * between, and for relative dates "7" or ["7", "week"] (day by default).
 */
type TraitInput = z.output<typeof audienceTraitSchema>

export interface TraitCondition {
  trait: string
  test: TraitTest
}

/** undefined: dropped (no value, as the editor drops it on save); error: the value cannot mean what the operator asks. */
export function resolveTrait(t: TraitInput): TraitCondition | undefined | { error: string } {
  const values = (Array.isArray(t.value) ? t.value : t.value === undefined ? [] : [t.value]).map((v) => v.trim()).filter(Boolean)
  const relative = traitValueKind(t.operation) === 'relative'
  const unit = relative ? (values[1] ?? 'day') : undefined
  if (relative && values.length > 0 && !(Number(values[0]) > 0)) return { error: 'Value must be a positive number' } // as the metric editor has always said
  if (unit !== undefined && !(DATE_UNITS as readonly string[]).includes(unit)) return { error: AUDIENCE_ERRORS.unit }
  const test = resolveTraitFilter({ operation: t.operation, values: relative ? values.slice(0, 1) : values, unit: unit as DateUnit | undefined })
  if (test === undefined || 'error' in test) return test
  return { trait: t.name, test }
}
