import type { FieldError } from '@fl0/contracts/errors'
import { GENERIC_ERROR } from '../constants.ts'
import { DroppedError } from './queue.ts'

export type { FieldError }

/** A non-2xx answer, with the error body fl0 always sends (contracts/src/errors.ts). */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message)
  }
}

/**
 * Aborted (a refetch replaced the call, or the screen went away) or dropped
 * from the queue: the caller asked for it, so nothing is shown (part 1 §8).
 */
export function isSilentError(error: unknown): boolean {
  if (error instanceof DroppedError) return true
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'AbortError'
}

/** The error list a failure carries: its `errors`, else its `message` as one unnamed error. */
export function serverErrors(error: unknown): FieldError[] {
  if (error instanceof ApiError) {
    if (error.errors.length > 0) return error.errors.map((e) => ({ name: e.name ?? '', message: e.message }))
    return error.message ? [{ name: '', message: error.message }] : []
  }
  if (error instanceof Error && error.message) return [{ name: '', message: error.message }]
  return []
}

/** One line for a failure: the server's message, else the error's, else the fallback. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return GENERIC_ERROR
}
