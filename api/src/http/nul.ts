import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { VALUE_MESSAGES, type FieldError } from '@fl0/contracts'
import { ApiError } from './errors.ts'

/**
 * The NUL character (\u0000) at the API's edge. PostgreSQL (and PGlite) refuse
 * it in every text value, so an id, a name or a search term carrying it into a
 * metadata query failed there, as a 500, whichever of some thirty routes it
 * reached. Rather than each route and each schema guarding against it, two
 * middlewares on /api/* and /api-v2/* turn it away before any route runs, with
 * a 400 that names the field and the rule (contracts' VALUE_MESSAGES.nul, the
 * ingest's wording): nothing is read from or written to the store.
 *
 * - `refuseNulInAddress`, ahead of the guard: the path (named by the route's
 *   own parameter, such as `featureId`, or `organization`, which the guard
 *   itself looks up) and the query string (named by the parameter). It reads
 *   no body, so it costs nothing on the common path.
 * - `refuseNulInJsonBody`, just after the guard (so a caller without a
 *   session never gets a body read for it): a JSON body, each string and key
 *   named by its dotted path (`featureSelections.excludedEvents.0`), as the
 *   schemas name fields. The text is only parsed when it holds the escape
 *   `\u0000` (a JSON text cannot hold a raw NUL); malformed JSON is left to
 *   the validator, which says so. Other bodies (multipart uploads: files)
 *   are the route's business: admin/upload.ts refuses a NUL in a file's name.
 *
 * Whatever still reaches the store with a NUL in it (a value made on the
 * server from something that was not checked here) is answered 400 by the
 * error handler (errors.ts) instead of a 500.
 */
export const NUL_RULE = VALUE_MESSAGES.nul

const NUL = '\u0000'
/** At most this many fields are named in one answer. */
const MAX_ERRORS = 100

/** The 400: the message names the first field, each error says the rule. */
export function nulError(errors: FieldError[]): ApiError {
  return new ApiError(400, `${errors[0]!.name} ${NUL_RULE}`, errors)
}

/** A key that itself holds NUL is shown with the character escaped, so the name stays printable. */
const shown = (key: string) => key.replaceAll(NUL, '\\u0000')

export const refuseNulInAddress: MiddlewareHandler = async function refuseNulInAddress(c, next) {
  const errors = [...nulInPath(c), ...nulInQuery(c)]
  if (errors.length > 0) throw nulError(errors.slice(0, MAX_ERRORS))
  return next()
}

export const refuseNulInJsonBody: MiddlewareHandler = async function refuseNulInJsonBody(c, next) {
  if (isJson(c.req.header('content-type'))) {
    // Read through Hono's cache: the route's validator reads the same text again.
    const text = await c.req.text()
    if (text.includes('\\u0000')) {
      const errors = nulInJson(text)
      if (errors.length > 0) throw nulError(errors)
    }
  }
  return next()
}

/** The media types hono/validator reads as JSON (application/json, application/*+json). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i
const isJson = (contentType: string | undefined) => !!contentType && JSON_TYPE.test(contentType.split(';')[0]!.trim())

/**
 * Each path segment holding NUL, named after the parameter the matched route
 * gives that segment (`/api-v2/orgs/:organization/features/:featureId`);
 * `path` when no route has a parameter there (a path no route serves).
 * c.req.path is decoded (%00 is NUL) except for %2F, so its segments are the
 * router's segments.
 */
function nulInPath(c: Context): FieldError[] {
  const path = c.req.path
  if (!path.includes(NUL)) return []
  const segments = path.split('/')
  const patterns = matchedRoutes(c).map((r) => r.path.split('/'))
  const errors: FieldError[] = []
  segments.forEach((segment, i) => {
    if (!segment.includes(NUL)) return
    const param = patterns.map((p) => p[i]).find((s) => s?.startsWith(':'))
    // ':name', ':name?' or ':name{regex}': the name alone.
    const name = param ? param.slice(1).replace(/\{.*$/, '').replace(/\?$/, '') : 'path'
    if (!errors.some((e) => e.name === name)) errors.push({ name, message: NUL_RULE })
  })
  return errors
}

/** Each query parameter whose name or value holds NUL, named by the parameter. */
function nulInQuery(c: Context): FieldError[] {
  if (!c.req.url.includes('?')) return []
  const errors: FieldError[] = []
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (key.includes(NUL) || values.some((v) => v.includes(NUL))) errors.push({ name: shown(key), message: NUL_RULE })
  }
  return errors
}

/**
 * Every string and key of a JSON text that holds NUL, by dotted path (`body`
 * for a top-level string), in the order they appear; none when the text is
 * not JSON. Walked with a stack of its own, so no nesting is too deep for it.
 */
function nulInJson(text: string): FieldError[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  const errors: FieldError[] = []
  // badKey: the key naming this value holds NUL (the value is not looked into).
  type Item = { value: unknown; path: string; badKey?: boolean }
  const stack: Item[] = [{ value, path: '' }]
  while (stack.length > 0 && errors.length < MAX_ERRORS) {
    const { value: v, path, badKey } = stack.pop()!
    if (badKey || (typeof v === 'string' && v.includes(NUL))) errors.push({ name: path || 'body', message: NUL_RULE })
    else if (v !== null && typeof v === 'object') {
      const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.entries(v)
      // Reversed onto the stack, so fields come out in the order they were written.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!
        stack.push({ value: child, path: path ? `${path}.${shown(key)}` : shown(key), badKey: key.includes(NUL) })
      }
    }
  }
  return errors.slice(0, MAX_ERRORS)
}
