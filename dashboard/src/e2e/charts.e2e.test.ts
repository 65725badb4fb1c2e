import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { MetricDefinition, MetricGraph } from '@fl0/contracts/metrics'
import { launchChromium, openPage, overlaps, runBrowserTests, screenshot, signUp } from './harness.ts'
import { demoUrl, startDemoFl0, waitForLexicon, type DemoFl0 } from './demoFl0.ts'

/**
 * Charts and the metric editor as a user sees them, in Chromium against a real
 * fl0 filled with the demo's events: a breakdown's legend reads each value and
 * the total at the hovered period (and the latest without a cursor), the x
 * labels of 30 daily bars thin out instead of overlapping, the period under
 * way is marked partial, the event picker shows whole though the form scrolls
 * inside, and the saved snackbar stays off Save metric. At 1440×900 and 1280×720.
 */
interface Tick {
  text: string
  left: number
  right: number
}
const shortDay = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

describe.skipIf(!runBrowserTests)('charts and the metric editor, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''
  /** Every graph the page was answered, with the definition asked. */
  const graphs: Array<{ definition: MetricDefinition; graph: MetricGraph }> = []

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    await waitForLexicon(fl0)
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
    page.on('response', async (r) => {
      if (r.request().method() !== 'POST' || !r.url().endsWith('/metrics/graph') || r.status() !== 200) return
      // A graph answered as the test moves to the next page has no body left to read: it is not one the test looks at.
      const graph = (await r.json().catch(() => undefined)) as MetricGraph | undefined
      if (graph) graphs.push({ definition: r.request().postDataJSON() as MetricDefinition, graph })
    })
    base = demoUrl(fl0, '/metrics')
    await context.addCookies([{ name: 'fl0-metrics-breakdown', value: 'true', url: fl0.url }])
    // Signed in: the first account adopts the demo organisation (wherever it lands in it, the tests go to their own pages).
    await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
    await page.waitForURL(/\/organizations\/demo(\/|$)/)
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const group = (name: string) => page.getByRole('radiogroup', { name })
  const choose = (groupName: string, option: string) => group(groupName).getByRole('radio', { name: option, exact: true }).click()
  const preview = () => page.getByRole('region', { name: 'Preview' })
  const legend = () => preview().getByTestId('chart-legend')

  async function addEvent(name: string) {
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('searchbox', { name: 'Search events' }).fill(name)
    await page.getByRole('list', { name: 'Known events' }).getByRole('button', { name, exact: true }).click()
    await page.getByRole('list', { name: 'Events' }).getByRole('listitem', { name, exact: true }).last().waitFor()
  }

  /** The graph answered for the last query asked, once it matches and is drawn. */
  async function settled(is: (d: MetricDefinition) => boolean): Promise<MetricGraph> {
    await expect.poll(() => graphs.length > 0 && is(graphs.at(-1)!.definition), { timeout: 20_000 }).toBe(true)
    await page.locator('section[aria-label="Preview"][aria-busy="false"]').waitFor()
    await preview().getByRole('img', { name: 'Unique users' }).locator('canvas').waitFor()
    return graphs.at(-1)!.graph
  }

  async function legendValues() {
    return legend()
      .getByTestId('legend-series')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-label'), e.getAttribute('data-value')] as const))
  }

  const viewports = [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
  ]
  for (const viewport of viewports) {
    const size = `${viewport.width}x${viewport.height}`

    it(`${size}: a breakdown's legend reads each value and the total where the cursor is, the latest without one; 30 bars' labels do not overlap; the period under way is partial`, async () => {
      await page.setViewportSize(viewport)
      await page.goto(`${base}/new`)
      await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor()
      await addEvent('Logged In')
      await choose('Graph type', 'Bar')
      await page.getByRole('combobox', { name: 'Breakdown trait' }).click()
      await page.getByRole('listbox', { name: 'Breakdown trait' }).getByRole('option', { name: 'role', exact: true }).click()
      const graph = await settled((d) => d.graphType === 'bar' && d.breakdown?.trait === 'role' && d.occurring === 'daily')
      const { labels, datasets } = graph.data
      expect(labels.length).toBe(30)
      expect(datasets.length).toBeGreaterThan(1)
      // The day under way is the one partial period of a daily range.
      expect(graph.data.partial).toEqual([29])
      const chart = preview().getByRole('img', { name: 'Unique users' })
      expect(await chart.getAttribute('data-partial')).toBe('29')

      // No cursor: the latest day, said to be partial, each series with its value, and the total; no dangling colons.
      await expect.poll(() => legend().getByTestId('legend-period').textContent()).toBe(`${shortDay(labels[29]!)}partial`)
      expect(await legendValues()).toEqual(datasets.map((d) => [d.label, String(d.data[29])]))
      expect(await legend().getByTestId('legend-total').textContent()).toBe(`Total${datasets.reduce((n, d) => n + d.data[29]!, 0)}`)
      expect(await legend().textContent()).not.toMatch(/:\s*(:|$)/)
      await legend().getByText('Partial period: not over yet, or cut by the date range').waitFor()

      // Hovering a complete day: its values and their total.
      const i = datasets[0]!.data.findIndex((_, k) => k < 29 && datasets.some((d) => d.data[k]! > 0))
      const over = await chart.locator('.u-over').boundingBox()
      await page.mouse.move(over!.x + ((i + 0.5) / labels.length) * over!.width, over!.y + over!.height / 2)
      await expect.poll(() => legend().getByTestId('legend-period').textContent()).toBe(shortDay(labels[i]!))
      expect(await legendValues()).toEqual(datasets.map((d) => [d.label, String(d.data[i])]))
      expect(await legend().getByTestId('legend-total').textContent()).toBe(`Total${datasets.reduce((n, d) => n + d.data[i]!, 0)}`)
      await screenshot(page, `charts-01-legend-hovered-${size}`)
      await page.mouse.move(5, 5)

      // The axis names as many days as fit, none overlapping another.
      const ticks = JSON.parse((await chart.getAttribute('data-x-ticks'))!) as Tick[]
      expect(ticks.length).toBeGreaterThan(3)
      expect(ticks.length).toBeLessThan(labels.length)
      for (let k = 1; k < ticks.length; k++) expect(ticks[k]!.left).toBeGreaterThan(ticks[k - 1]!.right)
      expect(errors).toEqual([])
    })

    it(`${size}: a weekly line draws the week under way partial, in the legend and on hover`, async () => {
      await choose('Graph type', 'Line')
      await choose('Occurring', 'Weekly')
      const graph = await settled((d) => d.graphType === 'line' && d.occurring === 'weekly')
      const last = graph.data.labels.length - 1
      expect(graph.data.partial).toContain(last)
      const chart = preview().getByRole('img', { name: 'Unique users' })
      expect((await chart.getAttribute('data-partial'))!.split(',')).toContain(String(last))
      const over = await chart.locator('.u-over').boundingBox()
      await page.mouse.move(over!.x + over!.width - 2, over!.y + over!.height / 2)
      await expect.poll(() => legend().getByTestId('legend-period').textContent()).toBe(`Week of ${shortDay(graph.data.labels[last]!)}partial`)
      await screenshot(page, `charts-02-weekly-partial-${size}`)
      await page.mouse.move(5, 5)
    })

    it(`${size}: the event picker shows whole, inside the window and unclipped, where the form scrolls inside; the saved snackbar leaves Save metric clear`, async () => {
      await page.goto(`${base}/new`)
      await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor()
      const open = page.getByRole('button', { name: 'Add event' })
      // The form scrolled so that Add event sits near the bottom of its scrolling box: a panel inside it would be cut there.
      await open.evaluate((button) => {
        let box = button.parentElement
        while (box && getComputedStyle(box).overflowY !== 'auto') box = box.parentElement
        if (box) box.scrollTop += button.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom + 40
      })
      await open.click()
      const picker = page.getByTestId('event-picker')
      await picker.getByRole('list', { name: 'Known events' }).getByRole('button').first().waitFor()
      const seen = await picker.evaluate((panel) => {
        const r = panel.getBoundingClientRect()
        const corners = [
          [r.left + 3, r.top + 3],
          [r.right - 3, r.top + 3],
          [r.left + 3, r.bottom - 3],
          [r.right - 3, r.bottom - 3],
        ]
        return {
          inWindow: r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth,
          // What the user sees at each corner is the panel itself, not the form around it.
          corners: corners.map(([x, y]) => panel.contains(document.elementFromPoint(x!, y!))),
        }
      })
      expect(seen).toEqual({ inWindow: true, corners: [true, true, true, true] })
      await screenshot(page, `charts-03-event-picker-${size}`)
      await page.getByRole('searchbox', { name: 'Search events' }).fill('Logged In')
      await picker.getByRole('list', { name: 'Known events' }).getByRole('button', { name: 'Logged In', exact: true }).click()

      await page.getByLabel('Name', { exact: true }).fill(`Logins ${size}`)
      const save = page.getByRole('button', { name: 'Save metric' })
      const saveBox = (await save.boundingBox())!
      await save.click()
      const snackbar = page.getByRole('status').filter({ hasText: `Metric "Logins ${size}" has been saved` })
      await snackbar.waitFor()
      const barBox = (await snackbar.boundingBox())!
      expect(overlaps(barBox, saveBox)).toBe(false)
      const saveNow = await save.boundingBox()
      if (saveNow) expect(overlaps(barBox, saveNow)).toBe(false)
      await screenshot(page, `charts-04-saved-snackbar-${size}`)
      expect(errors).toEqual([])
    })
  }

  it("draws a custom report's metric cards the same way: values and total in the legend, thinned labels, the first and last months partial", async () => {
    const api = (path: string) => `${fl0.url}${path}`
    const metric = async (name: string, definition: Record<string, unknown>) => {
      const res = await page.request.post(api('/api/orgs/demo/metrics'), { data: { name, description: '', category: 'charts', definition } })
      expect(res.status()).toBe(201)
      return ((await res.json()) as { metricId: string }).metricId
    }
    const byRole = await metric('Logins by role', { events: [{ name: 'Logged In' }], graphType: 'bar', dateRange: 'last30Days', occurring: 'daily', breakdown: { trait: 'role', values: [] } })
    const monthly = await metric('Monthly logins', { events: [{ name: 'Logged In' }], graphType: 'line', dateRange: 'last6Months', occurring: 'monthly' })
    const res = await page.request.post(api('/api/orgs/demo/reports'), { data: { name: 'Charts', metric_ids: [byRole, monthly] } })
    const { report_id } = (await res.json()) as { report_id: string }

    for (const viewport of viewports) {
      await page.setViewportSize(viewport)
      await page.goto(demoUrl(fl0, `/reports/${report_id}`))
      const bars = page.getByRole('article', { name: 'Logins by role' })
      const chart = bars.getByRole('img', { name: 'Unique users' })
      await chart.locator('canvas').waitFor()
      const graph = graphs.findLast((g) => g.definition.breakdown?.trait === 'role' && g.definition.graphType === 'bar')!.graph
      const { labels, datasets } = graph.data
      await expect.poll(() => bars.getByTestId('legend-period').textContent()).toBe(`${shortDay(labels.at(-1)!)}partial`)
      expect(await bars.getByTestId('legend-total').textContent()).toBe(`Total${datasets.reduce((n, d) => n + d.data.at(-1)!, 0)}`)
      const i = 10
      const over = (await chart.locator('.u-over').boundingBox())!
      await page.mouse.move(over.x + ((i + 0.5) / labels.length) * over.width, over.y + over.height / 2)
      await expect.poll(() => bars.getByTestId('legend-period').textContent()).toBe(shortDay(labels[i]!))
      expect(await bars.getByTestId('legend-series').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')))).toEqual(datasets.map((d) => String(d.data[i])))
      expect(await bars.getByTestId('legend-total').textContent()).toBe(`Total${datasets.reduce((n, d) => n + d.data[i]!, 0)}`)
      const ticks = JSON.parse((await chart.getAttribute('data-x-ticks'))!) as Tick[]
      expect(ticks.length).toBeGreaterThan(2)
      for (let k = 1; k < ticks.length; k++) expect(ticks[k]!.left).toBeGreaterThan(ticks[k - 1]!.right)
      await page.mouse.move(5, 5)

      // Six months back from today start mid-month: the first month is cut, the last under way.
      const line = page.getByRole('article', { name: 'Monthly logins' }).getByRole('img', { name: 'Unique users' })
      await line.locator('canvas').waitFor()
      const months = graphs.findLast((g) => g.definition.occurring === 'monthly' && g.definition.dateRange === 'last6Months')!.graph.data
      expect(await line.getAttribute('data-partial')).toBe(String(months.partial))
      expect(months.partial!.at(-1)).toBe(months.labels.length - 1)
      await page.getByRole('article', { name: 'Monthly logins' }).getByText('Partial period: not over yet, or cut by the date range').waitFor()
      await screenshot(page, `charts-05-report-${viewport.width}x${viewport.height}`)
    }
    expect(errors).toEqual([])
  })
})
