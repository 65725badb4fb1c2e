import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, launchChromium, openPage, runBrowserTests, screenshot, watchPolicyViolations } from './harness.ts'
import { startTestProvider, type TestProvider } from './oidcProvider.ts'

/**
 * Sign-in through an external OpenID Connect provider: the provider's own
 * page the first time, silently (no page of the provider shown) once it has a
 * session, and sign-out ending the provider's session too.
 */
describe.skipIf(!runBrowserTests)('sign-in with an external OIDC provider, in Chromium', () => {
  let provider: TestProvider
  let fl0: EmptyTestFl0
  let browser: Browser
  let page: Page
  let errors: string[]
  let violations: string[]

  beforeAll(async () => {
    provider = await startTestProvider()
    ;[fl0, browser] = await Promise.all([startEmptyFl0({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId }), launchChromium()])
    ;({ page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } }))
    // The provider's endpoints, and fl0's callback in the silent sign-in's hidden frame, under fl0's policy.
    violations = await watchPolicyViolations(page)
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
    await provider?.close()
  })

  it("signs in on the provider's page, and fl0 opens a session for the ID token", async () => {
    await page.goto(fl0.url + '/')
    await page.getByRole('heading', { name: 'Test provider' }).waitFor()
    await screenshot(page, 'oidc-01-provider-page')
    await page.getByRole('button', { name: 'Continue as Tess Ter' }).click()
    await page.getByRole('heading', { name: 'Create your Organization' }).waitFor()
    const me = await (await page.request.get(fl0.url + '/api/users/me')).json()
    expect(me).toMatchObject({ email: 'tess@example.com', name: 'Tess Ter' })
    // A silent attempt came first, and the provider said the user had to sign in.
    expect(provider.hits.filter((h) => h.startsWith('/authorize'))).toEqual(['/authorize?prompt=none', '/authorize'])
  })

  it('signs in again silently while the provider still has a session', async () => {
    await page.context().clearCookies({ name: 'fl0_session' })
    const before = provider.hits.length
    await page.goto(fl0.url + '/')
    await page.getByRole('heading', { name: 'Create your Organization' }).waitFor()
    expect(provider.hits.slice(before).filter((h) => h.startsWith('/authorize'))).toEqual(['/authorize?prompt=none'])
  })

  it('logs out of fl0 and of the provider', async () => {
    await createOrganisation(page, 'Tess')
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Log out' }).click()
    // Back at the origin with no session anywhere: the provider shows its page again.
    await page.getByRole('heading', { name: 'Test provider' }).waitFor()
    expect(provider.hits).toContain('/logout')
    expect((await page.request.get(fl0.url + '/api/users/me')).status()).toBe(401)
    expect(errors).toEqual([])
    expect(violations).toEqual([])
  })
})
