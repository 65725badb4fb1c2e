import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { HomeSummary } from '@fl0/contracts/home'
import { DEFAULT_RULE } from '@fl0/demo'
import { demoUrl, signUpToDemo, startDemoFl0, waitForIdentity, waitForLexicon, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, menu, openPage, overlaps, runBrowserTests, screenshot, SIZES } from './harness.ts'

/**
 * Every screen of the specification, as a user first sees it, in Chromium at
 * the two sizes the dashboard is checked at (issue 22): a real fl0 with the
 * demo's events, one signed-in staff account, a metric, a report and a
 * scoring model made through the API so that their pages have something to
 * show. On each screen: its heading in view, no uncaught error, no error
 * panel or error snackbar, nothing wider than the window (the page's own
 * scrolling box, <main>, included), and a screenshot to look at
 * (dashboard/test-results/every-*.png). Then the snackbar of a saved metric,
 * at 1280×720, clear of the user menu and of Save metric.
 */
interface Screen {
  /** The screenshot's name. */
  name: string
  /** Under the demo organisation ('/metrics'), or from the site's root when it starts with '//'. */
  path: string
  /** The page's h1. */
  heading: string | RegExp
  /** What else shows once the screen has its data, when a spinner is not the only sign of loading. */
  ready?: (page: Page) => ReturnType<Page['locator']>
}


describe.skipIf(!runBrowserTests)('every screen at 1440×900 and 1280×720, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let page: Page
  let errors: string[]
  const made = { metricId: '', metricName: 'Logins by role', reportId: '', reportName: 'Weekly review', analysisId: '', modelName: 'Who upgrades' }
  let home: HomeSummary

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    await Promise.all([waitForIdentity(fl0), waitForLexicon(fl0)])
    ;({ page, errors } = await openPage(browser, { viewport: SIZES[0] }))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  /** The screen has its data: its heading, and no spinner left anywhere on it. */
  async function settled(screen: Screen) {
    const heading = page.getByRole('heading', { level: 1, name: screen.heading }).first()
    await heading.waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => !document.querySelector('.animate-spin'), undefined, { timeout: 30_000 })
    if (screen.ready) await screen.ready(page).first().waitFor({ timeout: 30_000 })
    return heading
  }

  /** What a user would see broken, at the current size; then its screenshot. */
  async function check(screen: Screen, size: (typeof SIZES)[number]) {
    const heading = await settled(screen)
    const box = await heading.boundingBox()
    expect(box, `${screen.name}: the heading has a box`).not.toBeNull()
    expect(box!.y >= 0 && box!.y + box!.height <= size.height && box!.x >= 0 && box!.x + box!.width <= size.width, `${screen.name}: the heading is in view`).toBe(true)
    const overflow = await page.evaluate(() => {
      const root = document.scrollingElement!
      const main = document.querySelector('main')
      return { page: root.scrollWidth - window.innerWidth, main: main ? main.scrollWidth - main.clientWidth : 0 }
    })
    expect(overflow, `${screen.name} at ${size.width}: nothing wider than the window`).toEqual({ page: expect.any(Number), main: expect.any(Number) })
    expect(overflow.page, `${screen.name} at ${size.width}: the page scrolls sideways`).toBeLessThanOrEqual(0)
    expect(overflow.main, `${screen.name} at ${size.width}: <main> scrolls sideways`).toBeLessThanOrEqual(0)
    expect(await page.getByRole('alert').allInnerTexts(), `${screen.name} at ${size.width}: no error shown`).toEqual([])
    expect(errors, `${screen.name} at ${size.width}: no uncaught error`).toEqual([])
    await screenshot(page, `every-${screen.name}-${size.width}`)
    // The shell scrolls inside <main>: the foot of a long page, shot too.
    const scrolls = await page.evaluate(() => {
      const main = document.querySelector('main')
      if (!main || main.scrollHeight <= main.clientHeight + 8) return false
      main.scrollTo(0, main.scrollHeight)
      return true
    })
    if (scrolls) {
      await screenshot(page, `every-${screen.name}-${size.width}-foot`)
      await page.evaluate(() => document.querySelector('main')?.scrollTo(0, 0))
    }
  }

  /** Opens the screen at the larger size, checks it, then at the smaller one. */
  async function visit(screen: Screen) {
    await page.setViewportSize(SIZES[0])
    await page.goto(screen.path.startsWith('//') ? fl0.url + screen.path.slice(1) : demoUrl(fl0, screen.path))
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await check(screen, size)
    }
  }

  it('the account screens, before signing up', async () => {
    await visit({ name: 'account-sign-in', path: '//account/sign-in', heading: /sign in/i })
    await visit({ name: 'account-sign-up', path: '//account/sign-up', heading: /sign up|create/i })
  })

  it("signs up to the demo organisation (staff) and makes what the screens show: a metric, a report, a scoring model", async () => {
    await page.setViewportSize(SIZES[0])
    await signUpToDemo(page, fl0)
    const post = async <T>(path: string, data: unknown) => {
      const res = await page.request.post(`${fl0.url}${path}`, { data })
      expect(res.status(), `${path}: ${await res.text()}`).toBe(201)
      return (await res.json()) as T
    }
    const metric = (name: string, definition: Record<string, unknown>) => post<{ metricId: string }>('/api/orgs/demo/metrics', { name, description: '', category: 'growth', definition }).then((m) => m.metricId)
    made.metricId = await metric(made.metricName, { events: [{ name: 'Logged In' }], graphType: 'bar', dateRange: 'last30Days', occurring: 'weekly', breakdown: { trait: 'role', values: [] } })
    const upgrades = await metric('Upgrades', { events: [{ name: DEFAULT_RULE.conversion }], graphType: 'line', dateRange: 'last30Days' })
    made.reportId = (await post<{ report_id: string }>('/api/orgs/demo/reports', { name: made.reportName, metric_ids: [made.metricId, upgrades] })).report_id
    made.analysisId = (await post<{ analysisId: string }>('/api-v2/orgs/demo/scoring/scoring-models/create-new-model', { name: made.modelName, metricId: upgrades })).analysisId
    home = (await (await page.request.get(`${fl0.url}/api-v2/orgs/demo/home`)).json()) as HomeSummary
    expect(home.people.top.length).toBeGreaterThan(0)
    expect(home.companies.top.length).toBeGreaterThan(0)
    // The model trains in the server's runner: its page is shot once it is done, whichever way.
    await expect
      .poll(async () => ((await (await page.request.get(`${fl0.url}/api-v2/orgs/demo/scoring/scoring-models/${made.analysisId}`)).json()) as { status: string }).status, { timeout: 120_000, interval: 500 })
      .toMatch(/completed|failed/)
  }, 180_000)

  it('the home, People, its Audiences tab, a user profile and a company profile', async () => {
    await visit({ name: 'home', path: '', heading: 'This week' })
    // The rest with the AI layout's menu (fl0-ai), where Reports, AI scoring and the data model are.
    await page.context().addCookies([{ name: 'fl0-ai', value: 'true', url: fl0.url }])
    await visit({ name: 'people', path: '/people', heading: 'People', ready: (p) => p.locator('main table tbody tr') })
    await visit({ name: 'people-audiences', path: '/people/audiences', heading: 'People' })
    const person = home.people.top[0]!
    await visit({ name: 'user-profile', path: `/people/users/${encodeURIComponent(person.id)}`, heading: person.name })
    const company = home.companies.top[0]!
    await visit({ name: 'company-profile', path: `/people/companies/${encodeURIComponent(company.domain)}`, heading: company.name })
    await visit({ name: 'company-page', path: `/companies/${encodeURIComponent(company.domain)}`, heading: company.name })
  }, 120_000)

  it('metrics, a metric, reports, a report, features, connections, data sources, integrations, lexicon', async () => {
    await visit({ name: 'metrics', path: '/metrics', heading: 'Metrics', ready: (p) => p.getByText(made.metricName) })
    await visit({ name: 'metric', path: `/metrics/${made.metricId}`, heading: made.metricName, ready: (p) => p.locator('main canvas') })
    await visit({ name: 'reports', path: '/reports', heading: /reports/i, ready: (p) => p.getByText(made.reportName) })
    await visit({ name: 'report', path: `/reports/${made.reportId}`, heading: made.reportName, ready: (p) => p.locator('main canvas') })
    await visit({ name: 'features', path: '/features', heading: 'Your features' })
    await visit({ name: 'connections', path: '/connections', heading: 'Connections' })
    await visit({ name: 'data-sources', path: '/data-sources', heading: 'Data sources' })
    await visit({ name: 'integrations', path: '/integrations', heading: 'Integrations' })
    await visit({ name: 'lexicon', path: '/lexicon', heading: 'Lexicon', ready: (p) => p.locator('main table tbody tr') })
  }, 120_000)

  it('the scoring gallery and a model, the organisation settings', async () => {
    await visit({ name: 'scoring', path: '/scoring', heading: 'AI Scoring Models', ready: (p) => p.getByRole('article', { name: made.modelName }) })
    await visit({ name: 'scoring-model', path: `/scoring/${made.analysisId}`, heading: made.modelName })
    await visit({ name: 'settings', path: '/settings', heading: 'Organization settings', ready: (p) => p.getByText('ada@example.com') })
  }, 120_000)

  it('the admin area, as staff', async () => {
    for (const [path, heading] of [
      ['', 'Tools'],
      ['/people-table', 'People table'],
      ['/universal-table', 'Universal table'],
      ['/pages-table', 'Pages table'],
      ['/identified-visits-table', 'Identified visits table'],
      ['/ip-to-company-table', 'ip_to_company table'],
      ['/handle-callback', 'Handle callback'],
      ['/summary', 'Summary'],
    ] as const) {
      await visit({ name: `admin${path.replace('/', '-') || '-tools'}`, path: `//admin${path}`, heading })
    }
  }, 120_000)

  it("at 1280×720 a saved metric's snackbar covers neither the user menu nor Save metric", async () => {
    await page.setViewportSize(SIZES[1])
    await page.goto(demoUrl(fl0, `/metrics/${made.metricId}`))
    await settled({ name: 'metric', path: '', heading: made.metricName })
    const save = page.getByRole('button', { name: 'Save metric' })
    const userMenu = menu(page).getByRole('button', { name: 'User menu' })
    const [saveBox, userBox] = [await save.boundingBox(), await userMenu.boundingBox()]
    expect(saveBox).not.toBeNull()
    expect(userBox).not.toBeNull()
    await save.click()
    const snackbar = page.getByRole('status').filter({ hasText: `Metric "${made.metricName}" has been saved` })
    await snackbar.waitFor()
    // Measured once it has settled in (its enter animation slides it 8 px).
    await snackbar.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)))
    const barBox = (await snackbar.boundingBox())!
    expect(overlaps(barBox, saveBox!), 'the snackbar covers Save metric').toBe(false)
    expect(overlaps(barBox, userBox!), 'the snackbar covers the user menu').toBe(false)
    // Nor does it cover the page's heading.
    expect(overlaps(barBox, (await page.getByRole('heading', { level: 1 }).boundingBox())!)).toBe(false)
    await screenshot(page, 'every-snackbar-1280')
    expect(errors).toEqual([])
  })
})
