import type { Context, MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { isServerPath } from '@fl0/dashboard/server'
import { requestIsHttps, type TrustedProxies } from '@fl0/ingest'
import { API_POLICY, dashboardPolicy, oidcOriginsOf, type CspDirectives } from './csp.ts'

/**
 * Security headers on the dashboard's pages and on /api and /api-v2 (issue
 * 17: the dashboard could be framed, no header was sent), by Hono's
 * secureHeaders with fl0's choices:
 *
 * - Content-Security-Policy from configuration (csp.ts); /api answers data
 *   and gets a policy that lets nothing load.
 * - frame-ancestors 'none' and X-Frame-Options: DENY, but for
 *   /account/callback, which fl0 frames itself in a silent OIDC sign-in:
 *   'self' and SAMEORIGIN there.
 * - Referrer-Policy: strict-origin-when-cross-origin, not Hono's no-referrer:
 *   other sites get fl0's origin only (a dashboard address names companies and
 *   people), while fl0's own calls keep their Referer, and their Origin, which
 *   a no-referrer page turns to `null` on a same-origin POST in browsers that
 *   send no Sec-Fetch-Site (api/src/http/same-origin.ts reads one or the other).
 * - Cross-Origin-Opener-Policy: same-origin-allow-popups, not same-origin:
 *   Paragon's Connect Portal signs users in to their apps in a popup that
 *   answers its opener.
 * - Strict-Transport-Security only when the request came over https:
 *   FL0_PUBLIC_URL is https, or a trusted proxy (TRUSTED_PROXIES) says
 *   X-Forwarded-Proto: https. Over plain http a browser ignores it anyway;
 *   the condition keeps it off a localhost install a proxy never fronts.
 * - The rest as Hono sets them: X-Content-Type-Options: nosniff,
 *   Cross-Origin-Resource-Policy: same-origin, Origin-Agent-Cluster,
 *   X-DNS-Prefetch-Control: off, X-Download-Options: noopen,
 *   X-Permitted-Cross-Domain-Policies: none, X-XSS-Protection: 0.
 *
 * The ingest (/v1/*, /i/callback) and the snippet (/fl0.js) are called from
 * customers' pages, cross-origin by design: they keep their own headers
 * (CORS; the snippet sends its own nosniff) and get none of these, which
 * would only cost the ingest time per call.
 */
export interface SecurityHeadersOptions {
  /** FL0_PUBLIC_URL. */
  publicUrl?: string
  trustedProxies: TrustedProxies
  /** FL0_LOGO_URL; empty or undefined: no logos. */
  logoUrlTemplate?: string
  /** Paragon's SDK address, when Paragon is configured. */
  paragonSdkUrl?: string
  /** OIDC_ISSUER, when sign-in is through an external provider. */
  oidcIssuer?: string
  /** For the OIDC provider's discovery document. */
  fetch?: typeof fetch
}

type Kind = 'dashboard' | 'callback' | 'api'

/** Where an external provider's silent sign-in comes back to, in a hidden frame of fl0's own page. */
const OIDC_CALLBACK_PATH = '/account/callback'

function kindOf(path: string): Kind | undefined {
  if (/^\/api(-v2)?(\/|$)/.test(path)) return 'api'
  if (isServerPath(path)) return undefined
  return path === OIDC_CALLBACK_PATH ? 'callback' : 'dashboard'
}

export function createSecurityHeaders(options: SecurityHeadersOptions): MiddlewareHandler {
  const publicUrlIsHttps = options.publicUrl ? new URL(options.publicUrl).protocol === 'https:' : false
  const oidcOrigins = options.oidcIssuer ? createOidcOrigins(options.oidcIssuer, options.fetch ?? fetch) : async () => []
  // One secureHeaders per kind of page, https or not, and OIDC origins: a handful, built once each.
  const handlers = new Map<string, MiddlewareHandler>()

  function handlerFor(kind: Kind, https: boolean, oidc: string[]): MiddlewareHandler {
    const key = `${kind} ${https} ${oidc.join(' ')}`
    let handler = handlers.get(key)
    if (!handler) {
      const policy: CspDirectives =
        kind === 'api'
          ? API_POLICY
          : dashboardPolicy({ logoUrlTemplate: options.logoUrlTemplate, paragonSdkUrl: options.paragonSdkUrl, oidcOrigins: oidc }, { framedBySelf: kind === 'callback' })
      handler = secureHeaders({
        contentSecurityPolicy: policy,
        xFrameOptions: kind === 'callback' ? 'SAMEORIGIN' : 'DENY',
        referrerPolicy: 'strict-origin-when-cross-origin',
        crossOriginOpenerPolicy: 'same-origin-allow-popups',
        // Without includeSubDomains: on an apex FL0_PUBLIC_URL it would force https on every subdomain of the site for 180 days.
        strictTransportSecurity: https ? 'max-age=15552000' : false,
      })
      handlers.set(key, handler)
    }
    return handler
  }

  return async function securityHeaders(c, next) {
    const kind = kindOf(c.req.path)
    if (!kind) return next()
    const https = publicUrlIsHttps || requestIsHttps(c, options.trustedProxies)
    return handlerFor(kind, https, kind === 'api' ? [] : await oidcOrigins())(c, next)
  }
}

/**
 * The external provider's origins, from its discovery document (its token or
 * sign-in endpoint may be on another host than the issuer's: Amazon Cognito's
 * are), read on the dashboard's first page and kept. Until it is read, or
 * when it cannot be (read again a minute later), the issuer's origin alone.
 */
function createOidcOrigins(issuer: string, fetchImpl: typeof fetch): () => Promise<string[]> {
  let known: string[] | undefined
  let reading: Promise<string[]> | undefined
  let retryAt = 0
  async function read(): Promise<string[]> {
    try {
      const res = await fetchImpl(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(3_000) })
      if (!res.ok) throw new Error(`answered ${res.status}`)
      known = oidcOriginsOf(issuer, (await res.json()) as Record<string, unknown>)
      return known
    } catch {
      retryAt = Date.now() + 60_000
      return oidcOriginsOf(issuer)
    }
  }
  return async function oidcOrigins() {
    if (known) return known
    if (Date.now() < retryAt) return oidcOriginsOf(issuer)
    reading ??= read().finally(() => (reading = undefined))
    return reading
  }
}
