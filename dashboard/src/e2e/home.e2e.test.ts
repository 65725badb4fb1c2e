import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { HomeSummary } from '@fl0/contracts/home'
import { demoUrl, startDemoFl0, waitForIdentity, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/**
 * The organisation's home in Chromium against a real fl0 filled with the
 * demo's events: after sign-up the user lands on it and sees this week's
 * companies and people (as the home's one API call answers them), each
 * linked to its page or profile, and the top pages; with the ai toggle the
 * home redirects to /reports, as the specification says.
 */
describe.skipIf(!runBrowserTests)('the organisation home, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let user: OpenedPage
  let home: HomeSummary

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    await waitForIdentity(fl0)
    user = await openPage(browser, { viewport: { width: 1440, height: 900 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it("lands on the home after sign-up: this week's companies and people with links, and the top pages", async () => {
    const { page } = user
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api-v2/orgs/demo/home')
    await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
    await page.waitForURL(/\/organizations\/demo$/)
    await page.getByRole('heading', { level: 1, name: 'This week' }).waitFor()
    const res = await answered
    expect(res.status()).toBe(200)
    home = (await res.json()) as HomeSummary
    // The demo's last days have visits: something to show.
    expect(home.people.active).toBeGreaterThan(0)
    expect(home.companies.active).toBeGreaterThan(0)
    expect(home.pages.length).toBeGreaterThan(0)

    const stat = (name: string) => page.getByRole('region', { name: `${name} this week` })
    await expect.poll(() => stat('Companies').textContent(), { timeout: 20_000 }).toContain(`${home.companies.active.toLocaleString('en-US')}${home.companies.new.toLocaleString('en-US')} new since last week`)
    expect(await stat('People').textContent()).toContain(`${home.people.active.toLocaleString('en-US')}${home.people.new.toLocaleString('en-US')} new since last week`)

    const companies = page.getByRole('region', { name: 'Companies', exact: true })
    for (const c of home.companies.top) {
      expect(await companies.getByRole('link', { name: c.name, exact: true }).getAttribute('href')).toBe(`/organizations/demo/companies/${encodeURIComponent(c.domain)}`)
    }
    const people = page.getByRole('region', { name: 'People', exact: true })
    for (const p of home.people.top) {
      expect(await people.getByRole('link', { name: p.name, exact: true }).getAttribute('href')).toBe(`/organizations/demo/people/users/${encodeURIComponent(p.id)}`)
    }
    const pages = page.getByRole('region', { name: 'Top pages' })
    expect(await pages.locator('tbody tr').count()).toBe(home.pages.length)
    expect(await pages.getByRole('link', { name: home.pages[0]!.path, exact: true }).getAttribute('href')).toBe(home.pages[0]!.url)
    await screenshot(page, 'home-01-1440')
    await page.setViewportSize({ width: 1280, height: 720 })
    await screenshot(page, 'home-02-1280')
    // The page scrolls inside the shell's main area: the top pages, further down.
    await pages.scrollIntoViewIfNeeded()
    await screenshot(page, 'home-03-top-pages-1280')
  })

  it("a person's link opens their profile, a company's its page", async () => {
    const { page } = user
    const person = home.people.top[0]!
    await page.getByRole('region', { name: 'People', exact: true }).getByRole('link', { name: person.name, exact: true }).click()
    await page.waitForURL(`**/organizations/demo/people/users/${encodeURIComponent(person.id)}`)
    await page.getByRole('heading', { name: person.name }).first().waitFor()
    await page.goBack()
    const company = home.companies.top[0]!
    await page.getByRole('region', { name: 'Companies', exact: true }).getByRole('link', { name: company.name, exact: true }).click()
    await page.waitForURL(`**/organizations/demo/companies/${encodeURIComponent(company.domain)}`)
    await page.getByRole('heading', { name: company.name }).first().waitFor()
  })

  it('with the ai toggle the home redirects to /reports', async () => {
    const { page, context } = user
    await context.addCookies([{ name: 'fl0-ai', value: 'true', url: fl0.url }])
    await page.goto(demoUrl(fl0))
    await page.waitForURL(/\/organizations\/demo\/reports$/)
    await context.clearCookies({ name: 'fl0-ai' })
    await page.goto(demoUrl(fl0))
    await page.getByRole('heading', { level: 1, name: 'This week' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/organizations/demo')
    expect(user.errors).toEqual([])
  })
})
