// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, describe, expect, it } from 'vitest'
import { createDashboardRoutes, isServerPath } from './server.ts'

const dist = mkdtempSync(join(tmpdir(), 'fl0-dashboard-dist-'))
mkdirSync(join(dist, 'assets'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>')
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")'.repeat(100))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

/** The dashboard mounted first, as in fl0.ts, with server routes beside it. */
function app(distDir = dist) {
  const a = new Hono()
  a.route('/', createDashboardRoutes(distDir))
  a.get('/api/users/me', (c) => c.json({ me: true }))
  a.get('/healthz', (c) => c.json({ ok: true }))
  a.notFound((c) => c.json({ message: 'Not found' }, 404))
  return a
}

describe('serving the dashboard', () => {
  it('answers index.html, not cached, for client routes (SPA fallback)', async () => {
    for (const path of ['/', '/organizations/acme/people', '/account/callback', '/invitations/abc', '/admin/summary']) {
      const res = await app().request(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toContain('<div id="root">')
    }
  })

  it('serves hashed assets with a year-long immutable cache, compressed when asked', async () => {
    const res = await app().request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-type')).toContain('javascript')
    expect(res.headers.get('content-encoding')).toBe('gzip')
  })

  it('answers 404 for a missing asset, never index.html', async () => {
    const res = await app().request('/assets/gone-123.js')
    expect(res.status).toBe(404)
    expect(res.headers.get('cache-control')).toBeNull()
  })

  it("leaves the server's own paths to the server, mounted before or after", async () => {
    expect(await (await app().request('/api/users/me')).json()).toEqual({ me: true })
    expect(await (await app().request('/healthz')).json()).toEqual({ ok: true })
    const missing = await app().request('/api-v2/orgs/acme/nothing')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: 'Not found' })
    for (const p of ['/api', '/api/x', '/api-v2/x', '/v1/batch', '/i/callback', '/fl0.js', '/healthz']) expect(isServerPath(p), p).toBe(true)
    for (const p of ['/', '/apix', '/integrations', '/invitations/x', '/v10', '/fl0.jsx']) expect(isServerPath(p), p).toBe(false)
  })

  it('explains a missing build instead of a blank page', async () => {
    const res = await app(join(dist, 'nothing-here')).request('/organizations/acme')
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('npm run build')
  })
})
