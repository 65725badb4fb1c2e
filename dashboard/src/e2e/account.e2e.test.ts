import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { launchChromium, openPage, PASSWORD, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/**
 * Local accounts against a hostile network, in Chromium (issue 17): a
 * forgotten password reset by its e-mailed link, which signs out every other
 * session and works once; and a page of the same site on another port, which
 * the browser sends the session cookie from, starting nothing.
 */
describe.runIf(runBrowserTests)('accounts in the browser', () => {
  let fl0: EmptyTestFl0
  let browser: Browser
  let first: OpenedPage
  let second: OpenedPage
  let sibling: Server
  /** fl0 as the browser reaches it: localhost, the site the sibling page shares. */
  let site: string

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startEmptyFl0(), launchChromium()])
    site = `http://localhost:${fl0.port}`
    first = await openPage(browser, { viewport: { width: 1280, height: 800 } })
    second = await openPage(browser, { viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await new Promise((r) => (sibling ? sibling.close(r) : r(null)))
    await browser?.close()
    await fl0?.stop()
  })

  it('resets a forgotten password by the e-mailed link, ending the other sessions; the link works once', async () => {
    await signUp(first.page, { url: site, mailedLink: fl0.mailedLink }, 'Ada Lovelace', 'ada@example.com')
    await first.page.getByRole('heading', { name: 'Create your Organization' }).waitFor()

    const { page } = second
    await page.goto(`${site}/account/sign-in`)
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    expect(await page.getByLabel('Email').inputValue()).toBe('ada@example.com')
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.getByText('If an account uses ada@example.com, we sent it a link to choose a new password.').waitFor()
    await page.getByRole('note').getByText("the link was written to fl0's server log instead").waitFor()
    await screenshot(page, 'account-01-reset-link-sent')

    const { pathname, search } = new URL(await fl0.mailedLink('ada@example.com', 'reset-password'))
    await page.goto(site + pathname + search)
    await page.getByLabel('New password').fill('short')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.getByText('Password must have at least 8 characters').waitFor()
    await page.getByLabel('New password').fill('a brand new password')
    await screenshot(page, 'account-02-new-password')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.getByRole('heading', { name: 'Create your Organization' }).waitFor()

    // The first browser's session ended with the reset.
    await first.page.reload()
    await first.page.waitForURL('**/account/sign-in')

    // The link is spent.
    await page.goto(site + pathname + search)
    await page.getByLabel('New password').fill('yet another password')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor()
    await screenshot(page, 'account-03-link-spent')

    // The old password opens nothing; the new one signs in.
    await first.page.getByLabel('Email').fill('ada@example.com')
    await first.page.getByLabel('Password').fill(PASSWORD)
    await first.page.getByRole('button', { name: 'Sign in' }).click()
    await first.page.getByText('Invalid email or password').waitFor()
    await first.page.getByLabel('Password').fill('a brand new password')
    await first.page.getByRole('button', { name: 'Sign in' }).click()
    await first.page.getByRole('heading', { name: 'Create your Organization' }).waitFor()
  })

  it('a page of the same site on another port, which gets the session cookie sent, starts no admin job and makes no organisation', async () => {
    const cookies = await second.context.cookies(site)
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
    const state = async () => {
      const jobs = (await (await fetch(`${fl0.url}/api-v2/admin/jobs`, { headers: { cookie } })).json()) as { total: number }
      const me = (await (await fetch(`${fl0.url}/api/users/me`, { headers: { cookie } })).json()) as { orgs: unknown[] }
      return { jobs: jobs.total, orgs: me.orgs.length }
    }
    const before = await state()

    // The attacker's page: the three kinds of body a page can send without a preflight, each with the cookie (credentials: 'include').
    const attack = `<!doctype html><title>sibling</title><script>
      const target = ${JSON.stringify(site)}
      const form = new FormData()
      form.append('file', new Blob(['network,company_name,domain\\n192.0.2.0/24,Evil,evil.example\\n'], { type: 'text/csv' }), 'ranges.csv')
      Promise.allSettled([
        fetch(target + '/api-v2/admin/import-ip-to-company', { method: 'POST', body: form, credentials: 'include', mode: 'no-cors' }),
        fetch(target + '/api-v2/admin/refresh-pages-and-activities', { method: 'POST', credentials: 'include', mode: 'no-cors' }),
        fetch(target + '/api/orgs', { method: 'POST', body: JSON.stringify({ name: 'Forged', variant: 'modal' }), headers: { 'content-type': 'text/plain' }, credentials: 'include', mode: 'no-cors' }),
      ]).then(() => { document.title = 'sent' })
    </script>`
    sibling = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attack))
    await new Promise<void>((r) => sibling.listen(0, '127.0.0.1', () => r()))
    // The browser sends all three (with the cookie); their answers are fl0's 403s, which the page cannot read anyway
    // (no-cors, and Cross-Origin-Resource-Policy keeps them from another origin's page).
    const sent: string[] = []
    second.page.on('request', (r) => {
      if (r.url().startsWith(site)) sent.push(`${r.method()} ${new URL(r.url()).pathname}`)
    })
    await second.page.goto(`http://localhost:${(sibling.address() as AddressInfo).port}/`)
    await second.page.waitForFunction(() => document.title === 'sent')

    expect(sent.sort()).toEqual(['POST /api-v2/admin/import-ip-to-company', 'POST /api-v2/admin/refresh-pages-and-activities', 'POST /api/orgs'])
    expect(await state()).toEqual(before)

    // fl0's own pages still change things: the same browser, back on fl0, creates an organisation.
    await second.page.goto(`${site}/`)
    await second.page.getByLabel('Organization name').fill('Acme')
    await second.page.getByRole('button', { name: 'Create organization' }).click()
    await second.page.waitForURL(/\/organizations\/acme$/)
    expect((await state()).orgs).toBe(before.orgs + 1)
  })
})
