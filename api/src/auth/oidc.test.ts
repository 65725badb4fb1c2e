import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '@fl0/stores'
import { createTestApi, type TestApi } from '../testing.ts'
import { startTestIssuer, type TestIssuer } from './test-issuer.ts'

/**
 * Sign-in through an external OIDC issuer: a real one on a localhost port with
 * its own key pair and discovery document; fl0 verifies its ID tokens with jose.
 */
let issuer: TestIssuer
let t: TestApi
beforeAll(async () => {
  let clock = () => new Date()
  issuer = await startTestIssuer(() => clock())
  t = await createTestApi({ oidc: { issuer: issuer.issuer, clientId: 'fl0-dashboard' } })
  clock = () => t.clock.now
})
afterAll(async () => {
  await t?.close()
  await issuer?.close()
})

const signIn = (token: string) => t.call('POST', '/api/sign-in', { body: { token } })

describe('external OIDC issuer', () => {
  it('is announced to the dashboard, and the built-in provider is off', async () => {
    expect(await (await t.call('GET', '/api/auth/config')).json()).toEqual({ provider: 'oidc', issuer: issuer.issuer, clientId: 'fl0-dashboard' })
    const res = await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'A', email: 'a@example.com', password: 'long enough' } })
    expect(res.status).toBe(404)
    expect((await t.call('GET', '/api/auth/local/jwks')).status).toBe(404)
  })

  it('opens a session for a valid ID token, reading the keys from discovery', async () => {
    const token = await issuer.sign({ sub: 'idp-user-1', email: 'Lin@Example.com', email_verified: true, name: 'Lin Clark' })
    const res = await signIn(token)
    expect(res.status).toBe(200)
    const { user } = (await res.json()) as { user: { id: string; email: string; name: string; isStaff: boolean } }
    expect(user).toMatchObject({ email: 'lin@example.com', name: 'Lin Clark', isStaff: true })
    expect(issuer.hits).toEqual(['/.well-known/openid-configuration', '/jwks'])
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!
    expect(await (await t.call('GET', '/api/users/me', { cookie })).json()).toMatchObject({ id: user.id })

    // The same subject later is the same user, even under a new address; keys are cached.
    const again = await signIn(await issuer.sign({ sub: 'idp-user-1', email: 'lin@new.example', name: 'Lin' }))
    expect(((await again.json()) as { user: { id: string } }).user.id).toBe(user.id)
    expect(issuer.hits).toHaveLength(2)
  })

  it.each([
    ['another audience', { audience: 'someone-else' }],
    ['another issuer', { issuer: 'https://evil.example' }],
    ['a key the issuer does not publish', { key: 'stranger' as const }],
    ['an expired token', { iat: 0, expiresIn: 60 }],
  ])('refuses %s', async (_, options) => {
    const res = await signIn(await issuer.sign({ sub: 'idp-user-2', email: 'x@example.com' }, options))
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ success: false, message: 'The sign-in token is not valid', errors: [] })
  })

  it('refuses a token valid until a moment the clock has passed', async () => {
    const token = await issuer.sign({ sub: 'idp-user-3', email: 'y@example.com' }, { expiresIn: 60 })
    const start = t.clock.now
    t.clock.now = new Date(start.getTime() + 61_000)
    try {
      expect((await signIn(token)).status).toBe(401)
    } finally {
      t.clock.now = start
    }
  })

  it('refuses an unsigned token (alg none)', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const now = Math.floor(t.clock.now.getTime() / 1000)
    const unsigned = `${b64({ alg: 'none' })}.${b64({ iss: issuer.issuer, aud: 'fl0-dashboard', sub: 'z', exp: now + 60 })}.`
    expect((await signIn(unsigned)).status).toBe(401)
  })

  it('refuses a token without an address for a new user', async () => {
    const res = await signIn(await issuer.sign({ sub: 'idp-no-email' }))
    expect(res.status).toBe(401)
    expect(((await res.json()) as { message: string }).message).toBe('The identity provider did not share an email address')
  })

  it('links an existing account by address only when the provider vouches for it', async () => {
    const existing = await createUser(t.sql, { email: 'mae@example.com', name: 'Mae' })
    const unverified = await signIn(await issuer.sign({ sub: 'idp-mae', email: 'mae@example.com', email_verified: false }))
    expect(unverified.status).toBe(409)
    const verified = await signIn(await issuer.sign({ sub: 'idp-mae', email: 'mae@example.com', email_verified: true }))
    expect(verified.status).toBe(200)
    expect(((await verified.json()) as { user: { id: string; isStaff: boolean } }).user).toMatchObject({ id: existing.id, isStaff: false })
  })
})

describe('an issuer whose discovery document names another issuer', () => {
  it('is refused as unavailable, and asked again on the next sign-in', async () => {
    const liar = await startTestIssuer(() => t.clock.now)
    liar.discoveryIssuer = 'https://someone.else'
    const api = await createTestApi({ oidc: { issuer: liar.issuer, clientId: 'fl0-dashboard' } })
    try {
      const token = await liar.sign({ sub: 'u', email: 'u@example.com' }, { iat: Math.floor(api.clock.now.getTime() / 1000) })
      const res = await api.call('POST', '/api/sign-in', { body: { token } })
      expect(res.status).toBe(502)
      expect(((await res.json()) as { message: string }).message).toBe('The identity provider could not be reached')
      liar.discoveryIssuer = undefined
      expect((await api.call('POST', '/api/sign-in', { body: { token } })).status).toBe(200)
    } finally {
      await api.close()
      await liar.close()
    }
  })
})
