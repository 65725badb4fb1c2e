import type { FieldError } from '../../api/errors.ts'
import { GENERIC_ERROR } from '../../constants.ts'

/** What a form does with a list of errors (part 1 §8). */
export interface DistributedErrors {
  /** Shown beside their fields, one per field (the first wins). */
  fields: Record<string, string>
  /** The field to focus: the first named error that matched a field. */
  focus?: string
  /** Shown as error snackbars: the unnamed ones first, then named ones no field matched. */
  snackbars: string[]
}

/**
 * Named errors that match a field on screen go beside it, the first focused;
 * the rest become error snackbars, unnamed ones first; and with no error at all
 * the fallback 'An error has occurred' is shown.
 */
export function distributeErrors(errors: FieldError[], fieldNames: ReadonlySet<string>): DistributedErrors {
  const fields: Record<string, string> = {}
  const unnamed: string[] = []
  const unmatched: string[] = []
  let focus: string | undefined
  for (const error of errors) {
    if (!error.name) unnamed.push(error.message)
    else if (fieldNames.has(error.name)) {
      if (error.name in fields) continue
      fields[error.name] = error.message
      focus ??= error.name
    } else unmatched.push(error.message)
  }
  const snackbars = [...unnamed, ...unmatched]
  if (snackbars.length === 0 && Object.keys(fields).length === 0) snackbars.push(GENERIC_ERROR)
  return { fields, focus, snackbars }
}

/** The generic required rule (part 1 §5): a missing field reported under its name. */
export const MUST_BE_PROVIDED = 'must be provided'

export function requiredErrors(values: Record<string, unknown>, names: readonly string[]): FieldError[] {
  return names
    .filter((name) => {
      const v = values[name]
      return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)
    })
    .map((name) => ({ name, message: MUST_BE_PROVIDED }))
}

/** Keeps the first error of each field (part 1 §5: deduplicated by field name). */
export function dedupeByField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    if (seen.has(e.name)) return false
    seen.add(e.name)
    return true
  })
}
