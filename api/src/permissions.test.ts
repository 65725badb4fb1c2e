import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { accessFor } from './guard/policy.ts'
import { createTestApi, type TestApi } from './testing.ts'

/**
 * The permission table, driven by the router itself: every route the api
 * registers (app.routes) is called as no one, as a stranger, as a member and as
 * an admin, and must answer as the guard promises. A route added later is in
 * the list without anyone editing this file; if it escapes the guard, or is
 * not classified below, a test here fails.
 */

/** Organisation routes only admins may call; every other organisation route is for all members. */
const ADMIN_ONLY = new Set([
  'POST /api/orgs/:organization/users',
  'DELETE /api/orgs/:organization/users/:userId',
  'POST /api-v2/orgs/:organization/settings/callback-secret',
  'DELETE /api-v2/orgs/:organization/settings/callback-secret',
  // An open invitation's link is for admins only (routes/invitations.ts).
  'GET /api/orgs/:organization/invitations/delivery',
  'POST /api/orgs/:organization/invitations/:id/link',
  'POST /api/orgs/:organization/invitations/:id/resend',
])

/** Routes anyone may call: adding one is a decision, so it has to be written here. */
const PUBLIC = new Set([
  'GET /api/auth/config',
  'POST /api/auth/local/sign-up',
  'POST /api/auth/local/sign-in',
  'POST /api/auth/local/verify-email',
  'POST /api/auth/local/password-reset',
  'POST /api/auth/local/password-reset/confirm',
  'GET /api/auth/local/jwks',
  'GET /api/auth/local/.well-known/openid-configuration',
  'POST /api/sign-in',
  'POST /api/sign-out',
  'GET /api/invitations/:token',
])

const NOT_SIGNED_IN = { success: false, message: 'Not signed in', errors: [] }
const ORG_NOT_FOUND = { success: false, message: 'Organization not found', errors: [] }
const ADMINS_ONLY = { success: false, message: 'Only organization admins can do this', errors: [] }
const STAFF_ONLY = { success: false, message: 'Only staff can do this', errors: [] }

interface Route {
  method: string
  path: string
}

/** Every endpoint of an app, once each: app.routes also lists middleware (method ALL) and the catch-alls. */
function endpoints(app: Hono<any>): Route[] {
  const seen = new Map<string, Route>()
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.path.endsWith('*')) continue
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path })
  }
  return [...seen.values()]
}

const key = (r: Route) => `${r.method} ${r.path}`
const materialise = (path: string, org: string) => path.replace(':organization', org).replace(/:[A-Za-z]+/g, 'no-such-id')

let t: TestApi
const who = {} as Record<'root' | 'admin' | 'member' | 'stranger', string>

beforeAll(async () => {
  t = await createTestApi()
  who.root = (await t.signUp('Root')).cookie // first account: staff, with an organisation of its own
  await t.createOrg(who.root, 'Root Org')
  who.admin = (await t.signUp('Admin')).cookie
  await t.createOrg(who.admin, 'Acme')
  await t.call('POST', '/api/orgs/acme/users', { cookie: who.admin, body: { invitee_email: 'member@example.com' } })
  const link = t.invitationLinkFor('member@example.com')
  who.member = (await t.signUp('Member', 'member@example.com')).cookie
  await t.call('POST', `/api/invitations/${link.split('/invitations/')[1]}/accept`, { cookie: who.member })
  who.stranger = (await t.signUp('Stranger')).cookie
  await t.createOrg(who.stranger, 'Elsewhere')
})
afterAll(() => t?.close())

async function call(app: Hono<any>, route: Route, org: string, cookie?: string) {
  const res = await app.request(`http://fl0.test${materialise(route.path, org)}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{}',
  })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body }
}

/** What is wrong with an organisation route, as each kind of caller; empty when it is guarded. */
async function orgRouteProblems(app: Hono<any>, route: Route): Promise<string[]> {
  const problems: string[] = []
  const expectThat = (as: string, got: { status: number; body: unknown }, status: number, body?: unknown) => {
    if (got.status !== status || (body !== undefined && JSON.stringify(got.body) !== JSON.stringify(body))) {
      problems.push(`${key(route)} as ${as}: expected ${status} ${JSON.stringify(body ?? '')}, got ${got.status} ${JSON.stringify(got.body)}`)
    }
  }
  expectThat('no one', await call(app, route, 'acme'), 401, NOT_SIGNED_IN)
  expectThat('a stranger', await call(app, route, 'acme', who.stranger), 404, ORG_NOT_FOUND)
  expectThat('staff who is not a member', await call(app, route, 'acme', who.root), 404, ORG_NOT_FOUND)
  expectThat('a member, of an organisation that does not exist', await call(app, route, 'no-such-org', who.member), 404, ORG_NOT_FOUND)
  const passed = (as: string, got: { status: number; body: unknown }) => {
    const refused = got.status === 401 || got.status === 403 || got.status >= 500 || JSON.stringify(got.body) === JSON.stringify(ORG_NOT_FOUND)
    if (refused) problems.push(`${key(route)} as ${as}: expected to pass the guard, got ${got.status} ${JSON.stringify(got.body)}`)
  }
  if (ADMIN_ONLY.has(key(route))) expectThat('a member', await call(app, route, 'acme', who.member), 403, ADMINS_ONLY)
  else passed('a member', await call(app, route, 'acme', who.member))
  passed('an admin', await call(app, route, 'acme', who.admin))
  return problems
}

describe('permissions, from the router', () => {
  it('finds the routes in the router', () => {
    const all = endpoints(t.app).map(key)
    expect(all).toEqual(expect.arrayContaining([...ADMIN_ONLY, ...PUBLIC, 'GET /api/orgs/:organization/users', 'GET /api-v2/orgs/:organization/settings']))
  })

  it('every organisation route: 401 for no one, 404 for strangers (staff too), open to members, admin-only ones 403 for members', async () => {
    const routes = endpoints(t.app).filter((r) => r.path.includes(':organization'))
    expect(routes.length).toBeGreaterThanOrEqual(5)
    const problems = (await Promise.all(routes.map((r) => orgRouteProblems(t.app, r)))).flat()
    expect(problems).toEqual([])
  })

  it('every organisation route sits under /api/orgs/{organization} or /api-v2/orgs/{organization}', () => {
    for (const r of endpoints(t.app).filter((r) => r.path.includes(':organization'))) {
      expect(r.path, key(r)).toMatch(/^\/api(-v2)?\/orgs\/:organization(\/|$)/)
      expect(accessFor(r.method, materialise(r.path, 'acme')), key(r)).toBe('member')
    }
  })

  it('every other route needs a session, unless it is listed as public', async () => {
    for (const r of endpoints(t.app).filter((r) => !r.path.includes(':organization'))) {
      const got = await call(t.app, r, 'acme')
      if (PUBLIC.has(key(r))) {
        expect(got.status, key(r)).not.toBe(401)
        expect(accessFor(r.method, materialise(r.path, 'acme')), key(r)).toBe('public')
      } else {
        expect([got.status, got.body], key(r)).toEqual([401, NOT_SIGNED_IN])
      }
    }
  })

  it('every admin route: 401 for no one, 403 for anyone but staff, open to staff', async () => {
    const routes = endpoints(t.app).filter((r) => r.path.startsWith('/api-v2/admin'))
    expect(routes.length).toBeGreaterThanOrEqual(3)
    for (const r of routes) {
      expect((await call(t.app, r, 'acme')).status, key(r)).toBe(401)
      for (const cookie of [who.admin, who.member, who.stranger]) {
        const got = await call(t.app, r, 'acme', cookie)
        expect([got.status, got.body], key(r)).toEqual([403, STAFF_ONLY])
      }
      expect([401, 403]).not.toContain((await call(t.app, r, 'acme', who.root)).status)
    }
  })

  it('catches an organisation route that escapes the guard', async () => {
    // A route mounted in front of the api, outside its guard: the same check must report it.
    const leaky = new Hono()
    leaky.get('/api/orgs/:organization/leak', (c) => c.json({ secret: `data of ${c.req.param('organization')}` }))
    leaky.route('/', t.app)
    const route = endpoints(leaky).find((r) => r.path.endsWith('/leak'))!
    const problems = await orgRouteProblems(leaky, route)
    expect(problems.join('\n')).toContain('as no one: expected 401')
    expect(problems.join('\n')).toContain('as a stranger: expected 404')
  })
})
