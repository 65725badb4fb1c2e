import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core'
import { PROVIDER_POOLS, type Company, type Person } from '@fl0/demo'
import type { Job } from '@fl0/contracts/identification'
import { startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { fillSignUp, launchChromium, runBrowserTests, screenshot, watchErrors } from './harness.ts'

/**
 * The admin area in Chromium against a real fl0 filled with the demo's
 * events: the first account (staff) imports partner files made here from the
 * demo's ground truth through the Tools page and the universal table dialog,
 * refreshes, and reads every grid back against what it imported and the
 * events store; a second account, not staff, is refused.
 */
describe.skipIf(!runBrowserTests)('the admin area, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let staff: { context: BrowserContext; page: Page; errors: string[] }
  let member: { context: BrowserContext; page: Page; errors: string[] }
  let orgId = ''

  async function person() {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    return { context, page, errors: watchErrors(page) }
  }

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    orgId = fl0.organisation.org.id
    staff = await person()
    member = await person()
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const world = () => fl0.demo.world
  const upIdOf = (p: Person) => `5x5-${String(p.index + 1).padStart(32, '0')}`
  const ok = (page: Page, text: string | RegExp) => page.locator('[data-kind="ok"]').filter({ hasText: text })
  const info = (page: Page, text: string) => page.locator('[data-kind="info"]').filter({ hasText: text })
  const grid = (page: Page) => page.getByRole('table')
  const bodyRows = (page: Page) => grid(page).locator('tbody > tr')
  const range = (page: Page) => page.getByText(/^\d+–\d+ of \d+$|^0 of 0$/)
  /** The next answer to GET path (with any query), as the screen got it. */
  const nextGrid = (page: Page, path: string, test: (url: URL) => boolean = () => true) =>
    page.waitForResponse((r) => {
      const url = new URL(r.url())
      return r.request().method() === 'GET' && url.pathname === path && test(url)
    })
  const api = async <T>(path: string) => (await (await staff.page.request.get(fl0.url + path)).json()) as T

  /** Runs a Tools import: the chooser opened by the button, the notice while it runs, then the job's own message. */
  async function runImport(page: Page, button: string, progress: string, file: { name: string; content: string }): Promise<Job> {
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: button }).click()
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/api-v2/admin/import-'))
    await (await chooser).setFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.content) })
    await info(page, progress).waitFor()
    return finish(page, await answer)
  }

  async function finish(page: Page, answer: Response): Promise<Job> {
    const job = (await answer.json()) as Job
    expect(answer.status(), job.message).toBe(200)
    await ok(page, job.message).waitFor()
    return job
  }

  const csv = (rows: Array<Array<string | number | null>>) => rows.map((r) => r.map((v) => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v))).join(',')).join('\n') + '\n'

  it('a member who is not staff is refused, on screen and by the API', async () => {
    // The first account is staff; the second is not.
    await staff.page.goto(fl0.url + '/account/sign-up')
    await fillSignUp(staff.page, 'Ada Lovelace', 'ada@example.com')
    await staff.page.waitForURL(/\/organizations\/demo\/people$/)

    const { page } = member
    await page.goto(fl0.url + '/account/sign-up')
    await fillSignUp(page, 'Linus Torvalds', 'linus@example.com')
    await page.getByLabel('Organization name').waitFor()
    await page.goto(fl0.url + '/admin/people-table')
    await page.getByRole('heading', { name: 'Admin area', level: 1 }).waitFor()
    expect(await page.getByRole('alert').textContent()).toBe('Only staff can open the admin area.')
    expect(await page.getByRole('complementary', { name: 'Admin menu' }).count()).toBe(0)
    await screenshot(page, 'admin-01-refused')
    const refused = await page.request.get(fl0.url + '/api-v2/admin/orgs')
    expect(refused.status()).toBe(403)
    expect(await refused.json()).toEqual({ success: false, message: 'Only staff can do this', errors: [] })
    expect(member.errors).toEqual([])
  })

  it('staff open Tools with the admin menu', async () => {
    const { page } = staff
    await page.goto(fl0.url + '/admin')
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor()
    const menu = page.getByRole('navigation', { name: 'Admin sections' })
    expect(await menu.getByRole('link').allTextContents()).toEqual([
      'Tools',
      'People table',
      'Universal table',
      'Pages table',
      'Identified visits table',
      'ip_to_company table',
      'Handle callback',
      'Summary',
    ])
    expect(await page.getByRole('list', { name: 'Tools' }).getByRole('button').allTextContents()).toEqual([
      'Import cookies...',
      'Import ip to company...',
      'Import business intents...',
      'Refresh sessions and people',
      'Refresh pages and activities',
      'Copy people and pages to supabase',
    ])
    await screenshot(page, 'admin-02-tools')
  })
})
