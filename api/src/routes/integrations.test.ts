import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import type { ParagonUser } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'
import { parseParagonSigningKey } from '../integrations/paragon.ts'

/**
 * GET /api-v2/orgs/{organization}/integrations/paragon-user: a user token as
 * Paragon's Connect SDK expects it, checked the way Paragon checks it: against
 * the public half of the project's signing key (here a key pair made for the test).
 */
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 })
// Paragon's dashboard hands out PKCS#1 PEM ("BEGIN RSA PRIVATE KEY").
const privatePem = keys.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string
const PROJECT = '38b1f170-0c43-4eae-9a04-ab85325d99f7'

describe('paragon-user, configured', () => {
  let t: TestApi
  let ada: { cookie: string; user: { id: string } }
  beforeAll(async () => {
    t = await createTestApi({ paragon: { projectId: PROJECT, signingKey: privatePem, sdkUrl: 'https://sdk.example.test/paragon.js' } })
    ada = await t.signUpWithOrg('Ada', 'Acme')
  })
  afterAll(() => t.close())

  it('answers an RS256 token for the signed-in user, for this project, valid for an hour; with the project and the SDK address', async () => {
    const res = await t.call('GET', '/api-v2/orgs/acme/integrations/paragon-user', { cookie: ada.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = (await res.json()) as ParagonUser
    expect(body).toMatchObject({ projectId: PROJECT, sdkUrl: 'https://sdk.example.test/paragon.js', expiresAt: '2026-03-02T10:00:00.000Z' })
    expect(decodeProtectedHeader(body.token)).toEqual({ alg: 'RS256', typ: 'JWT' })
    const { payload } = await jwtVerify(body.token, keys.publicKey, {
      algorithms: ['RS256'],
      audience: `useparagon.com/${PROJECT}`,
      subject: ada.user.id,
      currentDate: t.clock.now,
    })
    const iat = Date.parse('2026-03-02T09:00:00.000Z') / 1000
    expect(payload).toEqual({ sub: ada.user.id, aud: `useparagon.com/${PROJECT}`, iat, exp: iat + 3600 })
  })

  it('is refused by the public key of another key pair, and after it expires', async () => {
    const body = (await (await t.call('GET', '/api-v2/orgs/acme/integrations/paragon-user', { cookie: ada.cookie })).json()) as ParagonUser
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
    await expect(jwtVerify(body.token, other.publicKey, { currentDate: t.clock.now })).rejects.toThrow(/signature verification failed/)
    await expect(jwtVerify(body.token, keys.publicKey, { currentDate: new Date(t.clock.now.getTime() + 3601_000) })).rejects.toThrow(/"exp" claim/)
  })

  it('names each user by their own id', async () => {
    const bob = await t.signUp('Bob')
    await t.createOrg(bob.cookie, 'Bob Co')
    const body = (await (await t.call('GET', '/api-v2/orgs/bob-co/integrations/paragon-user', { cookie: bob.cookie })).json()) as ParagonUser
    const { payload } = await jwtVerify(body.token, keys.publicKey, { currentDate: t.clock.now })
    expect(payload.sub).toBe(bob.user.id)
    expect(payload.sub).not.toBe(ada.user.id)
  })

  it('is for members only', async () => {
    expect((await t.call('GET', '/api-v2/orgs/acme/integrations/paragon-user')).status).toBe(401)
    const eve = await t.signUp('Eve')
    expect((await t.call('GET', '/api-v2/orgs/acme/integrations/paragon-user', { cookie: eve.cookie })).status).toBe(404)
  })
})

describe('paragon-user, not configured', () => {
  let t: TestApi
  beforeAll(async () => {
    t = await createTestApi()
  })
  afterAll(() => t.close())

  it('answers 404 naming the settings to make', async () => {
    const { cookie } = await t.signUpWithOrg('Ada', 'Acme')
    const res = await t.call('GET', '/api-v2/orgs/acme/integrations/paragon-user', { cookie })
    expect(res.status).toBe(404)
    const body = (await res.json()) as { message: string }
    expect(body.message).toContain('PARAGON_PROJECT_ID')
    expect(body.message).toContain('PARAGON_SIGNING_KEY')
  })
})

describe('the signing key', () => {
  it('is read from PKCS#1 or PKCS#8 PEM, also with its newlines written as \\n', () => {
    expect(parseParagonSigningKey(privatePem).asymmetricKeyType).toBe('rsa')
    expect(parseParagonSigningKey(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string).asymmetricKeyType).toBe('rsa')
    expect(parseParagonSigningKey(privatePem.trim().replaceAll('\n', '\\n')).asymmetricKeyType).toBe('rsa')
  })

  it('must be an RSA private key', () => {
    expect(() => parseParagonSigningKey('not a key')).toThrow('the Paragon signing key is not a PEM private key')
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    expect(() => parseParagonSigningKey(ec)).toThrow('the Paragon signing key must be an RSA key (RS256), not ec')
  })
})
