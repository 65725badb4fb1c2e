import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { shortNumber } from '../ui/format.ts'
import { startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, menu, openPage, runBrowserTests, screenshot, signUp } from './harness.ts'

/**
 * Connections and data sources in Chromium against a real fl0 filled with demo
 * data through its ingest: the demo's sources and their numbers checked against
 * the events store, a snippet source created (its snippet copied before saving
 * and then used by a site), edited and deleted, every validation message, the
 * copy buttons with the real clipboard, the Segment source's webhook (its URL
 * and secret copied, then used as Segment would use them), the empty state of a
 * second organisation, and the data-sources page.
 */
describe.skipIf(!runBrowserTests)('connections and data sources, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let newKey = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 860 } }))
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fl0.url })
    // The AI layout, whose Data model group holds Connections (part 1 §2).
    await context.addCookies([{ name: 'fl0-ai', value: 'true', url: fl0.url }])
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const readClipboard = () => page.evaluate(() => navigator.clipboard.readText())
  const snackbar = (text: string) => page.getByText(text, { exact: true }).first()
  const card = (name: string) => page.getByRole('list', { name: 'Sources' }).getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) })
  const statValue = (drawer: Locator, label: string) => drawer.getByRole('group', { name: label }).getByTestId('stat-value')

  /** Clicks Save and waits for the message beside a field. */
  async function expectFieldError(drawer: Locator, message: string) {
    await drawer.getByRole('button', { name: 'Save' }).click()
    await drawer.getByText(message, { exact: true }).waitFor()
  }

  const track = (writeKey: string, body: Record<string, unknown>, path = '/v1/track') =>
    fetch(`${fl0.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}` },
      body: JSON.stringify(body),
    })

  it('the first account signs up, adopts the demo organisation and opens Connections from the Data model menu', async () => {
    await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
    await page.waitForURL(/\/organizations\/demo\/reports$/)
    const model = menu(page).getByRole('group', { name: 'Data model' })
    await model.getByRole('button', { name: 'Data model' }).click()
    await model.getByRole('link', { name: 'Connections' }).click()
    await page.waitForURL('**/organizations/demo/connections')
    await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor()
    await page.getByRole('button', { name: 'Add source...' }).waitFor()
  })

  it('shows the demo sources joined to the product; the snippet card has its domain and Detected', async () => {
    const snippet = card('js-snippet')
    await snippet.waitFor()
    expect(await snippet.textContent()).toContain('demo.fl0.dev')
    await snippet.getByText('Detected', { exact: true }).waitFor()
    await card('segment').waitFor()
    expect(await page.getByTestId('source-lines').locator('path').count()).toBe(2)
    await page.getByRole('img', { name: 'Demo: 2 sources connected' }).waitFor()
    await screenshot(page, 'connections-01-demo')
  })

  it("the snippet source's Performance numbers are its events in the store", async () => {
    const { snippet } = fl0.organisation
    const metrics = page.waitForResponse((r) => r.url().endsWith(`/sources/${snippet.id}/metrics`))
    await card('js-snippet').getByRole('link').click()
    await page.waitForURL(`**/organizations/demo/connections?modal=snippet-modal&id=${snippet.id}`)
    const drawer = page.getByRole('dialog', { name: 'js-snippet', exact: true })
    expect(await drawer.getByRole('tab', { name: 'Performance' }).getAttribute('aria-selected')).toBe('true')
    await drawer.getByRole('group', { name: 'Total events' }).waitFor()

    const [{ n: total }] = await fl0.query<{ n: string }>('SELECT count() AS n FROM events WHERE org_id = {org:String} AND source_id = {s:String}', {
      org: fl0.organisation.org.id,
      s: snippet.id,
    })
    // Unique users, counted here from the rows: each user id once, and each anonymous id never seen beside a user id.
    const rows = await fl0.query<{ user_id: string; anonymous_id: string }>('SELECT user_id, anonymous_id FROM events WHERE org_id = {org:String} AND source_id = {s:String}', {
      org: fl0.organisation.org.id,
      s: snippet.id,
    })
    const identified = new Set(rows.filter((r) => r.user_id && r.anonymous_id).map((r) => r.anonymous_id))
    const people = new Set([
      ...rows.filter((r) => r.user_id).map((r) => `u:${r.user_id}`),
      ...rows.filter((r) => !r.user_id && r.anonymous_id && !identified.has(r.anonymous_id)).map((r) => `a:${r.anonymous_id}`),
    ])
    expect(Number(total)).toBeGreaterThan(100)
    expect(people.size).toBeGreaterThan(5)

    const totalCard = statValue(drawer, 'Total events')
    expect(Number(await totalCard.getAttribute('data-value'))).toBe(Number(total))
    expect(await totalCard.textContent()).toBe(shortNumber(Number(total)))
    const usersCard = statValue(drawer, 'Unique users')
    expect(Number(await usersCard.getAttribute('data-value'))).toBe(people.size)
    expect(await usersCard.textContent()).toBe(shortNumber(people.size))

    // The graph: one point for each of the last 30 days (UTC, the demo's zone), each the store's count for that day.
    await drawer.getByRole('heading', { name: 'Events (last 30 days)' }).waitFor()
    const chart = drawer.getByRole('img', { name: 'Events (last 30 days)' })
    expect(await chart.getAttribute('data-points')).toBe('30')
    await chart.locator('canvas').first().waitFor()
    const body = (await (await metrics).json()) as { total: number; total_30d: Array<{ date: string; value: number }> }
    const perDay = await fl0.query<{ d: string; n: string }>(
      'SELECT toString(toDate(timestamp)) AS d, count() AS n FROM events WHERE org_id = {org:String} AND source_id = {s:String} GROUP BY d',
      { org: fl0.organisation.org.id, s: snippet.id },
    )
    const stored = new Map(perDay.map((r) => [r.d, Number(r.n)]))
    expect(body.total_30d.map((p) => [p.date, p.value])).toEqual(body.total_30d.map((p) => [p.date, stored.get(p.date) ?? 0]))
    expect(body.total_30d.some((p) => p.value > 0)).toBe(true)
    expect(body.total_30d.reduce((s, p) => s + p.value, 0)).toBeLessThanOrEqual(Number(total))
    await screenshot(page, 'connections-02-performance')
  })

  it("copies the snippet from the demo source's Properties, then closes", async () => {
    const drawer = page.getByRole('dialog', { name: 'js-snippet', exact: true })
    await drawer.getByRole('tab', { name: 'Properties' }).click()
    expect(await drawer.getByLabel('Domain').inputValue()).toBe('demo.fl0.dev')
    await drawer.getByRole('button', { name: 'JS Snippet' }).click()
    await snackbar('JS Snippet copied to clipboard').waitFor()
    // The snackbar stands beside the drawer, not over its footer.
    const [note, panel] = [await snackbar('JS Snippet copied to clipboard').boundingBox(), await drawer.boundingBox()]
    expect(note!.x + note!.width).toBeLessThanOrEqual(panel!.x)
    const code = await drawer.getByLabel('Snippet').inputValue()
    expect(code).toContain(fl0.organisation.snippet.write_key)
    expect(await readClipboard()).toBe(code)
    await screenshot(page, 'connections-03-properties')
    await drawer.getByRole('button', { name: 'Close' }).click()
    await drawer.waitFor({ state: 'detached' })
    expect(new URL(page.url()).search).toBe('')
  })

  it("copies the Segment source's API key", async () => {
    await card('segment').getByRole('link').click()
    const drawer = page.getByRole('dialog', { name: 'segment', exact: true })
    await drawer.getByRole('tab', { name: 'Properties' }).click()
    await drawer.getByRole('button', { name: 'Segment Api Key' }).click()
    await snackbar('Segment Api Key copied to clipboard').waitFor()
    expect(await readClipboard()).toBe(fl0.organisation.segment.write_key)
    await screenshot(page, 'connections-04-segment')
    await drawer.getByRole('button', { name: 'Close' }).click()
    await drawer.waitFor({ state: 'detached' })
  })

  it("shows the Segment source's webhook URL and secret, copies both, and a delivery signed with them is stored", async () => {
    const { segment } = fl0.organisation
    await card('segment').getByRole('link').click()
    const drawer = page.getByRole('dialog', { name: 'segment', exact: true })
    await drawer.getByRole('tab', { name: 'Properties' }).click()
    const hook = drawer.getByRole('region', { name: 'Webhook' })
    const url = `${fl0.url}/v1/webhooks/${segment.id}`
    expect(await hook.getByLabel('Webhook URL').textContent()).toBe(url)
    expect(await hook.getByLabel('Webhook secret').textContent()).toBe(segment.webhook_secret)
    await hook.getByText(/Segment: a Webhooks destination, with the URL as its Webhook URL and the secret as its Shared Secret/).waitFor()

    await hook.getByRole('button', { name: 'Webhook URL' }).click()
    await snackbar('Webhook URL copied to clipboard').waitFor()
    const copiedUrl = await readClipboard()
    expect(copiedUrl).toBe(url)
    await hook.getByRole('button', { name: 'Webhook Secret' }).click()
    await snackbar('Webhook Secret copied to clipboard').waitFor()
    const copiedSecret = await readClipboard()
    expect(copiedSecret).toBe(segment.webhook_secret)
    await screenshot(page, 'connections-04b-webhook')

    // Pasted into Segment's Webhooks destination: a track call, signed with the Shared Secret.
    const body = JSON.stringify({
      type: 'track',
      event: 'Webhook Delivered',
      userId: 'webhook-user',
      messageId: 'e2e-webhook-1',
      context: { ip: '198.51.100.23', library: { name: 'analytics.js', version: 'next-1.72.0' } },
      timestamp: new Date().toISOString(),
    })
    const sent = await fetch(copiedUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha1', copiedSecret).update(body).digest('hex') },
      body,
    })
    expect(sent.status).toBe(200)
    await fl0.waitForCount("SELECT count() AS n FROM events WHERE message_id = 'e2e-webhook-1' AND source_id = {s:String} AND ip = '198.51.100.23'", { s: segment.id }, 1)

    await drawer.getByRole('button', { name: 'Close' }).click()
    await drawer.waitFor({ state: 'detached' })
  })

  it('adds a snippet source: Properties first, Performance disabled, every rule on its field, then saved', async () => {
    await page.getByRole('button', { name: 'Add source...' }).click()
    const choice = page.getByRole('dialog', { name: 'Add source', exact: true })
    await choice.getByRole('button', { name: /^Segment/ }).waitFor()
    await screenshot(page, 'connections-05-add-source')
    await choice.getByRole('button', { name: /^JS Snippet/ }).click()
    await page.waitForURL('**/connections?modal=snippet-modal')
    const drawer = page.getByRole('dialog', { name: 'New JS Snippet source', exact: true })
    await drawer.getByLabel('Domain').waitFor()
    expect(await drawer.getByRole('tab', { name: 'Performance' }).isDisabled()).toBe(true)
    expect(await drawer.getByRole('tab', { name: 'Properties' }).getAttribute('aria-selected')).toBe('true')
    expect(await drawer.getByLabel('Name').inputValue()).toBe('js-snippet')

    // The snippet is copied before the source is saved, as a user pasting it into the site would.
    await drawer.getByRole('button', { name: 'JS Snippet' }).click()
    await snackbar('JS Snippet copied to clipboard').waitFor()
    const pasted = await readClipboard()
    newKey = /"([A-Za-z0-9_-]{32})"/.exec(pasted)![1]!

    const name = drawer.getByLabel('Name')
    const domain = drawer.getByLabel('Domain')
    await name.fill('   ')
    await expectFieldError(drawer, 'Name must be provided')
    await name.fill('x'.repeat(100))
    await expectFieldError(drawer, 'Name must have less than 100 characters')
    await name.fill('Marketing site')
    await expectFieldError(drawer, 'Domain must be provided')
    await domain.fill(`${'a'.repeat(296)}.com`)
    await expectFieldError(drawer, 'Domain must have less than 300 characters')
    await domain.fill('localhost')
    await expectFieldError(drawer, 'Domain must be valid (e.g. a www domain)')
    await domain.fill('https://www.example.org')
    await expectFieldError(drawer, 'Domain must not start with http:// or https://')
    await screenshot(page, 'connections-06-new-source-errors')

    await domain.fill('www.example.org')
    await drawer.getByRole('button', { name: 'Save' }).click()
    await snackbar('Marketing site added successfully').waitFor()
    await drawer.waitFor({ state: 'detached' })
    const added = card('Marketing site')
    await added.getByText('Not detected yet', { exact: true }).waitFor()
    expect(await added.textContent()).toContain('www.example.org')
    expect(await page.getByTestId('source-lines').locator('path').count()).toBe(3)
    await screenshot(page, 'connections-07-added')
  })

  it('the snippet copied before saving sends events; once they arrive from the domain, the card says Detected', async () => {
    const sent = await track(newKey, { anonymousId: 'visitor-1', name: 'Home', context: { page: { url: 'https://blog.example.org/hello' } } }, '/v1/page')
    expect(sent.status).toBe(200)
    await fl0.waitForCount("SELECT count() AS n FROM events WHERE page_url = 'https://blog.example.org/hello'", {}, 1)
    await page.reload()
    await card('Marketing site').getByText('Detected', { exact: true }).waitFor()
  })

  it('renames the source', async () => {
    await card('Marketing site').getByRole('link').click()
    const drawer = page.getByRole('dialog', { name: 'Marketing site', exact: true })
    await statValue(drawer, 'Total events').waitFor()
    expect(await statValue(drawer, 'Total events').textContent()).toBe('1')
    expect(await statValue(drawer, 'Unique users').textContent()).toBe('1')
    await drawer.getByRole('tab', { name: 'Properties' }).click()
    await drawer.getByLabel('Name').fill('')
    await expectFieldError(drawer, 'Name must be provided')
    await drawer.getByLabel('Name').fill('Marketing')
    await drawer.getByRole('button', { name: 'Save' }).click()
    await snackbar('Marketing saved').waitFor()
    await drawer.waitFor({ state: 'detached' })
    await card('Marketing').waitFor()
    expect(await card('Marketing site').count()).toBe(0)
  })

  it('deletes the source after the confirmation; its key is refused at once', async () => {
    await card('Marketing').getByRole('link').click()
    const drawer = page.getByRole('dialog', { name: 'Marketing', exact: true })
    await drawer.getByRole('tab', { name: 'Properties' }).click()
    await drawer.getByRole('button', { name: 'Delete source' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete source', exact: true })
    await confirm.getByText(/Are you sure you want to delete the source Marketing\?/).waitFor()
    await screenshot(page, 'connections-08-delete-confirm')
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await snackbar('Marketing has been deleted').waitFor()
    await drawer.waitFor({ state: 'detached' })
    await card('Marketing').waitFor({ state: 'detached' })
    expect(await page.getByTestId('source-lines').locator('path').count()).toBe(2)
    expect((await track(newKey, { anonymousId: 'visitor-1', event: 'After delete' })).status).toBe(401)
  })

  it("a second organisation without sources: 'You have 0 connections' and 'Add Source'", async () => {
    const created = await page.request.post(`${fl0.url}/api/orgs`, { data: { name: 'Empty Co', variant: 'modal' } })
    expect(created.status()).toBe(201)
    await page.goto(`${fl0.url}/organizations/empty-co/connections`)
    await page.getByText('You have 0 connections', { exact: true }).waitFor()
    await screenshot(page, 'connections-09-empty')
    await page.getByRole('button', { name: 'Add Source', exact: true }).click()
    await page.getByRole('dialog', { name: 'Add source', exact: true }).waitFor()
    expect(new URL(page.url()).search).toBe('?modal=add-source')
    await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'Add source', exact: true }).waitFor({ state: 'detached' })
  })

  it('data sources: the domain rules, saved on submit, and the script copied', async () => {
    await page.goto(`${fl0.url}/organizations/empty-co/data-sources`)
    await page.getByRole('heading', { level: 1, name: 'Data sources' }).waitFor()
    const domain = page.getByLabel('Domain')
    await domain.waitFor()
    expect(await domain.getAttribute('placeholder')).toBe(new URL(fl0.url).host)
    const save = async (value: string, message: string) => {
      await domain.fill(value)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText(message, { exact: true }).waitFor()
    }
    await save('', 'Domain must be provided')
    await save(`${'a'.repeat(296)}.com`, 'Domain must have less than 300 characters')
    await save('intranet', 'Domain must be valid (e.g. a www domain)')
    await save('http://empty.example.com', 'Domain must not start with http:// or https://')
    await screenshot(page, 'data-sources-01-errors')
    await save(' empty.example.com ', 'Domain saved')

    const script = page.getByLabel('Script snippet')
    expect(await script.getAttribute('readonly')).not.toBeNull()
    await page.getByRole('button', { name: 'Copy' }).click()
    await snackbar('Script copied to clipboard').waitFor()
    expect(await readClipboard()).toBe(await script.inputValue())
    // Loaded from, and sending to, the host the dashboard was reached at.
    expect(await script.inputValue()).toContain(`"apiHost":"${fl0.url}"`)
    await screenshot(page, 'data-sources-02-saved')

    await page.reload()
    expect(await page.getByLabel('Domain').inputValue()).toBe('empty.example.com')
    // The same snippet source shows on Connections.
    await page.goto(`${fl0.url}/organizations/empty-co/connections`)
    const site = card('js-snippet')
    await site.getByText('Not detected yet', { exact: true }).waitFor()
    expect(await site.textContent()).toContain('empty.example.com')
    await screenshot(page, 'connections-10-after-data-sources')
    expect(errors).toEqual([])
  })
})
