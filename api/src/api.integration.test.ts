import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'

/**
 * The api as fl0 mounts it (server/src/fl0.ts), over real HTTP: a browser's
 * round trip from sign-up to an organisation, the guard's answers in the one
 * error body, and the API's paths kept from the dashboard's page fallback.
 */
let fl0: TestFl0
beforeAll(async () => {
  fl0 = await startTestFl0()
})
afterAll(async () => {
  await fl0?.stop()
})

async function post(path: string, body: unknown, cookie?: string) {
  return fetch(`${fl0.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
}

describe('api mounted in fl0', () => {
  let cookie: string

  it('signs up and in through the built-in provider, whose issuer is the server itself', async () => {
    const config = await (await fetch(`${fl0.url}/api/auth/config`)).json()
    expect(config).toEqual({ provider: 'local', issuer: `http://localhost:${fl0.port}/api/auth/local`, clientId: 'fl0' })
    const up = await post('/api/auth/local/sign-up', { name: 'Ada', email: 'ada@example.com', password: 'analytical engine' })
    expect(up.status).toBe(202)
    // No SMTP server: the confirmation link is in fl0's log, under the public URL.
    const link = new URL(await fl0.mailedLink('ada@example.com', 'verify-email'))
    expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:${fl0.port}/account/verify-email`)
    const confirmed = await post('/api/auth/local/verify-email', { token: link.searchParams.get('token'), password: 'analytical engine' })
    const signIn = await post('/api/sign-in', await confirmed.json())
    expect(signIn.status).toBe(200)
    cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!
    const me = await (await fetch(`${fl0.url}/api/users/me`, { headers: { cookie } })).json()
    // The first account adopts the organisations made before anyone could sign in (startTestFl0's, the demo's).
    expect(me).toMatchObject({ email: 'ada@example.com', isStaff: true, orgs: [{ url_code: fl0.org.url_code, role: 'admin' }] })
  })

  it('creates an organisation and reaches its team and settings', async () => {
    const res = await post('/api/orgs', { name: 'Analytical', variant: 'form' }, cookie)
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ url_code: 'analytical' })
    const team = await (await fetch(`${fl0.url}/api/orgs/analytical/users`, { headers: { cookie } })).json()
    expect(team).toEqual([{ id: expect.any(String), email: 'ada@example.com', name: 'Ada', role: 'admin', invitation_status: 'accepted' }])
    const settings = (await (await fetch(`${fl0.url}/api-v2/orgs/analytical/settings`, { headers: { cookie } })).json()) as { timezone: string }
    expect(settings.timezone).toBe('UTC')
  })

  it("answers the guard's refusals in the one error body", async () => {
    const anonymous = await fetch(`${fl0.url}/api-v2/orgs/analytical/settings`)
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ success: false, message: 'Not signed in', errors: [] })
    // Ada's organisation does not exist for a later account that is not a member.
    const bobCookie = await fl0.signUp('Bob', 'bob@example.com', 'difference engine')
    const other = await fetch(`${fl0.url}/api/orgs/analytical/users`, { headers: { cookie: bobCookie } })
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ success: false, message: 'Organization not found', errors: [] })
  })

  it('answers unknown API paths with JSON, not the dashboard page', async () => {
    const res = await fetch(`${fl0.url}/api/no-such-call`, { headers: { cookie } })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
  })

  it('validates at the edge with field errors', async () => {
    const res = await post('/api/orgs', { name: 'Analytical Engines', variant: 'form' }, cookie)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      success: false,
      message: 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -',
      errors: [{ name: 'name', message: 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -' }],
    })
  })
})
