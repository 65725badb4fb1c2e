import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'
import { loadConfig } from '@fl0/server'
import { startTestIssuer, type TestIssuer } from './test-issuer.ts'

/**
 * fl0 started with OIDC_ISSUER pointing at a test issuer on localhost: the
 * configuration path end to end (env → config → api), over real HTTP.
 */
let issuer: TestIssuer
let fl0: TestFl0
beforeAll(async () => {
  issuer = await startTestIssuer()
  fl0 = await startTestFl0({ OIDC_ISSUER: issuer.issuer, OIDC_CLIENT_ID: 'fl0-dashboard' })
})
afterAll(async () => {
  await fl0?.stop()
  await issuer?.close()
})

describe('fl0 with an external OIDC issuer', () => {
  it('announces the issuer and signs in with its ID token', async () => {
    expect(await (await fetch(`${fl0.url}/api/auth/config`)).json()).toEqual({ provider: 'oidc', issuer: issuer.issuer, clientId: 'fl0-dashboard' })
    const token = await issuer.sign({ sub: 'u-1', email: 'lin@example.com', name: 'Lin' })
    const res = await fetch(`${fl0.url}/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(res.status).toBe(200)
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!
    expect(await (await fetch(`${fl0.url}/api/users/me`, { headers: { cookie } })).json()).toMatchObject({ email: 'lin@example.com', name: 'Lin', isStaff: true })
  })

  it('turns the built-in provider off', async () => {
    const res = await fetch(`${fl0.url}/api/auth/local/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@b.co', password: 'x' }) })
    expect(res.status).toBe(404)
  })

  it('refuses a configuration with only one of issuer and client id', () => {
    expect(() => loadConfig({ OIDC_ISSUER: issuer.issuer })).toThrow(/set both OIDC_ISSUER and OIDC_CLIENT_ID, or neither/)
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'x' })).toThrow(/set both OIDC_ISSUER and OIDC_CLIENT_ID/)
  })
})
