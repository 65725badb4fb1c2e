import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, fillSignUp, launchChromium, menu, openPage, PASSWORD, runBrowserTests, screenshot } from './harness.ts'

/**
 * The shell in Chromium against a real fl0 (API, sessions, PGlite): sign up,
 * create an organisation through the form, the menu's saved collapse, the
 * organisation switcher, the AI layout, sign-out and sign-in.
 */
describe.skipIf(!runBrowserTests)('the dashboard shell, in Chromium', () => {
  let fl0: EmptyTestFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let acme = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startEmptyFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('signs up and creates an organisation through the form, landing on its home', async () => {
    await page.goto(fl0.url + '/')
    await page.waitForURL('**/account/sign-in')
    await page.getByRole('link', { name: 'Sign up' }).click()
    await fillSignUp(page, 'Ada Lovelace', 'ada@example.com')
    // No mail server: the screen says where the link went instead of leaving the user waiting for an e-mail.
    await page.getByText('We sent a link to ada@example.com. Follow it to confirm your address and sign in.').waitFor()
    await page.getByRole('note').getByText("the link was written to fl0's server log instead").waitFor()
    await screenshot(page, 'shell-00-check-your-email')
    const { pathname, search } = new URL(await fl0.mailedLink('ada@example.com', 'verify-email'))
    await page.goto(fl0.url + pathname + search)
    await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor()
    await page.getByLabel('Password').fill(PASSWORD)
    await screenshot(page, 'shell-00b-confirm-email')
    await page.getByRole('button', { name: 'Confirm and sign in' }).click()
    await page.getByRole('heading', { name: 'Create your Organization' }).waitFor()
    await screenshot(page, 'shell-01-create-organization')

    // Rule set A, on screen: the server's own rules agree, but the form says it first.
    await page.getByLabel('Organization name').fill('1acme')
    await page.getByRole('button', { name: 'Create organization' }).click()
    await page.getByText('Organization name must start with a-z (lowercase), or A-Z (uppercase)').waitFor()
    await screenshot(page, 'shell-02-create-organization-error')

    acme = await createOrganisation(page, 'Acme')
    await page.getByRole('heading', { name: 'People' }).waitFor()
    expect(await menu(page).getAttribute('data-layout')).toBe('normal')
    expect(await menu(page).getByRole('link').allTextContents()).toEqual(['People', 'Data sources', 'Integrations'])
    await screenshot(page, 'shell-03-home')
  })

  it('collapses the menu and finds it collapsed after a reload', async () => {
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/users/me/preferences') && r.request().method() === 'PATCH')
    await page.getByRole('button', { name: 'Collapse menu' }).click()
    expect((await saved).status()).toBe(200)
    await page.reload()
    await page.getByRole('heading', { name: 'People' }).waitFor()
    expect(await menu(page).getAttribute('data-collapsed')).toBe('true')
    await screenshot(page, 'shell-04-collapsed-after-reload')

    const expanded = page.waitForResponse((r) => r.url().endsWith('/api/users/me/preferences') && r.request().method() === 'PATCH')
    await page.getByRole('button', { name: 'Expand menu' }).click()
    await expanded
    await page.reload()
    await page.getByRole('heading', { name: 'People' }).waitFor()
    expect(await menu(page).getAttribute('data-collapsed')).toBe('false')
  })

  it('creates a second organisation from the switcher and switches between them', async () => {
    await page.getByRole('button', { name: 'Switch organization' }).click()
    await page.getByRole('menuitem', { name: 'Create organization...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create organization' })
    // Rule set B: spaces are fine here.
    await dialog.getByLabel('Organization name').fill('Globex Labs')
    await dialog.getByRole('button', { name: 'Create', exact: true }).click()
    // An organisation's address opens its home (screens/home).
    await page.waitForURL((url) => /^\/organizations\/[^/]+$/.test(url.pathname) && url.pathname !== `/organizations/${acme}`)
    const globex = new URL(page.url()).pathname.split('/')[2]
    // The switcher names the new organisation once the page has it (the address changes first).
    await page.getByRole('button', { name: 'Switch organization' }).filter({ hasText: 'Globex Labs' }).waitFor()

    await page.getByRole('button', { name: 'Switch organization' }).click()
    await screenshot(page, 'shell-05-switcher')
    await page.getByRole('menuitem', { name: 'Acme' }).click()
    await page.waitForURL(`**/organizations/${acme}`)
    await page.getByRole('button', { name: 'Switch organization' }).filter({ hasText: 'Acme' }).waitFor()

    // The last organisation opened is the default: '/' returns to it. The switch to Acme saved Acme, and its answer
    // may come after this wait starts (a loaded machine): the wait is for the save of Globex.
    const remembered = page.waitForResponse(
      (r) => r.url().endsWith('/api/users/me/preferences') && (r.request().postDataJSON() as { defaultOrgUrlCode?: string } | null)?.defaultOrgUrlCode === globex,
    )
    await page.goto(`${fl0.url}/organizations/${globex}/data-sources`)
    await page.getByRole('heading', { name: 'Data sources' }).waitFor()
    expect((await remembered).ok()).toBe(true)
    await page.goto(fl0.url + '/')
    await page.waitForURL(`**/organizations/${globex}`)
  })

  it('turns on fl0-ai: the AI layout, with Data model open on /lexicon, and home goes to /reports', async () => {
    await context.addCookies([{ name: 'fl0-ai', value: 'true', url: fl0.url }])
    await page.goto(`${fl0.url}/organizations/${acme}/lexicon`)
    await page.getByRole('heading', { name: 'Lexicon' }).waitFor()
    expect(await menu(page).getAttribute('data-layout')).toBe('ai')
    expect(await page.getByRole('button', { name: 'Data model' }).getAttribute('aria-expanded')).toBe('true')
    expect(await menu(page).getByRole('link').allTextContents()).toEqual(['Reports', 'AI scoring', 'People', 'Metrics', 'Features', 'Connections', 'Lexicon'])
    expect(await menu(page).getByRole('link', { name: 'Lexicon' }).getAttribute('aria-current')).toBe('page')
    await screenshot(page, 'shell-06-ai-layout-lexicon')

    await page.goto(`${fl0.url}/organizations/${acme}`)
    await page.waitForURL(`**/organizations/${acme}/reports`)
    expect(await page.getByRole('button', { name: 'Data model' }).getAttribute('aria-expanded')).toBe('false')
    await context.clearCookies({ name: 'fl0-ai' })
  })

  it('logs out from the user menu, back to the origin, and signs in again', async () => {
    await page.getByRole('button', { name: 'User menu' }).click()
    const userMenu = page.getByRole('menu', { name: 'User menu' })
    expect(await userMenu.textContent()).toContain('ada@example.com')
    await screenshot(page, 'shell-07-user-menu')
    await userMenu.getByRole('menuitem', { name: 'Log out' }).click()
    await page.waitForURL('**/account/sign-in')
    // The session is gone on the server too.
    expect((await page.request.get(fl0.url + '/api/users/me')).status()).toBe(401)

    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Invalid email or password').waitFor()
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/organizations\/[^/]+$/)
    expect(errors).toEqual([])
  })
})
