import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, describe, expect, it } from 'vitest'
import { PARAGON_SDK_URL_DEFAULT } from '@fl0/contracts'
import { createDashboardRoutes } from '@fl0/dashboard/server'
import { createIngestApp, createWriteKeyCache, parseTrustedProxies } from '@fl0/ingest'
import { createSnippetRoutes } from '@fl0/snippet'
import { DEFAULT_LOGO_URL } from './config.ts'
import { API_POLICY, dashboardPolicy, logoSource, oidcOriginsOf, paragonSources } from './csp.ts'
import { createSecurityHeaders, type SecurityHeadersOptions } from './security-headers.ts'

/**
 * The headers as a browser receives them, over a real socket: the security
 * middleware in front of the dashboard, a stand-in /api route, the ingest and
 * the snippet, mounted in fl0.ts's order. The browser test
 * (dashboard/src/e2e/security-headers.e2e.test.ts) checks that the dashboard
 * runs under the policy, against a running fl0.
 */
const dist = mkdtempSync(join(tmpdir(), 'fl0-headers-dist-'))
mkdirSync(join(dist, 'assets'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc.js"></script><div id="root"></div>')
writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log("app")')
const running: ServerType[] = []
afterAll(async () => {
  await Promise.all(running.map((s) => new Promise((resolve) => s.close(resolve))))
  rmSync(dist, { recursive: true, force: true })
})

async function startFl0Like(options: Partial<SecurityHeadersOptions> = {}): Promise<string> {
  const app = new Hono()
  app.use(createSecurityHeaders({ trustedProxies: parseTrustedProxies(''), logoUrlTemplate: DEFAULT_LOGO_URL, ...options }))
  app.get('/healthz', (c) => c.json({ ok: true }))
  app.route('/', createSnippetRoutes())
  const writeKeys = createWriteKeyCache(async (key) => (key === 'wk' ? { orgId: 'org', sourceId: 'src' } : undefined))
  app.route('/', createIngestApp({ writeKeys, publish: async () => {} }))
  app.get('/api/users/me', (c) => c.json({ success: false, message: 'Not signed in' }, 401))
  app.all('/api-v2/*', (c) => c.json({ success: false, message: 'Not found' }, 404))
  app.route('/', createDashboardRoutes(dist))
  app.notFound((c) => c.json({ success: false, code: 'not_found', message: 'Not found', errors: [] }, 404))
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  running.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A policy's directives by name. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy()
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  )
}

const FRAME_AND_CSP = ['content-security-policy', 'x-frame-options', 'cross-origin-resource-policy', 'cross-origin-opener-policy', 'strict-transport-security']

describe('security headers', () => {
  it("on the dashboard's pages: a policy of fl0's own and the logo service's, no framing, nosniff, a referrer policy; no HSTS over http", async () => {
    const url = await startFl0Like()
    for (const path of ['/', '/organizations/acme/people', '/assets/index-abc.js']) {
      const res = await fetch(url + path)
      expect(res.status, path).toBe(200)
      const csp = directives(res.headers.get('content-security-policy'))
      expect(csp['script-src'], path).toEqual(["'self'"])
      expect(csp['style-src']).toEqual(["'self'"])
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'https://icons.duckduckgo.com'])
      expect(csp['connect-src']).toEqual(["'self'"])
      expect(csp['frame-ancestors']).toEqual(["'none'"])
      expect(csp['object-src']).toEqual(["'none'"])
      expect(JSON.stringify(csp)).not.toContain('unsafe')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups')
      expect(res.headers.get('strict-transport-security')).toBeNull()
    }
  })

  it('lets fl0 alone frame /account/callback, where a silent OIDC sign-in comes back', async () => {
    const res = await fetch((await startFl0Like()) + '/account/callback?code=x&state=y')
    expect(directives(res.headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'self'"])
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })

  it('on /api and /api-v2, answers and errors alike: a policy that loads nothing, no framing, nosniff', async () => {
    const url = await startFl0Like()
    for (const [path, status] of [['/api/users/me', 401], ['/api-v2/orgs/acme/nothing', 404]] as const) {
      const res = await fetch(url + path)
      expect(res.status, path).toBe(status)
      expect(directives(res.headers.get('content-security-policy'))).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
      })
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    }
  })

  it("leaves the ingest and the snippet as customers' pages need them: CORS, no policy, no framing rule", async () => {
    const url = await startFl0Like({ publicUrl: 'https://fl0.example.com' })
    const fromSite = { origin: 'https://shop.example' }
    const snippet = await fetch(url + '/fl0.js', { headers: fromSite })
    expect(snippet.status).toBe(200)
    expect(snippet.headers.get('access-control-allow-origin')).toBe('*')
    expect(snippet.headers.get('x-content-type-options')).toBe('nosniff')
    const preflight = await fetch(url + '/v1/batch', {
      method: 'OPTIONS',
      headers: { ...fromSite, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const track = await fetch(url + '/v1/track', {
      method: 'POST',
      headers: { ...fromSite, 'content-type': 'text/plain' },
      body: JSON.stringify({ writeKey: 'wk', userId: 'u1', event: 'Signed Up' }),
    })
    expect(track.status).toBe(200)
    expect(track.headers.get('access-control-allow-origin')).toBe('*')
    for (const res of [snippet, preflight, track]) {
      for (const name of FRAME_AND_CSP) expect(res.headers.get(name), `${res.url} ${name}`).toBeNull()
    }
  })

  it('sends HSTS when FL0_PUBLIC_URL is https', async () => {
    const url = await startFl0Like({ publicUrl: 'https://fl0.example.com' })
    for (const path of ['/', '/api/users/me']) {
      expect((await fetch(url + path)).headers.get('strict-transport-security'), path).toBe('max-age=15552000')
    }
  })

  it('sends HSTS when a trusted proxy says the client came over https, and only then', async () => {
    const behindProxy = await startFl0Like({ trustedProxies: parseTrustedProxies('127.0.0.1') })
    const direct = await startFl0Like()
    const hsts = async (url: string, proto?: string) =>
      (await fetch(url + '/organizations/acme', { headers: proto ? { 'x-forwarded-proto': proto } : {} })).headers.get('strict-transport-security')
    expect(await hsts(behindProxy, 'https')).toBe('max-age=15552000')
    expect(await hsts(behindProxy, 'https, http')).toBe('max-age=15552000')
    expect(await hsts(behindProxy, 'http')).toBeNull()
    expect(await hsts(behindProxy)).toBeNull()
    // Anyone can send the header: from a peer that is not a trusted proxy, it is not believed.
    expect(await hsts(direct, 'https')).toBeNull()
  })

  it("names Paragon's SDK and services when Paragon is configured, and no logo service when FL0_LOGO_URL is empty", async () => {
    const url = await startFl0Like({ logoUrlTemplate: '', paragonSdkUrl: PARAGON_SDK_URL_DEFAULT })
    const csp = directives((await fetch(url + '/organizations/acme/integrations')).headers.get('content-security-policy'))
    expect(csp['script-src']).toEqual(["'self'", 'https://cdn.useparagon.com/latest/sdk/index.js'])
    expect(csp['connect-src']).toEqual(["'self'", 'https://cdn.useparagon.com', 'https://*.useparagon.com'])
    expect(csp['frame-src']).toEqual(["'self'", 'https://cdn.useparagon.com', 'https://*.useparagon.com'])
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'https://cdn.useparagon.com', 'https://*.useparagon.com'])
  })

  it("names an external OIDC provider's endpoints, from its discovery document", async () => {
    let provider = ''
    const discovery: Server = createServer((req, res) => {
      if (req.url !== '/.well-known/openid-configuration') return res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ issuer: provider, authorization_endpoint: 'https://login.example.org/authorize', token_endpoint: 'https://tokens.example.org/token', jwks_uri: `${provider}/jwks` }),
      )
    })
    await new Promise<void>((resolve) => discovery.listen(0, '127.0.0.1', resolve))
    provider = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`
    try {
      const url = await startFl0Like({ oidcIssuer: provider })
      const csp = directives((await fetch(url + '/account/sign-in')).headers.get('content-security-policy'))
      const expected = ["'self'", provider, 'https://login.example.org', 'https://tokens.example.org']
      expect(csp['connect-src']).toEqual(expected)
      expect(csp['frame-src']).toEqual(expected)
      // /api needs none of them.
      expect((await fetch(url + '/api/users/me')).headers.get('content-security-policy')).not.toContain('example.org')
    } finally {
      await new Promise((resolve) => discovery.close(resolve))
    }
  })

  it('falls back to the issuer alone when its discovery document cannot be read', async () => {
    const url = await startFl0Like({ oidcIssuer: 'http://127.0.0.1:9/issuer' })
    const csp = directives((await fetch(url + '/')).headers.get('content-security-policy'))
    expect(csp['connect-src']).toEqual(["'self'", 'http://127.0.0.1:9'])
  })
})

describe('the policy, from configuration', () => {
  it("takes the logo service's origin, or its scheme when each company's logo comes from the company's own host", () => {
    expect(logoSource('https://logos.example/{domain}?size=128')).toBe('https://logos.example')
    expect(logoSource('http://127.0.0.1:4000/logo/{domain}.png')).toBe('http://127.0.0.1:4000')
    expect(logoSource('https://{domain}/favicon.ico')).toBe('https:')
    expect(logoSource('https://logo.{domain}/x.png')).toBe('https:')
  })

  it("takes the SDK's file for scripts, and its host's siblings for Paragon's services; an address has none", () => {
    expect(paragonSources('https://cdn.paragon.example.com/sdk/v2/index.js?v=1')).toEqual({
      script: 'https://cdn.paragon.example.com/sdk/v2/index.js',
      services: ['https://cdn.paragon.example.com', 'https://*.paragon.example.com'],
    })
    expect(paragonSources('http://127.0.0.1:5555/sdk/index.js')).toEqual({ script: 'http://127.0.0.1:5555/sdk/index.js', services: ['http://127.0.0.1:5555'] })
    expect(paragonSources('https://paragon.internal/sdk.js').services).toEqual(['https://paragon.internal'])
  })

  it("keeps an OIDC provider's http(s) endpoint origins, once each", () => {
    expect(
      oidcOriginsOf('https://id.example.com/realms/x', {
        authorization_endpoint: 'https://id.example.com/realms/x/auth',
        token_endpoint: 'https://api.example.com/token',
        end_session_endpoint: 'javascript:alert(1)',
        userinfo_endpoint: 42,
      }),
    ).toEqual(['https://id.example.com', 'https://api.example.com'])
  })

  it('is the same for every screen but the callback, which fl0 may frame', () => {
    const third = { logoUrlTemplate: DEFAULT_LOGO_URL }
    expect(dashboardPolicy(third, { framedBySelf: true })).toEqual({ ...dashboardPolicy(third), frameAncestors: ["'self'"] })
    expect(API_POLICY.defaultSrc).toEqual(["'none'"])
  })
})
