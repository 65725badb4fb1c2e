import { validator } from 'hono/validator'
import type { z } from 'zod'
import { toFieldErrors } from '@fl0/contracts'
import { ApiError } from './errors.ts'

/**
 * Validates the JSON body at the edge with a contracts schema and hands the
 * handler the parsed value (c.req.valid('json')); a failure is a 400 with one
 * field error per field, named as the form names them.
 */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return validator('json', (value: unknown): z.output<S> => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ApiError(400, 'The request body must be a JSON object', [{ name: 'body', message: 'The request body must be a JSON object' }])
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      const errors = toFieldErrors(parsed.error)
      throw new ApiError(400, errors[0]?.message ?? 'Invalid request', errors)
    }
    return parsed.data
  })
}
