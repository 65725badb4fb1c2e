import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorBody, type FieldError } from '@fl0/contracts'
import type { ApiLogger } from '../logger.ts'

/**
 * An HTTPException that carries field errors. Handlers throw it; `onApiError`
 * turns it (and any HTTPException) into the one error body of contracts/errors.ts.
 */
export class ApiError extends HTTPException {
  readonly errors: FieldError[]
  /** A 429's or 503's Retry-After, in seconds. */
  readonly retryAfterSeconds: number | undefined
  /** Ends the connection after the answer: the request's body, past its limit, is not read. */
  readonly closeConnection: boolean
  constructor(status: ContentfulStatusCode, message: string, errors: FieldError[] = [], options: { retryAfterSeconds?: number; closeConnection?: boolean } = {}) {
    super(status, { message })
    this.errors = errors
    this.retryAfterSeconds = options.retryAfterSeconds
    this.closeConnection = options.closeConnection ?? false
  }
}

/** 400 naming one field: the message sums up the field's error, for clients that show one line. */
export const fieldError = (name: string, message: string, status: ContentfulStatusCode = 400) =>
  new ApiError(status, message, [{ name, message }])

/**
 * An error answered before a large request body was read (an upload refused
 * by the guard, say): `Connection: close`, so that Node ends the connection
 * after the answer instead of reading the rest (up to gigabytes) to reuse it.
 * A small body is left to Node to read and drop: closing a socket with unread
 * bytes in it resets the connection, and the client may lose the answer.
 */
export function closeIfBodyUnread(c: Context) {
  if (!c.req.raw.body || c.req.raw.bodyUsed) return
  const length = Number(c.req.header('content-length') ?? NaN)
  if (!(length <= SMALL_BODY_BYTES)) c.header('Connection', 'close')
}

const SMALL_BODY_BYTES = 64 * 1024

export const unauthorized = () => new ApiError(401, 'Not signed in')
export const forbidden = (message = 'You are not allowed to do this') => new ApiError(403, message)
export const notFound = (message = 'Not found') => new ApiError(404, message)

/**
 * PostgreSQL's (and PGlite's) refusal of the NUL character: 22021 for text
 * ('invalid byte sequence for encoding "UTF8": 0x00'), 22P05 for \u0000 in
 * jsonb ('unsupported Unicode escape sequence').
 */
const NUL_REFUSED = new Set(['22021', '22P05'])
export const NUL_NOT_STORED = 'The request holds the NUL character (\\u0000), which cannot be stored'

export function createErrorHandler(logger: ApiLogger) {
  return function onApiError(err: Error, c: Context) {
    closeIfBodyUnread(c)
    if (err instanceof ApiError) {
      if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds))
      if (err.closeConnection) c.header('Connection', 'close')
      return c.json(errorBody(err.message, err.errors), err.status)
    }
    if (err instanceof HTTPException) {
      // Hono's own (malformed JSON from the validator, a body too large): keep the status, use the one body.
      const status = err.status as ContentfulStatusCode
      return c.json(errorBody(err.message || 'Bad request'), status)
    }
    if (NUL_REFUSED.has((err as { code?: unknown }).code as string)) {
      // http/nul.ts refuses NUL in what a request says; one that got past it is still the request's, not a crash.
      logger.warn({ err, path: c.req.path, method: c.req.method }, 'api: NUL reached the metadata store')
      return c.json(errorBody(NUL_NOT_STORED), 400)
    }
    logger.error({ err, path: c.req.path, method: c.req.method }, 'api: unhandled error')
    return c.json(errorBody('An error has occurred'), 500)
  }
}
