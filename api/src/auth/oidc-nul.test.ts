import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'
import { startTestIssuer, type TestIssuer } from './test-issuer.ts'

/**
 * The NUL character in an ID token's claims: the request itself is clean (the
 * token is base64url), so http/nul.ts cannot see it; the claims fl0 stores or
 * looks up (sub, email, name) would reach the metadata store, which refuses
 * NUL. Such a token is refused as invalid (401), and no user is made.
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
const users = async () => (await t.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n

describe('an ID token whose claims hold NUL', () => {
  it.each([
    ['sub', { sub: 'idp\u0000user', email: 'lin@example.com', email_verified: true, name: 'Lin' }],
    ['email', { sub: 'idp-user-2', email: 'lin\u0000@example.com', email_verified: true, name: 'Lin' }],
    ['name', { sub: 'idp-user-3', email: 'lin@example.com', email_verified: true, name: 'Li\u0000n' }],
    ['preferred_username', { sub: 'idp-user-4', email: 'lin@example.com', email_verified: true, preferred_username: 'li\u0000n' }],
  ])('%s: 401, the token is not valid, and no user is made', async (claim, claims) => {
    const before = await users()
    const res = await signIn(await issuer.sign(claims))
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ success: false, message: 'The sign-in token is not valid', errors: [] })
    expect(await users()).toBe(before)
    expect(t.logs.at(-1)).toMatchObject({ level: 'warn', obj: { reason: `the ${claim} claim holds the NUL character (\\u0000)` } })
  })

  it('while the same claims without it sign in', async () => {
    const res = await signIn(await issuer.sign({ sub: 'idp-user-5', email: 'lin@example.com', email_verified: true, name: 'Lin' }))
    expect(res.status).toBe(200)
  })
})
