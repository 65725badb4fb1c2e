import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorBody, type FieldError } from '@fl0/contracts'

/**
 * Ingest's error body: fl0's own (`success`, `message`, `errors` naming each
 * field and rule) with a `code` beside it. Segment's and RudderStack's Python
 * libraries read `code` and `message` from any error body
 * (`APIError(status, payload['code'], payload['message'])`), and a body
 * without `code` crashed their error handling instead of reporting it.
 */
export function ingestError(c: Context, status: ContentfulStatusCode, code: string, message: string, errors: FieldError[] = []) {
  return c.json({ ...errorBody(message, errors), code }, status)
}
