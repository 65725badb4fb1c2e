import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Company, Person } from '@fl0/demo'
import { orgParams, resolvedVisitsSql } from '@fl0/query'
import { shortNumber } from '../ui/format.ts'
import { formatTraitValue } from '../screens/companies/format.ts'
import { signUpToDemo, startDemoFl0, waitForIdentity, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'

/** A pager's numbers, grouped as the pager writes them ('1–20 of 13,678'). */
const groupedCount = (n: number) => n.toLocaleString('en-US')

/**
 * The company page in Chromium against a real fl0 filled with demo data
 * through its ingest. A company is picked from the demo's ground truth (one
 * with signed-up people active in the last 30 days); its page's names,
 * counts and intent timeline are checked against the events store, each tab
 * is opened by its own address, and the logo comes from a logo service that
 * this test runs (FL0_LOGO_URL), with the initials where the service has no
 * logo or third-party content is off.
 */
const DAY_MS = 86_400_000

interface Row {
  type: string
  user_id: string
  anonymous_id: string
  event: string
  name: string
  page_title: string
  page_path: string
  /** ClickHouse text, UTC: 2026-03-01 10:00:00.000 */
  ts: string
}

describe.skipIf(!runBrowserTests)('the company page, in Chromium', () => {
  let fl0: DemoFl0
  let logos: Server
  const logoRequests: string[] = []
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let company: Company
  let other: Company
  /** The company's activity of the last 30 days, by the rules restated from the ground truth. */
  let expected: { pageViews: number; visitors: number; rows: Row[]; personOf: (r: Row) => string }

  const org = () => fl0.organisation.org.id
  const companyUrl = (c: Company, tab = '') => `${fl0.url}/organizations/demo/companies/${c.domain}${tab ? `/${tab}` : ''}`
  const spaces = (s: string | null) => (s ?? '').replace(/[\s\u202f]+/g, ' ').trim()

  /**
   * The company's people, from the ground truth's group id (not the domain the page looks up): the users of its
   * group calls and of identify calls with its e-mail domain, their browsers' anonymous ids, and leads who gave a
   * business e-mail without signing up.
   */
  async function activityOf(c: Company) {
    const users = new Set(
      (
        await fl0.query<{ user_id: string }>(
          `SELECT DISTINCT user_id FROM events WHERE org_id = {org:String} AND user_id != ''
             AND ((type = 'group' AND group_id = {gid:String}) OR (type = 'identify' AND endsWith(lower(traits.email::String), {at:String})))`,
          { org: org(), gid: c.id, at: `@${c.domain}` },
        )
      ).map((r) => r.user_id),
    )
    const links = await fl0.query<{ anonymous_id: string; uid: string }>(
      `SELECT anonymous_id, any(user_id) AS uid FROM events WHERE org_id = {org:String} AND anonymous_id != '' AND has({users:Array(String)}, user_id) GROUP BY anonymous_id`,
      { org: org(), users: [...users] },
    )
    const leads = await fl0.query<{ anonymous_id: string }>(
      `SELECT DISTINCT anonymous_id FROM events WHERE org_id = {org:String} AND type = 'identify' AND user_id = '' AND endsWith(lower(traits.email::String), {at:String})`,
      { org: org(), at: `@${c.domain}` },
    )
    // And the anonymous visitors identification resolves to it by their address (members.ts rule 4): the free IP data
    // names the demo's companies, and learns their domains from their people's e-mails.
    const byAddress = await fl0.query<{ anonymous_id: string }>(
      `SELECT DISTINCT anonymous_id FROM (${resolvedVisitsSql()}) WHERE company_domain = {domain:String} AND company_via = 'ip' AND startsWith(person, 'anon:')`,
      { ...orgParams(org()), domain: c.domain },
    )
    const userOfAnon = new Map(links.map((l) => [l.anonymous_id, l.uid]))
    for (const l of [...leads, ...byAddress]) if (!userOfAnon.has(l.anonymous_id)) userOfAnon.set(l.anonymous_id, `anon:${l.anonymous_id}`)
    const today = new Date().toISOString().slice(0, 10)
    const from = new Date(Date.parse(today) - 29 * DAY_MS).toISOString().slice(0, 10)
    const rows = await fl0.query<Row>(
      `SELECT type, user_id, anonymous_id, event, name, page_title, page_path, toString(timestamp) AS ts FROM events
       WHERE org_id = {org:String} AND type IN ('page', 'screen', 'track') AND toDate(timestamp) >= {from:Date} AND timestamp <= now64(3)
         AND (has({users:Array(String)}, user_id) OR (user_id = '' AND has({anons:Array(String)}, anonymous_id)))
       ORDER BY timestamp`,
      { org: org(), from, users: [...users], anons: [...userOfAnon.keys()] },
    )
    const personOf = (r: Row) => r.user_id || userOfAnon.get(r.anonymous_id)!
    return { pageViews: rows.filter((r) => r.type === 'page').length, visitors: new Set(rows.map(personOf)).size, rows, personOf }
  }

  beforeAll(async () => {
    logos = createServer((req, res) => {
      logoRequests.push(req.url ?? '')
      if (req.url === `/logo/${company?.domain}`) {
        res.writeHead(200, { 'content-type': 'image/svg+xml' })
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="12" fill="#0f766e"/><circle cx="32" cy="32" r="14" fill="#fff"/></svg>')
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' })
        res.end('no logo')
      }
    })
    await new Promise<void>((resolve) => logos.listen(0, '127.0.0.1', resolve))
    const logoUrl = `http://127.0.0.1:${(logos.address() as AddressInfo).port}/logo/{domain}`
    ;[fl0, browser] = await Promise.all([startDemoFl0(undefined, { FL0_LOGO_URL: logoUrl }), launchChromium()])
    await waitForIdentity(fl0)

    // The ground truth's companies with people who signed up; the one whose signed-up people were most active lately.
    const { world } = fl0.demo
    const signedUp = (c: Company) => world.members[c.index]!.filter((p: Person) => p.life.signupDay !== null && p.life.signupDay < world.days)
    const candidates = []
    for (const c of world.companies.filter((c) => signedUp(c).length >= 2)) candidates.push({ c, a: await activityOf(c) })
    candidates.sort((x, y) => new Set(y.a.rows.map(y.a.personOf)).size - new Set(x.a.rows.map(x.a.personOf)).size || y.a.pageViews - x.a.pageViews)
    ;({ c: company, a: expected } = candidates[0]!)
    other = candidates.find((x) => x.c !== company && x.a.rows.length > 0)!.c

    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
    await new Promise((resolve) => logos?.close(resolve))
  })

  it('picked a demo company with signed-up people active in the last 30 days', () => {
    expect(expected.visitors).toBeGreaterThanOrEqual(2)
    expect(expected.pageViews).toBeGreaterThan(0)
  })

  it('the first account signs up (adopting the demo organisation) and opens the company by its domain', async () => {
    await signUpToDemo(page, fl0)
    await page.goto(companyUrl(company))
    await page.getByRole('heading', { level: 1, name: company.name }).waitFor()
  })

  it('shows the name, the domain, the logo from the logo service, the counts of the store and the traits', async () => {
    const panel = page.getByRole('complementary', { name: 'Company' })
    await panel.getByRole('link', { name: company.domain }).waitFor()
    const logo = panel.getByRole('img', { name: `${company.name} logo` })
    await page.waitForFunction((name) => {
      const img = document.querySelector(`img[alt="${name} logo"]`) as HTMLImageElement | null
      return img !== null && img.complete && img.naturalWidth === 64
    }, company.name)
    expect(await logo.evaluate((el) => el.tagName)).toBe('IMG')
    expect(logoRequests).toContain(`/logo/${company.domain}`)

    expect(await panel.getByTestId('visitors-30d').textContent()).toBe(shortNumber(expected.visitors))
    expect(await panel.getByTestId('page-views').textContent()).toBe(shortNumber(expected.pageViews))
    expect(await panel.getByText('Past 30 days').isVisible()).toBe(true)
    const chart = panel.getByRole('img', { name: 'Page views per day' })
    expect(await chart.getAttribute('data-points')).toBe('30')
    await chart.locator('canvas').first().waitFor()
    // The group call's firmographics, as the ground truth has them.
    const traits = panel.getByRole('region', { name: 'Traits' })
    const trait = async (label: string) => spaces(await traits.locator('div', { has: page.getByText(label, { exact: true }) }).locator('dd').textContent())
    expect(await trait('Industry')).toBe(company.industry)
    expect(await trait('Employees')).toBe(company.employees.toLocaleString('en-US'))
    expect(await trait('Revenue')).toBe(formatTraitValue({ key: 'revenue', icon: 'number', label: 'Revenue', value: company.revenue }))
    // The Visitors tab carries the same count (not the original's fixed 16).
    expect(spaces(await page.getByRole('tab', { name: /^Visitors/ }).textContent())).toBe(`Visitors${shortNumber(expected.visitors)}`)
    expect(await page.getByRole('tab', { name: 'Intent' }).getAttribute('aria-selected')).toBe('true')
  })

  it("Intent: the latest day's people are the company's, and a person's timeline is their events in the store", async () => {
    const days = page.getByRole('region', { name: /, \d{4}$/ })
    await days.first().waitFor()
    const latest = expected.rows.at(-1)!.ts.slice(0, 10)
    const dayRows = expected.rows.filter((r) => r.ts.startsWith(latest))
    const dayLabel = new Date(`${latest}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    expect(await days.first().getAttribute('aria-label')).toBe(dayLabel)

    const day = days.first()
    const people = day.getByRole('listitem').filter({ has: page.getByRole('list', { name: /^Events of / }) })
    const shown = await people.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))
    const truthName = new Map(fl0.demo.world.members[company.index]!.map((p) => [p.id, p.name]))
    const personIds = [...new Set(dayRows.map(expected.personOf))]
    expect(shown).toHaveLength(personIds.length)
    for (const name of shown) expect([...truthName.values(), 'Anonymous visitor']).toContain(name)

    // The most recently seen person of the day: their timeline, event by event, against the store.
    const first = dayRows.at(-1)!
    const personId = expected.personOf(first)
    const theirs = dayRows.filter((r) => expected.personOf(r) === personId)
    const name = truthName.get(personId)
    if (name) expect(shown[0]).toBe(name)
    const timeline = people.first().getByRole('list', { name: /^Events of / })
    const items = await timeline.getByRole('listitem').allTextContents()
    expect(items.length).toBe(Math.min(20, theirs.length))
    const label = (r: Row) => (r.type === 'track' ? r.event : r.name || r.page_title || r.page_path)
    const time = (r: Row) => new Date(`${r.ts.replace(' ', 'T')}Z`).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
    items.forEach((text, i) => {
      const r = theirs[i]!
      expect(spaces(text).startsWith(`${spaces(time(r))}${r.type}${label(r)}`), `${text} vs ${time(r)} ${r.type} ${label(r)}`).toBe(true)
    })
    const pages = theirs.filter((r) => r.type === 'page').length
    expect(spaces(await people.first().getByText('Pages', { exact: true }).locator('xpath=following-sibling::dd').textContent())).toBe(String(pages))
    await screenshot(page, 'company-01-intent')
  })

  it('Visitors: its own address; everyone counted, by name, with their page views', async () => {
    await page.getByRole('tab', { name: /^Visitors/ }).click()
    await page.waitForURL(companyUrl(company, 'visitors'))
    const rows = page.getByRole('row')
    await page.getByText(`1–${Math.min(20, expected.visitors)} of ${groupedCount(expected.visitors)}`).waitFor()
    expect(await rows.count()).toBe(1 + Math.min(20, expected.visitors))
    const views = new Map<string, number>()
    for (const r of expected.rows) if (r.type === 'page') views.set(expected.personOf(r), (views.get(expected.personOf(r)) ?? 0) + 1)
    const truthName = new Map(fl0.demo.world.members[company.index]!.map((p) => [p.id, p.name]))
    let checked = 0
    for (const [id, n] of views) {
      const name = truthName.get(id)
      const row = rows.filter({ hasText: name ?? '\u0000' })
      // Signed-up people by their ground-truth name (anonymous leads have none), those on the grid's first page.
      if (!name || (await row.count()) !== 1) continue
      expect(await row.getByRole('cell').nth(3).textContent(), name).toBe(String(n))
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(2)
    await screenshot(page, 'company-02-visitors')
  })

  it('Analytics: page views per day summing to the count, and the top pages', async () => {
    await page.getByRole('tab', { name: 'Analytics' }).click()
    await page.waitForURL(companyUrl(company, 'analytics'))
    const pageViews = page.getByRole('region', { name: 'Page views per day' })
    await pageViews.waitFor()
    expect(await pageViews.getByText(shortNumber(expected.pageViews), { exact: true }).count()).toBe(1)
    const byPath = new Map<string, number>()
    for (const r of expected.rows) if (r.type === 'page') byPath.set(r.page_path, (byPath.get(r.page_path) ?? 0) + 1)
    const top = [...byPath].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!
    const firstRow = page.getByRole('region', { name: 'Top pages' }).getByRole('row').nth(1)
    expect(await firstRow.getByRole('cell').first().textContent()).toBe(top[0])
    expect(await firstRow.getByRole('cell').nth(2).textContent()).toBe(String(top[1]))
    await pageViews.locator('canvas').first().waitFor()
    await screenshot(page, 'company-03-analytics')
  })

  it('Company details: the firmographics of the ground truth and how fl0 knows the company', async () => {
    await page.getByRole('tab', { name: 'Company details' }).click()
    await page.waitForURL(companyUrl(company, 'details'))
    const firmographics = page.getByRole('region', { name: 'Firmographics' })
    await firmographics.waitFor()
    const value = async (label: string) => spaces(await firmographics.locator('div', { has: page.getByText(label, { exact: true }) }).locator('dd').textContent())
    expect(await value('Name')).toBe(company.name)
    expect(await value('Website')).toBe(`https://www.${company.domain}`)
    expect(await value('Industry')).toBe(company.industry)
    const identification = page.getByRole('region', { name: 'Identification' })
    expect(spaces(await identification.locator('div', { has: page.getByText('Group ids', { exact: true }) }).locator('dd').textContent())).toBe(company.id)
    await screenshot(page, 'company-04-details')
    // Back to People.
    await page.getByRole('link', { name: '← People' }).click()
    await page.waitForURL('**/organizations/demo/people')
  })

  it("shows the initials where the logo service has no logo, and never asks it while third-party content is off", async () => {
    await page.goto(companyUrl(other))
    const placeholder = page.getByRole('complementary', { name: 'Company' }).locator('[data-placeholder]')
    await placeholder.waitFor()
    expect(logoRequests).toContain(`/logo/${other.domain}`)

    const before = logoRequests.length
    const { context: quiet, page: p, errors: quietErrors } = await openPage(browser, { viewport: { width: 1280, height: 800 }, storageState: await context.storageState() })
    await quiet.addCookies([{ name: 'fl0-disable-3rd-party', value: 'true', url: fl0.url }])
    await p.goto(companyUrl(company))
    await p.getByRole('heading', { level: 1, name: company.name }).waitFor()
    await p.getByRole('complementary', { name: 'Company' }).locator('[data-placeholder]').waitFor()
    expect(await p.locator('img').count()).toBe(0)
    expect(logoRequests.length).toBe(before)
    await screenshot(p, 'company-05-no-third-party')
    await quiet.close()
    expect(quietErrors).toEqual([])
  })

  it('answers an unknown domain with its message', async () => {
    await page.goto(`${fl0.url}/organizations/demo/companies/unknown-company.example`)
    await page.getByRole('alert').filter({ hasText: 'Company unknown-company.example not found' }).waitFor()
    expect(errors).toEqual([])
  })
})
