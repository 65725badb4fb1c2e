import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { ApiError } from './errors.ts'

/**
 * How large a request body /api and /api-v2 read, by what the route takes.
 * The largest JSON any screen sends (a report's layout, a metric with its
 * filters, a lexicon mapping) is a few kilobytes; sign-in calls carry an
 * e-mail and a password. Uploads (the admin's imports) are files, streamed
 * to their job as they arrive, never held whole: their bound is their own.
 */
export const BODY_LIMITS = {
  /** /api/auth/*, /api/sign-in, /api/sign-out: an e-mail and a password, or an ID token (up to 16 KB, contracts' signInSchema). */
  auth: 32 * 1024,
  /** Every other JSON call. */
  json: 1024 * 1024,
} as const

export type BodyKind = keyof typeof BODY_LIMITS | 'upload'

const AUTH_PATH = /^\/api\/(auth\/|sign-in$|sign-out$)/
const UPLOAD_PATH = /^\/api-v2\/admin\/(import-[a-z-]+|universal-table\/import)$/

export function bodyKindOf(method: string, path: string): BodyKind {
  if (method === 'POST' && UPLOAD_PATH.test(path)) return 'upload'
  return AUTH_PATH.test(path) ? 'auth' : 'json'
}

const shown = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`)

/** The 413 of a body past its limit, naming the field `body`; the connection closes after it, its body unread. */
export const bodyTooLarge = (limit: number) => {
  const message = `The request body is larger than ${shown(limit)}, the most this call takes`
  return new ApiError(413, message, [{ name: 'body', message }], { closeConnection: true })
}

/** How long a body other than an upload may take to arrive whole (FL0_BODY_TIMEOUT_SECONDS): a real client sends a megabyte in far less. */
export const DEFAULT_BODY_DEADLINE_MS = 60_000

/**
 * Before the guard, reading nothing: a body whose Content-Length is above its
 * call's limit is a 413 before a byte of it is read; and a body other than an
 * upload must arrive whole within `bodyDeadlineMs`, or its connection is cut
 * (a slowloris sending a byte just before each idle timeout, which
 * server/src/slow-clients.ts alone would let through). Uploads may take as
 * long as they keep sending (slow-clients.ts), and only staff reach them.
 */
export function refuseDeclaredTooLarge(uploadMaxBytes: number, bodyDeadlineMs = DEFAULT_BODY_DEADLINE_MS): MiddlewareHandler {
  return async function refuseDeclared(c, next) {
    const kind = bodyKindOf(c.req.method, c.req.path)
    const limit = kind === 'upload' ? uploadMaxBytes : BODY_LIMITS[kind]
    if (Number(c.req.header('content-length') ?? NaN) > limit) throw bodyTooLarge(limit)
    if (kind !== 'upload' && c.req.raw.body) cutOffAfter(c, bodyDeadlineMs)
    return next()
  }
}

/** Ends the connection if the request's body has not all arrived in `ms` (on a Node server; a request made in-process has no socket). */
function cutOffAfter(c: Context, ms: number) {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined
  const incoming = env?.incoming
  if (!incoming) return
  const timer = setTimeout(() => {
    if (!incoming.complete) incoming.socket.destroy()
  }, ms)
  timer.unref()
  const done = () => clearTimeout(timer)
  incoming.once('end', done)
  env.outgoing?.once('close', done)
}

/**
 * After the guard, so that only a signed-in caller (or a sign-in call, with
 * its small limit) gets a body held in memory: a body sent without a
 * Content-Length (chunked) is counted as it arrives (hono/body-limit, which
 * holds it up to the limit) and refused at the first byte past it. A chunked
 * upload is counted by its route's stream (admin/upload.ts), which fails the
 * import at the first byte past FL0_UPLOAD_MAX_BYTES, holding nothing.
 */
export function countUndeclaredBodies(): MiddlewareHandler {
  const limiters = {
    auth: bodyLimit({ maxSize: BODY_LIMITS.auth, onError: () => { throw bodyTooLarge(BODY_LIMITS.auth) } }),
    json: bodyLimit({ maxSize: BODY_LIMITS.json, onError: () => { throw bodyTooLarge(BODY_LIMITS.json) } }),
  }
  return async function countUndeclared(c, next) {
    const kind = bodyKindOf(c.req.method, c.req.path)
    return kind === 'upload' ? next() : limiters[kind](c, next)
  }
}
