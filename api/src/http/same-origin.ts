import type { MiddlewareHandler } from 'hono'
import { fieldError } from './errors.ts'

export const CROSS_SITE_REFUSED = 'This request came from another site, and fl0 only takes changes from its own pages'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cross-site request forgery: every call that changes something (any method
 * but GET, HEAD and OPTIONS), whatever its body (JSON, a multipart upload,
 * none at all), is refused with a 403 unless the browser says it comes from
 * fl0's own pages. SameSite=Lax on the session cookie stops other sites, but
 * not a page of the same site (another port or subdomain: a staging app on
 * :8080, a user-content host), which the browser sends the cookie from.
 *
 * - `Sec-Fetch-Site` (set by the browser, unforgeable by a page): only
 *   `same-origin` passes (`none`, a navigation the user typed, never posts).
 * - Otherwise `Origin`, which browsers send on every such request: it must be
 *   fl0's own: FL0_PUBLIC_URL's origin, or the origin the request was made to
 *   (its Host header). Behind a proxy that rewrites Host, set FL0_PUBLIC_URL.
 * - A request with neither comes from no browser (curl, a script, a server),
 *   which no page can make carry a user's cookie: it passes.
 *
 * Hono's `csrf` middleware checks only the body types an HTML form can send,
 * and so would let a body-less POST (a `fetch` with no body) through: this
 * checks every method but the safe ones, whatever the body.
 */
export function refuseCrossSite(publicOrigin: string | undefined): MiddlewareHandler {
  return async function sameOriginOnly(c, next) {
    if (SAFE_METHODS.has(c.req.method)) return next()
    const site = c.req.header('sec-fetch-site')
    const origin = c.req.header('origin')
    const allowed = site ? site === 'same-origin' : origin === undefined || origin === publicOrigin || origin === new URL(c.req.url).origin
    if (!allowed) throw fieldError(site ? 'sec-fetch-site' : 'origin', CROSS_SITE_REFUSED, 403)
    return next()
  }
}
