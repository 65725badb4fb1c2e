import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium, openPage, runBrowserTests, screenshot, SCREENSHOTS } from './harness.ts'
import { demoUrl, signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'

/**
 * Reports in Chromium against a real fl0 filled with the demo's events:
 * metrics made through the API, a custom report built in the editor (created
 * once named, its address replaced, name and description autosaved, metrics
 * added from the modal and removed), read back after reloads, deleted; and
 * the Feature Analysis report of a feature made of demo events, its numbers
 * checked against the events store, for users and for companies.
 */
describe.skipIf(!runBrowserTests)('reports, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''
  let reportUrl = ''
  const metricIds: Record<string, string> = {}
  let featureId = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
    base = demoUrl(fl0)
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const api = (path: string) => `${fl0.url}${path}`
  const region = (name: string) => page.getByRole('region', { name, exact: true })
  const cards = () => page.getByRole('article').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
  const savedReport = async () => (await (await page.request.get(api(new URL(reportUrl).pathname.replace('/organizations/demo/reports/', '/api/orgs/demo/reports/')))).json()) as { name: string; description: string; metrics: string[] }

  /** The store's count for the demo organisation over the last `days` days (today included, UTC), as the engine counts members. */
  async function storeCount(what: 'users' | 'companies' | 'uses' | 'active users', events: string[], days: number) {
    const person = "if(user_id != '', user_id, anonymous_id)"
    const where = `org_id = {org:String} AND type = 'track' ${what === 'active users' ? '' : 'AND event IN {events:Array(String)}'}
      AND toDate(timestamp, 'UTC') >= toDate(now(), 'UTC') - {back:UInt32} AND timestamp <= now64(3)`
    const sql =
      what === 'companies'
        ? `WITH pc AS (SELECT ${person} AS person, argMax(group_id, timestamp) AS company FROM events
             WHERE org_id = {org:String} AND type = 'group' AND group_id != '' AND person != '' GROUP BY person)
           SELECT uniqExact(pc.company) AS n FROM (SELECT ${person} AS person FROM events WHERE ${where}) AS e INNER JOIN pc ON pc.person = e.person`
        : `SELECT ${what === 'uses' ? 'count()' : `uniqExact(${person})`} AS n FROM events WHERE ${where}`
    const [row] = await fl0.query<{ n: string }>(sql, { org: fl0.organisation.org.id, events, back: days - 1 })
    return Number(row!.n)
  }

  it("shows 'Reports' with 'No reports found' under both sections before anything exists", async () => {
    await signUpToDemo(page, fl0)
    await page.goto(`${base}/reports`)
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor()
    await region('Custom reports').getByText('No reports found').waitFor()
    await region('Feature reports').getByText('No reports found').waitFor()
    await screenshot(page, 'reports-01-empty')
  })

  it('sets up three metrics and a feature of demo events through the API', async () => {
    const metric = async (name: string, category: string, definition: Record<string, unknown>) => {
      const res = await page.request.post(api('/api/orgs/demo/metrics'), { data: { name, description: `${name} in the demo`, category, definition } })
      expect(res.status()).toBe(201)
      metricIds[name] = ((await res.json()) as { metricId: string }).metricId
    }
    await metric('Reports created', 'product', { events: [{ name: 'Report Created' }], dateRange: 'last30Days', graphType: 'line' })
    await metric('Searches', 'product', { events: [{ name: 'Search Performed' }], measureBy: 'total', graphType: 'bar', dateRange: 'last30Days' })
    await metric('Active users', 'growth', { isAnyEvent: true, graphType: 'metric', dateRange: 'last7Days' })
    const res = await page.request.post(api('/api-v2/orgs/demo/features'), { data: { name: 'Search', events: ['Search Performed'] } })
    expect(res.status()).toBe(201)
    featureId = ((await res.json()) as { id: string }).id
    await page.reload()
    await region('Feature reports').getByRole('link', { name: /Search/ }).waitFor()
  })

  it("creates a report on its first save once named: 'Report name must be given' before, the address replaced after", async () => {
    await page.getByRole('link', { name: 'Create report...' }).click()
    await page.waitForURL(/\/reports\/new$/)
    const historyBefore = await page.evaluate(() => history.length)
    await page.getByLabel('Description').fill('How the product is used')
    await page.getByText('Report name must be given').waitFor()
    expect(await page.request.get(api('/api/orgs/demo/reports')).then((r) => r.json())).toEqual([])
    await screenshot(page, 'reports-02-name-required')

    await page.getByLabel('Name', { exact: true }).fill('Product health')
    await page.waitForURL(/\/reports\/[0-9a-f-]{36}$/)
    reportUrl = page.url()
    // Replaced, not pushed: back does not return to /new.
    expect(await page.evaluate(() => history.length)).toBe(historyBefore)
    await page.getByText('All changes saved').waitFor()
    expect(await savedReport()).toMatchObject({ name: 'Product health', description: 'How the product is used', metrics: [] })
    await page.getByRole('heading', { name: 'Product health', level: 1 }).waitFor()
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('maxlength')).toBe('50')
    expect(await page.getByLabel('Description').getAttribute('maxlength')).toBe('500')
  })

  it('autosaves name and description once typing pauses', async () => {
    await page.getByLabel('Description').fill('How the product is used, week by week')
    await page.getByText('Saving...').waitFor()
    await page.getByText('All changes saved').waitFor()
    expect((await savedReport()).description).toBe('How the product is used, week by week')
    await page.reload()
    expect(await page.getByLabel('Description').inputValue()).toBe('How the product is used, week by week')
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Product health')
  })

  it('adds metrics from the modal: categories with counts, a grid, each saved at once and drawn on its card', async () => {
    await page.getByRole('button', { name: 'Add metric...' }).first().click()
    const modal = page.getByRole('dialog', { name: 'Add metric' })
    const sidebar = modal.getByRole('navigation', { name: 'Categories' })
    await sidebar.getByRole('button').first().waitFor()
    expect(await sidebar.getByRole('button').allTextContents()).toEqual(['All3', 'growth1', 'product2'])
    await sidebar.getByRole('button', { name: /product/ }).click()
    const grid = modal.getByRole('list', { name: 'Metrics to add' })
    expect(await grid.getByRole('button').allTextContents()).toEqual(['Reports createdproduct', 'Searchesproduct'])
    await screenshot(page, 'reports-03-add-metric')
    await grid.getByRole('button', { name: /Reports created/ }).click()
    await modal.waitFor({ state: 'detached' })
    await page.getByRole('article', { name: 'Reports created' }).getByRole('img', { name: 'Unique users' }).waitFor()

    for (const name of ['Searches', 'Active users']) {
      await page.getByRole('button', { name: 'Add metric...' }).first().click()
      await modal.getByRole('list', { name: 'Metrics to add' }).getByRole('button', { name: new RegExp(name) }).click()
      await modal.waitFor({ state: 'detached' })
    }
    await page.getByRole('article', { name: 'Searches' }).getByRole('img', { name: 'Total events' }).waitFor()
    // The big number of 'Active users' is the store's count of people active in the last 7 days.
    const active = page.getByRole('article', { name: 'Active users' }).locator('[data-value]')
    await active.waitFor()
    expect(Number(await active.getAttribute('data-value'))).toBe(await storeCount('active users', [], 7))
    await page.getByText('All changes saved').waitFor()
    expect((await savedReport()).metrics).toEqual([metricIds['Reports created'], metricIds.Searches, metricIds['Active users']])
    // Each card's Edit goes to the metric editor.
    expect(await page.getByRole('article', { name: 'Searches' }).getByRole('link', { name: 'Edit Searches' }).getAttribute('href')).toBe(`/organizations/demo/metrics/${metricIds.Searches}`)
    await screenshot(page, 'reports-04-cards')
  })

  it('reads the report back after a reload: its metrics in order, and the list counts them', async () => {
    await page.reload()
    await page.getByRole('article', { name: 'Active users' }).locator('[data-value]').waitFor()
    expect(await cards()).toEqual(['Reports created', 'Searches', 'Active users'])
    await page.getByRole('article', { name: 'Reports created' }).locator('canvas').first().waitFor()
    await screenshot(page, 'reports-05-reloaded')

    await page.getByRole('article', { name: 'Searches' }).getByRole('button', { name: 'Remove Searches' }).click()
    await page.getByText('All changes saved').waitFor()
    await page.reload()
    await page.getByRole('article', { name: 'Active users' }).waitFor()
    expect(await cards()).toEqual(['Reports created', 'Active users'])

    await page.getByRole('link', { name: 'Reports', exact: true }).first().click()
    const row = region('Custom reports').getByRole('link', { name: /Product health/ })
    await row.waitFor()
    expect(await row.textContent()).toContain('2 metric(s)')
    await screenshot(page, 'reports-06-list')
  })

  it('opens the Feature Analysis report of a demo feature: its numbers are the store\'s, for users and for companies', async () => {
    await region('Feature reports').getByRole('link', { name: /Search/ }).click()
    await page.waitForURL(new RegExp(`/reports/features/${featureId}$`))
    await page.getByRole('heading', { name: 'Search', level: 1 }).waitFor()
    const active = region('Active users')
    await active.waitFor()
    const events = ['Search Performed']
    const [users7, users30, uses7] = await Promise.all([storeCount('users', events, 7), storeCount('users', events, 30), storeCount('uses', events, 7)])
    expect(users30).toBeGreaterThan(0)
    await active.getByLabel(`Last 7 days: ${users7}`).waitFor()
    await active.getByLabel(`Last 30 days: ${users30}`).waitFor()
    await page.getByLabel(`Uses, last 7 days: ${uses7}`).waitFor()
    // The feature's users of everyone active, shown as the report rounds it: whole percents, one decimal under 10%.
    const share = (users7 / (await storeCount('active users', [], 7))) * 100
    const shown = share < 10 && share > 0 ? share.toFixed(1).replace(/\.0$/, '') : String(Math.round(share))
    await page.getByLabel(`Adoption, last 7 days: ${shown}%`).waitFor()
    await region('Daily active users, last 30 days').locator('canvas').first().waitFor()
    await screenshot(page, 'reports-07-feature-users')
    const months = region('Uses by month, last year')
    await months.scrollIntoViewIfNeeded()
    // Last year is twelve calendar months back to the day after, in the organisation's zone (UTC here): thirteen months,
    // the first and last cut by the range, unless today is the last day of its month a year before (30 November: from
    // 1 December), then twelve whole ones.
    const today = new Date()
    const monthLengthAYearBefore = new Date(Date.UTC(today.getUTCFullYear() - 1, today.getUTCMonth() + 1, 0)).getUTCDate()
    expect(await months.getByRole('row').count()).toBe(1 + (today.getUTCDate() >= monthLengthAYearBefore ? 12 : 13)) // and the header
    await page.screenshot({ path: `${SCREENSHOTS}reports-07b-feature-list.png` })

    await page.getByRole('radio', { name: 'Companies' }).click()
    const companies = region('Active companies')
    await companies.waitFor()
    const companies7 = await storeCount('companies', events, 7)
    await companies.getByLabel(`Last 7 days: ${companies7}`).waitFor()
    await region('Daily active companies, last 30 days').locator('canvas').first().waitFor()
    await screenshot(page, 'reports-08-feature-companies')
  })

  it('switches to another report from the switcher, and deletes the custom report after its confirmation', async () => {
    await page.getByRole('combobox', { name: 'Switch report' }).selectOption({ label: 'Product health' })
    await page.waitForURL(reportUrl)
    await page.getByRole('article', { name: 'Active users' }).waitFor()
    await page.getByRole('button', { name: 'Delete...' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete report' })
    await confirm.getByText('Are you sure you want to delete the report "Product health"?').waitFor()
    await screenshot(page, 'reports-09-delete-confirm')
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Deleted report Product health successfully').waitFor()
    await page.waitForURL(`${base}/reports`)
    await region('Custom reports').getByText('No reports found').waitFor()
    expect((await page.request.get(reportUrl.replace('/organizations/demo/reports/', '/api/orgs/demo/reports/'))).status()).toBe(404)
    expect(errors).toEqual([])
  })
})
