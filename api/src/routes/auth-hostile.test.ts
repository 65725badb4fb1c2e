import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_LINK_INVALID, EMAIL_NOT_CONFIRMED } from '@fl0/contracts'
import { createTestApi, sessionCookieOf, type TestApi } from '../testing.ts'
import { THROTTLES, TOO_MANY_ATTEMPTS } from '../auth/throttle.ts'

/**
 * The built-in provider against an attacker (issue 17): guesses are limited,
 * an ID token opens one session, sign-up and reset requests tell nothing
 * about which addresses have accounts, a new account proves its address,
 * and a forgotten password is reset by a link e-mailed to its owner.
 * The caller's address is the `x-test-address` header here (in production,
 * the connection's, through trusted proxies: server/src/fl0.ts).
 */
let t: TestApi
beforeAll(async () => {
  t = await createTestApi({ clientAddress: (c) => c.req.header('x-test-address') })
  await t.signUp('Ada', 'ada@example.com', 'analytical engine')
})
afterAll(() => t.close())

const from = (address: string) => ({ 'x-test-address': address })
const signIn = (email: string, password: string, address = '198.51.100.1') =>
  t.call('POST', '/api/auth/local/sign-in', { body: { email, password }, headers: from(address) })

describe('the built-in provider ID token', () => {
  it('opens one session: replayed after sign-out, or while the session lives, it is refused', async () => {
    const { token } = (await (await signIn('ada@example.com', 'analytical engine')).json()) as { token: string }
    const first = await t.call('POST', '/api/sign-in', { body: { token } })
    expect(first.status).toBe(200)
    const replayedWhileSignedIn = await t.call('POST', '/api/sign-in', { body: { token } })
    expect(replayedWhileSignedIn.status).toBe(401)
    expect((await t.call('POST', '/api/sign-out', { cookie: sessionCookieOf(first) })).status).toBe(204)
    const replayedAfterSignOut = await t.call('POST', '/api/sign-in', { body: { token } })
    expect(replayedAfterSignOut.status).toBe(401)
    expect(await replayedAfterSignOut.json()).toEqual({ success: false, message: 'The sign-in token is not valid', errors: [] })
  })
})

describe('a new account', () => {
  it('cannot sign in until its address is confirmed, and the link works once', async () => {
    expect((await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Eve', email: 'eve@example.com', password: 'eve password' } })).status).toBe(202)
    const secret = t.mailedSecretFor('eve@example.com', 'verify-email')

    expect((await signIn('eve@example.com', 'wrong password')).status).toBe(401) // nothing told to a guesser
    const unconfirmed = await signIn('eve@example.com', 'eve password')
    expect(unconfirmed.status).toBe(403)
    expect(await unconfirmed.json()).toEqual({ success: false, message: EMAIL_NOT_CONFIRMED, errors: [{ name: 'email', message: EMAIL_NOT_CONFIRMED }] })
    // ... and was sent a new link, which makes the first one stop working once either is used.
    const resent = t.mailedSecretFor('eve@example.com', 'verify-email')
    expect(resent).not.toBe(secret)

    const confirm = (token: string) => t.call('POST', '/api/auth/local/verify-email', { body: { token } })
    const confirmed = await confirm(resent)
    expect(confirmed.status).toBe(200)
    expect((await t.call('POST', '/api/sign-in', { body: (await confirmed.json()) as object })).status).toBe(200)
    for (const used of [resent, secret, 'made-up']) {
      const again = await confirm(used)
      expect(again.status).toBe(400)
      expect(await again.json()).toEqual({ success: false, message: EMAIL_LINK_INVALID, errors: [{ name: 'token', message: EMAIL_LINK_INVALID }] })
    }
    expect((await signIn('eve@example.com', 'eve password')).status).toBe(200)
  })
})

describe('a forgotten password', () => {
  it('is reset by the link e-mailed to its owner; asking for an unknown address answers the same', async () => {
    await t.signUp('Grace', 'grace@example.com', 'old password')
    const { cookie } = await t.signInWith(((await (await signIn('grace@example.com', 'old password')).json()) as { token: string }).token)
    const ask = (email: string) => t.call('POST', '/api/auth/local/password-reset', { body: { email }, headers: from('198.51.100.7') })

    const known = await ask('Grace@example.com')
    const unknown = await ask('nobody@example.com')
    expect([known.status, unknown.status]).toEqual([202, 202])
    expect(await known.json()).toEqual({ email: 'grace@example.com', delivery: 'logged' })
    expect(await unknown.json()).toEqual({ email: 'nobody@example.com', delivery: 'logged' })
    expect(() => t.mailedSecretFor('nobody@example.com', 'reset-password')).toThrow() // nobody to send to

    const secret = t.mailedSecretFor('grace@example.com', 'reset-password')
    const reset = (token: string, password: string) => t.call('POST', '/api/auth/local/password-reset/confirm', { body: { token, password } })
    const short = await reset(secret, 'short')
    expect(short.status).toBe(400)
    expect(await short.json()).toMatchObject({ errors: [{ name: 'password', message: 'Password must have at least 8 characters' }] })

    const done = await reset(secret, 'new password')
    expect(done.status).toBe(200)
    expect((await t.call('POST', '/api/sign-in', { body: (await done.json()) as object })).status).toBe(200)
    // Whoever knew the old password is signed out, and it opens nothing now.
    expect((await t.call('GET', '/api/users/me', { cookie })).status).toBe(401)
    expect((await signIn('grace@example.com', 'old password')).status).toBe(401)
    expect((await signIn('grace@example.com', 'new password')).status).toBe(200)
    expect((await reset(secret, 'third password')).status).toBe(400) // once
  })
})

describe('guessing', () => {
  it('stops after 10 wrong passwords for an account, from any address, even the right one, with Retry-After', async () => {
    await t.signUp('Hedy', 'hedy@example.com', 'frequency hopping')
    const limit = THROTTLES.signInAccount.points
    for (let i = 0; i < limit; i++) expect((await signIn('hedy@example.com', `guess ${i}`, `203.0.113.${i}`)).status).toBe(401)
    for (const password of ['guess again', 'frequency hopping']) {
      const res = await signIn('hedy@example.com', password, '203.0.113.200')
      expect(res.status).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(THROTTLES.signInAccount.duration - 60)
      expect(await res.json()).toEqual({ success: false, message: TOO_MANY_ATTEMPTS, errors: [] })
    }
    // Another account is not locked by it.
    expect((await signIn('ada@example.com', 'analytical engine', '203.0.113.200')).status).toBe(200)
  })

  it('stops one address after 30 wrong passwords across accounts (spraying)', async () => {
    const limit = THROTTLES.signInAddress.points
    for (let i = 0; i < limit; i++) expect((await signIn(`user${i}@example.com`, 'Winter2026!', '192.0.2.9')).status).toBe(401)
    expect((await signIn('ada@example.com', 'analytical engine', '192.0.2.9')).status).toBe(429)
    expect((await signIn('ada@example.com', 'analytical engine', '192.0.2.10')).status).toBe(200)
  })

  it('counts a hundred guesses sent at once as a hundred', async () => {
    await t.signUp('Joan', 'joan@example.com', 'clarke cipher')
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn('joan@example.com', `guess ${i}`, `100.64.0.${i}`)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(THROTTLES.signInAccount.points)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - THROTTLES.signInAccount.points)
  })

  it('limits sign-ups from one address', async () => {
    const signUp = (i: number) =>
      t.call('POST', '/api/auth/local/sign-up', { body: { name: `Bot ${i}`, email: `bot${i}@example.com`, password: 'bot password' }, headers: from('192.0.2.77') })
    for (let i = 0; i < THROTTLES.signUpAddress.points; i++) expect((await signUp(i)).status).toBe(202)
    const refused = await signUp(999)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('limits the e-mails asked for one address, whether it has an account or not', async () => {
    let n = 0
    const ask = () => t.call('POST', '/api/auth/local/password-reset', { body: { email: 'someone@example.com' }, headers: from(`10.9.8.${n++}`) })
    for (let i = 0; i < THROTTLES.mailAccount.points; i++) expect((await ask()).status).toBe(202)
    expect((await ask()).status).toBe(429)
  })
})
