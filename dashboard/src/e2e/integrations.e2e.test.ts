import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, launchChromium, openPage, runBrowserTests, screenshot, signUp } from './harness.ts'
import { startParagonStandIn, type ParagonStandIn } from './paragonStandIn.ts'

/**
 * The integrations screen in Chromium against a real fl0 configured with a
 * Paragon project (PARAGON_PROJECT_ID, PARAGON_SIGNING_KEY, PARAGON_SDK_URL).
 * Paragon itself, a third-party service, is replaced by a stand-in
 * (paragonStandIn.ts) that checks fl0's token with the public key as Paragon does.
 */
const PROJECT = '6f1c0e0a-3c1b-4d7e-9a55-2d1f7e1f0a42'
const projectKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rotatedKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })

describe.skipIf(!runBrowserTests)('integrations, in Chromium', () => {
  let fl0: EmptyTestFl0
  let paragon: ParagonStandIn
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let org = ''

  beforeAll(async () => {
    paragon = await startParagonStandIn(projectKeys.publicKey)
    const env = {
      PARAGON_PROJECT_ID: PROJECT,
      // As Paragon's dashboard hands it out, kept on one line with \n escapes, as secret stores often need.
      PARAGON_SIGNING_KEY: (projectKeys.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string).trim().replaceAll('\n', '\\n'),
      PARAGON_SDK_URL: paragon.sdkUrl,
    }
    ;[fl0, browser] = await Promise.all([startEmptyFl0(env), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
    await paragon?.close()
  })

  const integrations = () => page.getByRole('list', { name: 'Integrations' })

  it('authenticates with the token fl0 signs, shows the loader while waiting, then lists the integrations; a button opens its Connect Portal', async () => {
    await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
    org = await createOrganisation(page, 'Acme')
    const me = (await (await page.request.get(`${fl0.url}/api/users/me`)).json()) as { id: string }

    const release = paragon.holdAuthentication()
    await page.getByRole('link', { name: 'Integrations' }).click()
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor()
    await page.getByRole('status', { name: 'Loading integrations' }).waitFor()
    // The screen is now waiting on Paragon's answer, its token already sent.
    await expect.poll(() => paragon.hits.filter((h) => h.endsWith('/sdk/authenticate')).length).toBe(1)
    await screenshot(page, 'integrations-01-loading')
    release()

    await integrations().waitFor()
    expect(await integrations().getByRole('button').allTextContents()).toEqual(['Salesforce', 'HubSpot', 'SlackConnected'])
    expect(paragon.verified).toEqual([{ projectId: PROJECT, sub: me.id }])
    expect(paragon.hits.filter((h) => h === 'GET /sdk/index.js')).toHaveLength(1)
    await screenshot(page, 'integrations-02-list')

    await integrations().getByRole('button', { name: /HubSpot/ }).click()
    const portal = page.getByRole('dialog', { name: 'Connect Portal' })
    await portal.getByText('Connect HubSpot').waitFor()
    await screenshot(page, 'integrations-03-connect-portal')
    await portal.getByRole('button', { name: 'Close' }).click()
    await portal.waitFor({ state: 'detached' })
  })

  it("shows the error text when Paragon refuses the token (the project's key was rotated, fl0 still has the old one)", async () => {
    paragon.registerPublicKey(rotatedKeys.publicKey)
    await page.reload()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toBe('Invalid user token: signature verification failed')
    expect(await integrations().count()).toBe(0)
    await screenshot(page, 'integrations-04-auth-error')
  })

  it("shows 'User is unauthenticated' when the SDK reports the user unauthenticated", async () => {
    paragon.registerPublicKey(projectKeys.publicKey)
    paragon.setSessionsActive(false)
    await page.reload()
    await page.getByRole('alert').filter({ hasText: 'User is unauthenticated' }).waitFor()
    expect(await integrations().count()).toBe(0)
    await screenshot(page, 'integrations-05-unauthenticated')
    paragon.setSessionsActive(true)
  })

  it('with fl0-disable-3rd-party on, loads no SDK and says why', async () => {
    await context.addCookies([{ name: 'fl0-disable-3rd-party', value: 'true', url: fl0.url }])
    const before = paragon.hits.length
    const asked: string[] = []
    page.on('request', (r) => asked.push(r.url()))
    await page.reload()
    await page.getByRole('note').filter({ hasText: 'third-party scripts are turned off' }).waitFor()
    await screenshot(page, 'integrations-06-third-party-off')
    expect(paragon.hits.slice(before)).toEqual([])
    expect(asked.filter((u) => u.includes('paragon-user'))).toEqual([])
    await context.clearCookies({ name: 'fl0-disable-3rd-party' })
    expect(errors).toEqual([])
  })
})
