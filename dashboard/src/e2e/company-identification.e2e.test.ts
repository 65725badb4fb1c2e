import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { chTime } from '@fl0/contracts'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'
import { eventRow } from '@fl0/stores/events/testing'
import { launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/**
 * What identification knows, on the company page in Chromium against a real
 * fl0: business intents imported by staff through the admin's Tools page,
 * shown on the company's Business intent card; a visitor placed by their
 * visit's address (an identified visit with DB-IP's place, written as the
 * identity worker writes it) on the Intent timeline, the Visitors tab, the
 * Location trait and the user profile; another placed by their time zone; and
 * the free IP data's credit, linked, on the pages that show it.
 */
describe.skipIf(!runBrowserTests)('the company page with identification, in Chromium', () => {
  let fl0: TestFl0
  let browser: Browser
  let opened: OpenedPage
  let page: Page
  // The visits' events span 200 minutes, all on one day (UTC): in the first hours after midnight they end a minute
  // before it, else the timeline would list each person under both days.
  const sinceMidnight = Date.now() % 86_400_000
  const anchor = sinceMidnight < 4 * 3_600_000 ? Date.now() - sinceMidnight - 60_000 : Date.now()
  const minutesAgo = (m: number) => new Date(anchor - m * 60_000)
  const companyUrl = (tab = '') => `${fl0.url}/organizations/${fl0.org.url_code}/companies/acme.com${tab}`
  const today = () => new Date().toISOString().slice(0, 10)
  const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10)
  const day = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

  beforeAll(async () => {
    // No logo service (the initials), no free IP data loaded: this test writes the visits' places itself.
    ;[fl0, browser] = await Promise.all([startTestFl0({ FL0_LOGO_URL: '', FL0_IP_DATA: 'off' }), launchChromium()])
    opened = await openPage(browser, { viewport: { width: 1440, height: 900 } })
    page = opened.page
    // The identity worker matches stored visits again against the data in force when it starts (rematch.ts): the
    // visit below goes in once it has, or it would lose the place written for it.
    await fl0.waitForCount('SELECT count() AS n FROM ip_data_applied', {}, 1)
    const org = fl0.org.id
    const la = { timezone: 'America/Los_Angeles' }
    const london = { timezone: 'Europe/London' }
    const events = fl0.stores.events!
    await events.client.insert({
      table: 'events',
      format: 'JSONEachRow',
      values: [
        eventRow({ org_id: org, type: 'group', user_id: 'u-tim', group_id: 'g-acme', timestamp: minutesAgo(200), traits: { name: 'Acme Corp', domain: 'acme.com', industry: 'Software', employees: 1200 } }),
        eventRow({ org_id: org, type: 'identify', user_id: 'u-tim', anonymous_id: 'a-tim', timestamp: minutesAgo(199), traits: { name: 'Tim Baker', email: 'tim@acme.com', title: 'CEO' }, context: la }),
        eventRow({ org_id: org, type: 'page', user_id: 'u-tim', anonymous_id: 'a-tim', timestamp: minutesAgo(60), page_path: '/pricing', page_title: 'Pricing', context: la }),
        eventRow({ org_id: org, type: 'page', user_id: 'u-tim', anonymous_id: 'a-tim', timestamp: minutesAgo(58), page_path: '/docs', page_title: 'Docs', context: la }),
        eventRow({ org_id: org, type: 'identify', user_id: 'u-jo', timestamp: minutesAgo(190), traits: { name: 'Jo Marsh', email: 'jo@acme.com', title: 'Engineer' }, context: london }),
        eventRow({ org_id: org, type: 'page', user_id: 'u-jo', timestamp: minutesAgo(90), page_path: '/blog', page_title: 'Blog', context: london }),
      ],
    })
    // Tim's visit, as the identity worker stores it with the free data's network and place; Jo has none.
    await events.client.insert({
      table: 'identified_visits',
      format: 'JSONEachRow',
      values: [
        {
          org_id: org,
          visitor_id: 'a-tim',
          started_at: chTime(minutesAgo(60)),
          ended_at: chTime(minutesAgo(58)),
          anonymous_id: 'a-tim',
          user_id: 'u-tim',
          ip: '17.253.144.10',
          ip_kind: 'company',
          ip_asn: 714,
          ip_network: 'Apple Inc.',
          ip_source: 'free',
          ip_country: 'US',
          ip_region: 'California',
          ip_city: 'Cupertino',
          version: 1,
          is_deleted: 0,
        },
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('staff imports business intents through the Tools page', async () => {
    // The first account is staff and adopts the organisation, which has no member yet.
    await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
    await page.waitForURL(/\/organizations\/[^/]+$/)
    await page.goto(`${fl0.url}/admin`)
    const csv = [
      'company_domain,topic,score,date',
      `acme.com,Visitor identification,87,${today()}`,
      `acme.com,Product analytics,64.5,${daysAgo(1)}`,
      `acme.com,Visitor identification,40,${daysAgo(3)}`,
      `acme.com,Customer data platform,31,${daysAgo(5)}`,
      `acme.com,Too old to show,99,${daysAgo(45)}`,
      `globex.com,Someone else's,90,${today()}`,
    ].join('\n')
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Import business intents...' }).click()
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api-v2/admin/import-business-intents')
    await (await chooser).setFiles({ name: 'intents.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    const job = (await (await answer).json()) as { status: string; counts: Record<string, number> }
    expect(job).toMatchObject({ status: 'succeeded', counts: { inserted: 6 } })
  })

  it('shows the intents, the visitors’ places and the IP data credit on the company page', async () => {
    await page.goto(companyUrl())
    await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor()
    const panel = page.getByRole('complementary', { name: 'Company' })

    // Business intent: each topic once, at its latest, newest first; the domain's 30 days only.
    const card = panel.getByRole('region', { name: 'Business intent' })
    await card.waitFor()
    const topics = card.getByRole('listitem')
    expect(await topics.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))).toEqual(['Visitor identification', 'Product analytics', 'Customer data platform'])
    const first = topics.first()
    expect(await first.getByTestId('intent-score').textContent()).toBe('87')
    expect(await first.locator('time').textContent()).toBe(day(today()))
    expect(await first.getByRole('meter').getAttribute('aria-valuenow')).toBe('87')
    expect(await first.getByRole('meter').isVisible()).toBe(true)

    // The company's Location trait: where its people's addresses were seen.
    const traits = panel.getByRole('region', { name: 'Traits' })
    expect(await traits.getByText('Location', { exact: true }).locator('xpath=following-sibling::dd').textContent()).toBe('Cupertino, United States')

    // The Intent timeline: Tim placed by his visit's address (not his time zone's Los Angeles); Jo by her time zone.
    const person = (name: string) => page.getByRole('listitem', { name, exact: true })
    const locationOf = (name: string) => person(name).getByText('Location', { exact: true }).locator('xpath=following-sibling::dd')
    await person('Tim Baker').waitFor()
    expect(await locationOf('Tim Baker').textContent()).toBe('Cupertino, United States')
    expect(await locationOf('Jo Marsh').textContent()).toBe('London')
    expect(await locationOf('Tim Baker').isVisible()).toBe(true)

    // The credit the data's licence asks for, visible and linked.
    const credit = page.getByTestId('ip-data-attribution')
    await credit.scrollIntoViewIfNeeded()
    expect(await credit.isVisible()).toBe(true)
    expect((await credit.textContent())?.replace(/\s+/g, ' ')).toBe('IP data: IP Geolocation by DB-IP, RouteViews, NRO')
    const dbip = credit.getByRole('link', { name: 'IP Geolocation by DB-IP' })
    expect(await dbip.isVisible()).toBe(true)
    expect(await dbip.getAttribute('href')).toBe('https://db-ip.com/')
    expect(await credit.getByRole('link', { name: 'RouteViews' }).getAttribute('href')).toBe('https://www.routeviews.org/')
    expect(await credit.getByRole('link', { name: 'NRO' }).getAttribute('href')).toBe('https://www.nro.net/')
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'company-identification-01-intent')
  })

  it('places the visitors on the Visitors tab too', async () => {
    await page.getByRole('tab', { name: /^Visitors/ }).click()
    await page.waitForURL(companyUrl('/visitors'))
    const tim = page.getByRole('row').filter({ hasText: 'Tim Baker' })
    await tim.waitFor()
    expect(await tim.textContent()).toContain('Cupertino, United States')
    expect(await page.getByRole('row').filter({ hasText: 'Jo Marsh' }).textContent()).toContain('London')
  })

  it('places the person on their profile, with the credit', async () => {
    await page.goto(`${fl0.url}/organizations/${fl0.org.url_code}/people/users/u-tim`)
    await page.getByRole('heading', { level: 1, name: 'Tim Baker' }).waitFor()
    const location = page.getByText('Location', { exact: true }).locator('xpath=following-sibling::dd')
    await location.filter({ hasText: 'Cupertino, United States' }).waitFor()
    expect(await page.getByRole('link', { name: 'IP Geolocation by DB-IP' }).isVisible()).toBe(true)
    await screenshot(page, 'company-identification-02-profile')
    expect(opened.errors).toEqual([])
  })
})
