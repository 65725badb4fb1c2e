import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_LINK_INVALID, NOT_THE_SIGN_UP_PASSWORD } from '@fl0/contracts'
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
  it('exists only once its link is followed with the password chosen: before, signing in answers as for a taken address', async () => {
    // Ada has an account; eve@ has none. Each is signed up with a password the caller chose, and each answers alike.
    const up = (email: string) => t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Eve', email, password: 'eve password' } })
    const [taken, fresh] = [await up('ada@example.com'), await up('eve@example.com')]
    expect([taken.status, fresh.status]).toEqual([202, 202])
    expect([await taken.json(), await fresh.json()]).toEqual([
      { email: 'ada@example.com', delivery: 'logged' },
      { email: 'eve@example.com', delivery: 'logged' },
    ])
    // Signing in with the password just chosen tells nothing either: no account was made for eve@, and ada@'s is not that password.
    const [takenSignIn, freshSignIn] = [await signIn('ada@example.com', 'eve password'), await signIn('eve@example.com', 'eve password')]
    expect([takenSignIn.status, freshSignIn.status]).toEqual([401, 401])
    expect(await freshSignIn.json()).toEqual(await takenSignIn.json())

    // The link alone makes nothing: whoever it reaches must know the password chosen at sign-up.
    const secret = t.mailedSecretFor('eve@example.com', 'verify-email')
    const confirm = (token: string, password = 'eve password') => t.call('POST', '/api/auth/local/verify-email', { body: { token, password } })
    const stranger = await confirm(secret, 'my own password')
    expect(stranger.status).toBe(400)
    expect(await stranger.json()).toEqual({ success: false, message: NOT_THE_SIGN_UP_PASSWORD, errors: [{ name: 'password', message: NOT_THE_SIGN_UP_PASSWORD }] })

    // A second sign-up of the address sends a second link; the first one used makes the account and spends both.
    expect((await up('eve@example.com')).status).toBe(202)
    const second = t.mailedSecretFor('eve@example.com', 'verify-email')
    expect(second).not.toBe(secret)
    const confirmed = await confirm(secret)
    expect(confirmed.status).toBe(201)
    expect((await t.call('POST', '/api/sign-in', { body: (await confirmed.json()) as object })).status).toBe(200)
    for (const used of [secret, second, 'made-up']) {
      const again = await confirm(used)
      expect(again.status).toBe(400)
      expect(await again.json()).toEqual({ success: false, message: EMAIL_LINK_INVALID, errors: [{ name: 'token', message: EMAIL_LINK_INVALID }] })
    }
    expect((await signIn('eve@example.com', 'eve password')).status).toBe(200)
  })

  it('expires with its link: a day', async () => {
    expect((await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Late', email: 'late@example.com', password: 'late password' } })).status).toBe(202)
    const secret = t.mailedSecretFor('late@example.com', 'verify-email')
    const start = t.clock.now
    try {
      t.clock.now = new Date(start.getTime() + 24 * 60 * 60 * 1000)
      const late = await t.call('POST', '/api/auth/local/verify-email', { body: { token: secret, password: 'late password' } })
      expect(late.status).toBe(400)
    } finally {
      t.clock.now = start
    }
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
  it('stops after 10 wrong passwords for an account from one address, even the right one, with Retry-After; other addresses still get in', async () => {
    await t.signUp('Hedy', 'hedy@example.com', 'frequency hopping')
    const limit = THROTTLES.signInAccountAddress.points
    for (let i = 0; i < limit; i++) expect((await signIn('hedy@example.com', `guess ${i}`, '203.0.113.7')).status).toBe(401)
    for (const password of ['guess again', 'frequency hopping']) {
      const res = await signIn('hedy@example.com', password, '203.0.113.7')
      expect(res.status).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(THROTTLES.signInAccountAddress.duration - 60)
      expect(await res.json()).toEqual({ success: false, message: TOO_MANY_ATTEMPTS, errors: [] })
    }
    // The guesser's address cannot lock the owner out from elsewhere.
    expect((await signIn('hedy@example.com', 'frequency hopping', '198.51.100.200')).status).toBe(200)
  })

  it('locks an account against everyone only after 100 wrong passwords from many addresses; a reset lets its owner back in', async () => {
    await t.signUp('Ida', 'ida@example.com', 'analytical ida')
    const limit = THROTTLES.signInAccount.points
    for (let i = 0; i < limit; i++) expect((await signIn('ida@example.com', `guess ${i}`, `100.100.${i >> 8}.${i & 255}`)).status).toBe(401)
    expect((await signIn('ida@example.com', 'analytical ida', '198.51.100.201')).status).toBe(429)
    await t.call('POST', '/api/auth/local/password-reset', { body: { email: 'ida@example.com' }, headers: from('198.51.100.201') })
    const reset = await t.call('POST', '/api/auth/local/password-reset/confirm', { body: { token: t.mailedSecretFor('ida@example.com', 'reset-password'), password: 'a new ida password' } })
    expect(reset.status).toBe(200)
    expect((await signIn('ida@example.com', 'a new ida password', '198.51.100.201')).status).toBe(200)
  })

  it('stops one address after 30 wrong passwords across accounts (spraying)', async () => {
    const limit = THROTTLES.signInAddress.points
    for (let i = 0; i < limit; i++) expect((await signIn(`user${i}@example.com`, 'Winter2026!', '192.0.2.9')).status).toBe(401)
    expect((await signIn('ada@example.com', 'analytical engine', '192.0.2.9')).status).toBe(429)
    expect((await signIn('ada@example.com', 'analytical engine', '192.0.2.10')).status).toBe(200)
  })

  it('counts a hundred guesses sent at once as a hundred', async () => {
    await t.signUp('Joan', 'joan@example.com', 'clarke cipher')
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn('joan@example.com', `guess ${i}`, '100.64.0.1')))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(THROTTLES.signInAccountAddress.points)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - THROTTLES.signInAccountAddress.points)
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
