import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { createTestApi, daysMs, sessionCookieOf, type TestApi } from '../testing.ts'

/** Sign-in through the built-in provider, end to end on the api: sign-up, token, session, sign-out. */
let t: TestApi
beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

describe('built-in provider', () => {
  it('says which provider signs in', async () => {
    const res = await t.call('GET', '/api/auth/config')
    expect(await res.json()).toEqual({ provider: 'local', issuer: 'http://fl0.test/api/auth/local', clientId: 'fl0' })
  })

  it('signs up, mails a link, and the link issues an ID token that opens a session', async () => {
    const res = await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Ada Lovelace', email: 'Ada@Example.com', password: 'analytical engine' } })
    expect(res.status).toBe(202)
    // No SMTP server here: the link is in the log, and the answer says so (the screen tells the user where to look).
    expect(await res.json()).toEqual({ email: 'ada@example.com', delivery: 'logged' })
    const token = await t.confirmEmail('ada@example.com', 'analytical engine')
    const claims = decodeJwt(token)
    expect(decodeProtectedHeader(token).alg).toBe('ES256')
    expect(claims).toMatchObject({ iss: 'http://fl0.test/api/auth/local', aud: 'fl0', email: 'ada@example.com', name: 'Ada Lovelace' })
    expect(claims.exp! - claims.iat!).toBe(600)

    const signIn = await t.call('POST', '/api/sign-in', { body: { token } })
    expect(signIn.status).toBe(200)
    const { user } = (await signIn.json()) as { user: Record<string, unknown> }
    expect(user).toEqual({
      id: claims.sub,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      isStaff: true, // the first account on a fresh install
      preferences: { isMenuCollapsed: false, defaultOrgUrlCode: null },
      orgs: [],
    })

    const cookie = sessionCookieOf(signIn)
    const me = await t.call('GET', '/api/users/me', { cookie })
    expect(me.status).toBe(200)
    expect(await me.json()).toEqual(user)
  })

  it('sets the session cookie httpOnly, SameSite=Lax, for 30 days, Secure only under https', async () => {
    const token = async () =>
      ((await (await t.call('POST', '/api/auth/local/sign-in', { body: { email: 'ada@example.com', password: 'analytical engine' } })).json()) as { token: string }).token
    const plain = (await t.call('POST', '/api/sign-in', { body: { token: await token() } })).headers.getSetCookie()[0]!
    expect(plain).toMatch(/^fl0_session=[A-Za-z0-9_-]{43}; /)
    expect(plain).toContain('HttpOnly')
    expect(plain).toContain('SameSite=Lax')
    expect(plain).toContain('Path=/')
    expect(plain).not.toContain('Secure')
    expect(new Date(/Expires=([^;]+)/.exec(plain)![1]!).getTime()).toBe(Math.floor((t.clock.now.getTime() + daysMs(30)) / 1000) * 1000)

    const direct = (await t.call('POST', '/api/sign-in', { body: { token: await token() }, url: 'https://fl0.test' })).headers.getSetCookie()[0]!
    expect(direct).toContain('Secure')
    const proxied = (await t.call('POST', '/api/sign-in', { body: { token: await token() }, headers: { 'x-forwarded-proto': 'https' } })).headers.getSetCookie()[0]!
    expect(proxied).toContain('Secure')
  })

  it('makes later accounts not staff', async () => {
    const { user } = await t.signUp('Grace Hopper')
    expect(user.isStaff).toBe(false)
  })

  it('refuses a wrong password and an unknown address alike', async () => {
    for (const body of [
      { email: 'ada@example.com', password: 'difference engine' },
      { email: 'nobody@example.com', password: 'analytical engine' },
    ]) {
      const res = await t.call('POST', '/api/auth/local/sign-in', { body })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ success: false, message: 'Invalid email or password', errors: [] })
    }
  })

  it('makes no second account for an address, and answers as for a new one: only the e-mail to the owner tells', async () => {
    const fresh = await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Mary', email: 'mary@example.com', password: 'another password' } })
    const taken = await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Ada', email: 'ADA@example.com', password: 'another password' } })
    expect([fresh.status, taken.status]).toEqual([202, 202])
    expect(await taken.json()).toEqual({ email: 'ada@example.com', delivery: 'logged' })
    expect((await fresh.json()) as object).toEqual({ email: 'mary@example.com', delivery: 'logged' })
    // The owner is told, with a link to choose a new password; the account and its password are as they were.
    expect(t.mailedSecretFor('ada@example.com', 'account-exists')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const signIn = (password: string) => t.call('POST', '/api/auth/local/sign-in', { body: { email: 'ada@example.com', password } })
    expect((await signIn('another password')).status).toBe(401)
    expect((await signIn('analytical engine')).status).toBe(200)
  })

  it.each([
    [{}, [
      { name: 'name', message: 'Name must be provided' },
      { name: 'email', message: 'Email must be provided' },
      { name: 'password', message: 'Password must be provided' },
    ]],
    [{ name: 'Ann', email: 'ann', password: 'short' }, [
      { name: 'email', message: 'Email must be a valid email address' },
      { name: 'password', message: 'Password must have at least 8 characters' },
    ]],
    [{ name: 'x'.repeat(101), email: `${'a'.repeat(300)}@x.io`, password: 'p'.repeat(201) }, [
      { name: 'name', message: 'Name must have at most 100 characters' },
      { name: 'email', message: 'Email must be at most 300 characters' },
      { name: 'password', message: 'Password must have at most 200 characters' },
    ]],
  ])('sign-up %j answers 400 with field errors', async (body, errors) => {
    const res = await t.call('POST', '/api/auth/local/sign-up', { body })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message: errors[0]!.message, errors })
  })

  it('sign-in asks for both fields', async () => {
    const res = await t.call('POST', '/api/auth/local/sign-in', { body: { email: ' ' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      success: false,
      message: 'Email must be provided',
      errors: [
        { name: 'email', message: 'Email must be provided' },
        { name: 'password', message: 'Password must be provided' },
      ],
    })
  })

  it('answers 400 to a body that is not JSON or not an object', async () => {
    const malformed = await t.call('POST', '/api/auth/local/sign-in', { body: '{"email":' })
    expect(malformed.status).toBe(400)
    expect(((await malformed.json()) as { success: boolean }).success).toBe(false)
    const array = await t.call('POST', '/api/auth/local/sign-in', { body: [] })
    expect(array.status).toBe(400)
    expect(await array.json()).toMatchObject({ errors: [{ name: 'body', message: 'The request body must be a JSON object' }] })
  })

  it('publishes its key set and a discovery document', async () => {
    const jwks = (await (await t.call('GET', '/api/auth/local/jwks')).json()) as { keys: Array<Record<string, unknown>> }
    expect(jwks.keys).toHaveLength(1)
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(jwks.keys[0]).not.toHaveProperty('d') // never the private part
    const discovery = await (await t.call('GET', '/api/auth/local/.well-known/openid-configuration')).json()
    expect(discovery).toMatchObject({ issuer: 'http://fl0.test/api/auth/local', jwks_uri: 'http://fl0.test/api/auth/local/jwks' })
  })
})

describe('sign-in with a token', () => {
  const tokenFor = async (email: string) =>
    ((await (await t.call('POST', '/api/auth/local/sign-in', { body: { email, password: 'correct horse battery' } })).json()) as { token: string }).token

  it('refuses a token whose signature was tampered with', async () => {
    const token = await tokenFor('grace.hopper@example.com')
    const [h, p, s] = token.split('.')
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(token), email: 'ada@example.com' })).toString('base64url')
    for (const bad of [`${h}.${forged}.${s}`, `${h}.${p}.${s!.slice(0, -4)}AAAA`, 'not-a-jwt']) {
      const res = await t.call('POST', '/api/sign-in', { body: { token: bad } })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ success: false, message: 'The sign-in token is not valid', errors: [] })
    }
  })

  it('refuses a token after it expires (10 minutes)', async () => {
    const [early, late] = [await tokenFor('grace.hopper@example.com'), await tokenFor('grace.hopper@example.com')]
    const start = t.clock.now
    try {
      t.clock.now = new Date(start.getTime() + 9 * 60_000)
      expect((await t.call('POST', '/api/sign-in', { body: { token: early } })).status).toBe(200)
      t.clock.now = new Date(start.getTime() + 11 * 60_000)
      expect((await t.call('POST', '/api/sign-in', { body: { token: late } })).status).toBe(401)
    } finally {
      t.clock.now = start
    }
  })

  it('needs a token', async () => {
    const res = await t.call('POST', '/api/sign-in', { body: {} })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message: 'Token must be provided', errors: [{ name: 'token', message: 'Token must be provided' }] })
  })
})

describe('the built-in provider after its database failed', () => {
  it('checks tokens again once the database answers: a failed first read of its key set is not kept', async () => {
    const fresh = await createTestApi()
    try {
      // Just after a restart, the first token to check comes before any is issued, while its key cannot be read.
      await fresh.sql.exec('ALTER TABLE signing_keys RENAME TO signing_keys_away')
      try {
        expect((await fresh.call('POST', '/api/sign-in', { body: { token: 'a.b.c' } })).status).toBe(500)
      } finally {
        await fresh.sql.exec('ALTER TABLE signing_keys_away RENAME TO signing_keys')
      }
      const { cookie } = await fresh.signUp('Grace')
      expect((await fresh.call('GET', '/api/users/me', { cookie })).status).toBe(200)
    } finally {
      await fresh.close()
    }
  })
})

describe('sessions', () => {
  it('end at sign-out: the row is deleted and the cookie cleared', async () => {
    const { cookie } = await t.signUp('Katherine Johnson')
    expect((await t.call('GET', '/api/users/me', { cookie })).status).toBe(200)
    const out = await t.call('POST', '/api/sign-out', { cookie })
    expect(out.status).toBe(204)
    expect(out.headers.getSetCookie()[0]).toMatch(/^fl0_session=; .*Max-Age=0/)
    const after = await t.call('GET', '/api/users/me', { cookie })
    expect(after.status).toBe(401)
    expect(await after.json()).toEqual({ success: false, message: 'Not signed in', errors: [] })
  })

  it('sign-out without a session still answers 204', async () => {
    expect((await t.call('POST', '/api/sign-out')).status).toBe(204)
  })

  it('expire after 30 days', async () => {
    const { cookie } = await t.signUp('Dorothy Vaughan')
    const start = t.clock.now
    try {
      t.clock.now = new Date(start.getTime() + daysMs(30) - 1000)
      expect((await t.call('GET', '/api/users/me', { cookie })).status).toBe(200)
      t.clock.now = new Date(start.getTime() + daysMs(30))
      expect((await t.call('GET', '/api/users/me', { cookie })).status).toBe(401)
    } finally {
      t.clock.now = start
    }
  })

  it('a made-up cookie opens nothing', async () => {
    expect((await t.call('GET', '/api/users/me', { cookie: 'fl0_session=made-up' })).status).toBe(401)
  })
})
