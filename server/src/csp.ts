import { isIP } from 'node:net'
import type { secureHeaders } from 'hono/secure-headers'

/**
 * The dashboard's Content-Security-Policy, from configuration: fl0's own
 * origin for everything, and the third parties fl0 is configured with, each
 * for what it does and nothing more.
 *
 * - Scripts: fl0's bundles (the built index.html has no inline script: Vite
 *   emits `<script type="module" src>`), and Paragon's SDK file itself when
 *   Paragon is configured. No 'unsafe-inline', no 'unsafe-eval'.
 * - Styles: 'self' only. The stylesheets are files (Tailwind's and uPlot's
 *   CSS, bundled by Vite); React's `style` props and uPlot's sizing set
 *   element.style through the CSSOM, which a policy does not govern; only
 *   style attributes in markup and <style> elements would need
 *   'unsafe-inline', and the dashboard has neither (the browser test fails on
 *   any violation, on every screen it opens).
 * - Images: fl0, data: (the page's empty icon), the logo service
 *   (FL0_LOGO_URL), and Paragon's hosts (the integrations' icons).
 * - Connections and frames: fl0, Paragon's services (the SDK calls them and
 *   frames its Connect Portal), an external OIDC provider's endpoints (the
 *   token exchange, and the hidden frame of a silent sign-in that comes back
 *   to fl0's /account/callback).
 * - Framing fl0: by no one ('none'), except /account/callback by fl0 itself,
 *   which is that hidden frame.
 */
export type CspDirectives = NonNullable<NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']>

export interface ThirdParties {
  /** FL0_LOGO_URL, {domain} where the company's domain goes; empty or undefined: no logos. */
  logoUrlTemplate?: string
  /** The SDK's address, when Paragon is configured. */
  paragonSdkUrl?: string
  /** Origins an external OIDC provider is reached at (its issuer and its endpoints). */
  oidcOrigins?: string[]
}

export function dashboardPolicy(third: ThirdParties, { framedBySelf = false } = {}): CspDirectives {
  const logo = third.logoUrlTemplate ? logoSource(third.logoUrlTemplate) : undefined
  const paragon = third.paragonSdkUrl ? paragonSources(third.paragonSdkUrl) : undefined
  const oidc = third.oidcOrigins ?? []
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...(paragon ? [paragon.script] : [])],
    styleSrc: ["'self'"],
    imgSrc: unique(["'self'", 'data:', ...(logo ? [logo] : []), ...(paragon?.services ?? [])]),
    connectSrc: unique(["'self'", ...(paragon?.services ?? []), ...oidc]),
    frameSrc: unique(["'self'", ...(paragon?.services ?? []), ...oidc]),
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: [framedBySelf ? "'self'" : "'none'"],
  }
}

/** /api and /api-v2 answer data, never a page: nothing may load or run in one, and none may be framed. */
export const API_POLICY: CspDirectives = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
}

/**
 * The logo service's origin; when {domain} is in the host itself
 * (https://{domain}/favicon.ico), any host of its scheme, since each
 * company's logo then comes from the company's own site.
 */
export function logoSource(template: string): string {
  const marker = 'fl0-domain.invalid'
  const url = new URL(template.replaceAll('{domain}', marker))
  return url.host.includes(marker) ? url.protocol : url.origin
}

/**
 * The SDK's exact address for scripts (no other file of its host may run);
 * for the rest, its origin and its siblings: Paragon names its services
 * {service}.{host} beside the SDK's CDN (cdn.useparagon.com, then
 * connect., zeus., passport., proxy., hermes., dashboard. …useparagon.com; an
 * on-premise install alike under its own domain), so cdn.example.com gives
 * https://*.example.com. An address (an IP) or a two-label host has no siblings.
 */
export function paragonSources(sdkUrl: string): { script: string; services: string[] } {
  const url = new URL(sdkUrl)
  const services = [url.origin]
  const labels = url.hostname.split('.')
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 && labels.length >= 3) {
    services.push(`${url.protocol}//*.${labels.slice(1).join('.')}${url.port ? `:${url.port}` : ''}`)
  }
  return { script: `${url.origin}${url.pathname}`, services }
}

/** Origins of an OIDC provider's issuer and of the endpoints its discovery document names. */
export function oidcOriginsOf(issuer: string, discovery: Record<string, unknown> = {}): string[] {
  const endpoints = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'end_session_endpoint', 'revocation_endpoint', 'check_session_iframe']
  const urls = [issuer, ...endpoints.map((name) => discovery[name]).filter((v): v is string => typeof v === 'string')]
  return unique(urls.flatMap((u) => (URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) ? [new URL(u).origin] : [])))
}

const unique = (values: string[]) => [...new Set(values)]
