import type { z } from 'zod'

/**
 * The one error body every fl0 endpoint answers with, and the one the dashboard's
 * forms read: `errors` name the field (dotted path) and say the rule; `message`
 * sums it up for clients that show one line.
 */
export interface FieldError {
  name: string
  message: string
}

export interface ErrorBody {
  success: false
  message: string
  errors: FieldError[]
}

export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  const parts = path.map((p) => String(p))
  return [prefix, ...parts].filter(Boolean).join('.')
}

/** Turns zod issues into field errors, one per field (the first rule broken wins). */
export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const seen = new Set<string>()
  const out: FieldError[] = []
  for (const issue of error.issues) {
    const name = fieldPath(issue.path, prefix)
    if (seen.has(name)) continue
    seen.add(name)
    out.push({ name, message: issue.message })
  }
  return out
}

export function errorBody(message: string, errors: FieldError[] = []): ErrorBody {
  return { success: false, message, errors }
}
