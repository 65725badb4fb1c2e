import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { errorBody } from '@fl0/contracts'

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

/** A body that ran past its limit while it was being read. */
export class BodyTooLarge extends Error {}

export const bodyTooLargeMessage = (limit: number) => `The request body is larger than ${shown(limit)}, the most this call takes`

/**
 * The 413, with `Connection: close`: Node then ends the connection after the
 * answer instead of reading the rest of the body to reuse it.
 */
export function tooLarge(c: Context, limit: number) {
  const message = bodyTooLargeMessage(limit)
  c.header('Connection', 'close')
  return c.json(errorBody(message, [{ name: 'body', message }]), 413)
}

/**
 * The size limit of every /api and /api-v2 body, ahead of the guard and of
 * every route, so no body is read past it:
 * - a Content-Length above the limit is a 413 before a byte of the body is read;
 * - a chunked JSON body is counted as it arrives (hono/body-limit) and
 *   refused at the first byte past the limit;
 * - an upload's Content-Length is checked against its own, larger limit
 *   (FL0_UPLOAD_MAX_BYTES); a chunked upload is counted by its route's stream
 *   (admin/upload.ts), which fails the import at the first byte past it.
 */
export function limitBodies(uploadMaxBytes: number): MiddlewareHandler {
  const limiters = {
    auth: bodyLimit({ maxSize: BODY_LIMITS.auth, onError: (c) => tooLarge(c, BODY_LIMITS.auth) }),
    json: bodyLimit({ maxSize: BODY_LIMITS.json, onError: (c) => tooLarge(c, BODY_LIMITS.json) }),
  }
  return async function limitBody(c, next) {
    const kind = bodyKindOf(c.req.method, c.req.path)
    if (kind !== 'upload') return limiters[kind](c, next)
    const length = Number(c.req.header('content-length') ?? NaN)
    if (length > uploadMaxBytes) return tooLarge(c, uploadMaxBytes)
    return next()
  }
}
