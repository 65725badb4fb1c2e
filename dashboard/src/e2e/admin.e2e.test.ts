import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page, Response } from 'playwright-core'
import { PROVIDER_POOLS, type Person } from '@fl0/demo'
import type { Job } from '@fl0/contracts/identification'
import { signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { createOrganisation, launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/** A pager's numbers, grouped as the pager writes them ('1–20 of 13,678'). */
const groupedCount = (n: number) => n.toLocaleString('en-US')

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
  let staff: OpenedPage
  let member: OpenedPage
  let orgId = ''
  let ranges = 0
  let persons = 0
  let cookies = 0
  let intents = 0
  let linked: Person[] = []

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    orgId = fl0.organisation.org.id
    staff = await openPage(browser, { viewport: { width: 1440, height: 900 } })
    member = await openPage(browser, { viewport: { width: 1440, height: 900 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  /** Waits for what the screen shows: grids answer from chDB, in well over expect.poll's default second at times. */
  const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 })
  const world = () => fl0.demo.world
  const orgName = () => fl0.organisation.org.name
  const upIdOf = (p: Person) => `5x5-${String(p.index + 1).padStart(32, '0')}`
  const ok = (page: Page, text: string | RegExp) => page.locator('[data-kind="ok"]').filter({ hasText: text })
  const info = (page: Page, text: string) => page.locator('[data-kind="info"]').filter({ hasText: text })
  const grid = (page: Page) => page.getByRole('table')
  const bodyRows = (page: Page) => grid(page).locator('tbody > tr')
  const range = (page: Page) => page.getByText(/^[\d,]+–[\d,]+ of [\d,]+$|^0 of 0$/)
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

  /** Opens the first row's detail and checks fields of it, each shown as formatted JSON; closes it. */
  async function detailShows(page: Page, title: string, fields: Record<string, unknown>) {
    await bodyRows(page).first().click()
    const dialog = page.getByRole('dialog', { name: title })
    const shown = new Map<string, string>()
    const terms = dialog.getByRole('term')
    for (let i = 0; i < (await terms.count()); i++) shown.set((await terms.nth(i).textContent())!, (await dialog.getByRole('definition').nth(i).textContent())!)
    for (const [k, v] of Object.entries(fields)) expect(shown.get(k), k).toBe(JSON.stringify(v, null, 2))
    await screenshot(page, `admin-detail-${title.toLowerCase().replace(/\W+/g, '-')}`)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
  }

  const csv = (rows: Array<Array<string | number | null>>) => rows.map((r) => r.map((v) => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v))).join(',')).join('\n') + '\n'

  it('a member who is not staff is refused, on screen and by the API', async () => {
    // The first account is staff; the second is not.
    await signUpToDemo(staff.page, fl0)

    const { page } = member
    await signUp(page, fl0, 'Linus Torvalds', 'linus@example.com')
    expect(await createOrganisation(page, 'Penguin')).toBe('penguin')
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

  it("imports IP ranges from the demo's address plan; the ip_to_company grid finds the narrowest range holding an address", async () => {
    const { page } = staff
    const rows: Array<Array<string | number | null>> = [['network', 'company_name', 'domain', 'kind']]
    for (const c of world().companies) rows.push([c.v4.cidr, c.name, c.domain, 'company'], [c.v6.cidr, c.name, c.domain, 'company'])
    for (const p of PROVIDER_POOLS) rows.push([p.v4, p.name, null, p.kind], [p.v6, p.name, null, p.kind])
    ranges = rows.length - 1
    await runImport(page, 'Import ip to company...', 'Importing ip to company...', { name: 'ip-to-company.csv', content: csv(rows) })
    await screenshot(page, 'admin-03-ip-imported')

    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'ip_to_company table' }).click()
    await page.getByRole('heading', { name: 'ip_to_company table', level: 1 }).waitFor()
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(ranges)}`)
    expect(await bodyRows(page).count()).toBe(20)

    // An office address of the first company: its own range, named.
    const company = world().companies[0]!
    const address = company.v4.first.replace(/\.\d+$/, (last) => `.${Number(last.slice(1)) + 1}`)
    const answer = nextGrid(page, '/api-v2/admin/ip-to-company-table', (u) => u.searchParams.get('ipAddress') === address)
    const field = page.getByRole('searchbox', { name: 'IP address' })
    // Half typed, it is not applied.
    await field.fill(address.replace(/\.\d+$/, '.'))
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    await field.fill(address)
    const found = (await (await answer).json()) as { data: Array<Record<string, unknown>>; total: number }
    expect(found.total).toBe(1)
    expect(found.data[0]).toMatchObject({ companyName: company.name, domain: company.domain, kind: 'company' })
    await poll(() => range(page).textContent()).toBe('1–1 of 1')
    expect(await bodyRows(page).first().textContent()).toContain(company.name)
    await screenshot(page, 'admin-04-ip-filtered')
    await detailShows(page, 'ip_to_company table row', { companyName: company.name, domain: company.domain })

    // A home address of a provider's pool: found, but as an internet provider's, never a company's.
    const pool = PROVIDER_POOLS.find((p) => p.kind === 'isp')!
    await field.fill(pool.v4.replace(/\.0\/\d+$/, '.7'))
    await poll(() => bodyRows(page).first().textContent()).toContain(pool.name)
    expect(await bodyRows(page).first().textContent()).toContain('isp')
  })

  it("imports the universal table through the dialog, its progress streamed into the log; the grid pages and filters by up_id", async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Universal table' }).click()
    await page.getByRole('heading', { name: 'Universal table', level: 1 }).waitFor()
    expect(await page.getByRole('searchbox', { name: 'up_id' }).getAttribute('placeholder')).toMatch(/^5x5-\d{32}$/)
    await page.getByRole('button', { name: 'Import universal table...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import universal table' })
    const log = dialog.getByRole('log', { name: 'Import log' })
    await log.getByText('No universal table import has run yet').waitFor()

    const header = ['up_id', 'first_name', 'last_name', 'job_title', 'company_name', 'company_domain', 'linkedin_url', 'business_email', 'personal_email', 'employees', 'revenue', 'country']
    const rows: Array<Array<string | number | null>> = [header]
    for (const p of world().people) {
      const c = p.companyIndex === null ? null : world().companies[p.companyIndex]!
      rows.push([upIdOf(p), p.firstName, p.lastName, p.role, c?.name ?? null, c?.domain ?? null, p.linkedinUrl, p.emailKind === 'business' ? p.email : null, p.emailKind === 'personal' ? p.email : null, c?.employees ?? null, c?.revenue ?? null, p.country])
    }
    // One bad row, on line 3 of the file: reported and skipped, the rest imported.
    rows.splice(2, 0, ['5x5-123', 'Bad', 'Row', null, null, null, null, null, null, null, null, null])
    persons = world().people.length
    await dialog.getByLabel('Universal table file').setInputFiles({ name: 'universal.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(rows)) })
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api-v2/admin/universal-table/import')
    await dialog.getByRole('button', { name: 'Import' }).click()
    expect((await answer).headers()['content-type']).toContain('text/plain')
    await log.getByText(/^Done:/m).waitFor()
    await dialog.getByText('Import finished').waitFor()
    const text = (await log.textContent())!
    expect(text.split('\n')[0]).toBe('Importing universal table from universal.csv')
    expect(text).toMatch(/^line 3: up_id must be 5x5- followed by 32 digits \(skipped\)$/m)
    expect(text.trimEnd().split('\n').pop()).toMatch(new RegExp(`^Done: ${persons + 1} rows read: ${persons} imported, 0 unchanged, 1 skipped`))
    await screenshot(page, 'admin-05-universal-import')
    await dialog.getByRole('button', { name: 'Close' }).click()

    // The grid loaded again after the import: every person, 20 a page.
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(persons)}`)
    await page.getByRole('button', { name: 'Next page' }).click()
    await poll(() => range(page).textContent()).toBe(`21–40 of ${groupedCount(persons)}`)
    await screenshot(page, 'admin-06-universal-page-2')
    // A filter takes the grid back to page 1: here the one person whose up_id it is.
    const someone = world().people[7]!
    await page.getByRole('searchbox', { name: 'up_id' }).fill(upIdOf(someone))
    await poll(() => range(page).textContent()).toBe('1–1 of 1')
    expect(await bodyRows(page).first().textContent()).toContain(someone.lastName)
    await detailShows(page, 'Universal table row', { upId: upIdOf(someone), firstName: someone.firstName, lastName: someone.lastName, jobTitle: someone.role })

    // Opened again, the dialog shows the last import's log.
    await page.getByRole('button', { name: 'Import universal table...' }).click()
    await log.getByText(/^Done:/m).waitFor()
    expect(await log.textContent()).toBe(text)
    await dialog.getByRole('button', { name: 'Close' }).click()
  })

  it('imports cookies, refreshes sessions and people; identified visits name the people and companies the demo says', async () => {
    const { page } = staff
    // Every device of every third person: their visits resolve to them through the callback links.
    linked = world().people.filter((p) => p.index % 3 === 0)
    const rows: Array<Array<string | number | null>> = [['puid', 'upid', 'hem']]
    for (const p of linked) for (const d of p.devices) rows.push([d.puid, upIdOf(p), null])
    cookies = rows.length - 1
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Tools' }).click()
    await runImport(page, 'Import cookies...', 'Importing cookies...', { name: 'cookies.csv', content: csv(rows) })

    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api-v2/admin/refresh-sessions')
    await page.getByRole('button', { name: 'Refresh sessions and people' }).click()
    await info(page, 'Refreshing sessions and people...').waitFor()
    await finish(page, await answer)
    await screenshot(page, 'admin-07-refreshed')

    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Identified visits table' }).click()
    await page.getByRole('heading', { name: 'Identified visits table', level: 1 }).waitFor()
    const picked = nextGrid(page, '/api-v2/admin/identified-visits-table', (u) => u.searchParams.get('orgId') === orgId)
    await page.getByLabel('Organization').selectOption({ label: orgName() })
    const visits = (await (await picked).json()) as { data: Array<Record<string, unknown>>; total: number }
    expect(visits.total).toBeGreaterThan(20)
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(visits.total)}`)
    const byPuid = new Map(linked.flatMap((p) => p.devices.map((d) => [d.puid, p] as const)))
    for (const v of visits.data) {
      const person = byPuid.get(String(v.puid))
      if (person) expect(v, String(v.puid)).toMatchObject({ personVia: 'callback', personName: person.name, upId: upIdOf(person) })
      // A provider's address never names a company.
      if (v.ipKind === 'isp' || v.ipKind === 'mobile') expect(v.companyVia).not.toBe('ip')
      if (v.companyVia === 'ip') expect(world().companies.find((c) => c.name === v.companyName)?.domain).toBe(v.companyDomain)
    }
    await screenshot(page, 'admin-08-identified-visits')
    await detailShows(page, 'Identified visits table row', { orgId, puid: visits.data[0]!.puid, startedAt: visits.data[0]!.startedAt })
  })

  it('refreshes pages and activities: the pages grid holds every page view of the organisation', async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Tools' }).click()
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api-v2/admin/refresh-pages-and-activities')
    await page.getByRole('button', { name: 'Refresh pages and activities' }).click()
    await info(page, 'Refreshing pages and activities...').waitFor()
    await finish(page, await answer)

    const [{ n }] = await fl0.query<{ n: string }>("SELECT count() AS n FROM events WHERE org_id = {org:String} AND type = 'page'", { org: orgId })
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Pages table' }).click()
    await page.getByRole('heading', { name: 'Pages table', level: 1 }).waitFor()
    await page.getByLabel('Organization').selectOption({ label: orgName() })
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(Number(n))}`)
    await screenshot(page, 'admin-09-pages')
    await page.getByRole('button', { name: 'Next page' }).click()
    await poll(() => range(page).textContent()).toBe(`21–40 of ${groupedCount(Number(n))}`)
    // Every organisation (Penguin has no events): back to page 1.
    await page.getByLabel('Organization').selectOption({ label: 'All organizations' })
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(Number(n))}`)
    await detailShows(page, 'Pages table row', { orgId })
  })

  it('people-table: identified people by default, anonymous visitors too when asked, narrowed by name', async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'People table' }).click()
    await page.getByRole('heading', { name: 'People table', level: 1 }).waitFor()
    const identified = nextGrid(page, '/api-v2/admin/people-table', (u) => u.searchParams.get('orgId') === orgId && u.searchParams.get('showIp2Company') === 'false')
    await page.getByLabel('Organization').selectOption({ label: orgName() })
    const known = (await (await identified).json()) as { data: Array<Record<string, unknown>>; total: number }
    expect(known.total).toBeGreaterThan(0)
    expect(known.data.every((r) => r.anonymous === false)).toBe(true)
    await poll(() => range(page).textContent()).toMatch(new RegExp(` of ${known.total}$`))
    await screenshot(page, 'admin-10-people')

    const everyone = nextGrid(page, '/api-v2/admin/people-table', (u) => u.searchParams.get('showIp2Company') === 'true')
    await page.getByRole('checkbox', { name: 'Show anonymous users' }).check()
    const all = (await (await everyone).json()) as { total: number }
    expect(all.total).toBeGreaterThan(known.total)
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(all.total)}`)

    const someone = linked.find((p) => p.lastName.length > 3)!
    const named = nextGrid(page, '/api-v2/admin/people-table', (u) => u.searchParams.get('name') === someone.lastName)
    await page.getByRole('searchbox', { name: 'Name' }).fill(someone.lastName)
    expect((await named).status()).toBe(200)
    const shown = async () => bodyRows(page).allTextContents()
    await poll(async () => (await shown()).length > 0 && (await shown()).every((t) => t.toLowerCase().includes(someone.lastName.toLowerCase()))).toBe(true)
    expect((await shown()).some((t) => t.includes(someone.name))).toBe(true)
    await screenshot(page, 'admin-11-people-by-name')
  })

  it("imports business intents; the copy says what it needs when it has no database", async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Tools' }).click()
    const rows: Array<Array<string | number | null>> = [['company_domain', 'topic', 'score', 'date']]
    const today = new Date().toISOString().slice(0, 10)
    for (const c of world().companies.slice(0, 3)) rows.push([c.domain, 'Visitor identification', 80 + c.index, today], [c.domain, 'Product analytics', 50 + c.index, today])
    intents = rows.length - 1
    await runImport(page, 'Import business intents...', 'Importing business intents...', { name: 'intents.csv', content: csv(rows) })

    await page.getByRole('button', { name: 'Copy people and pages to supabase' }).click()
    await info(page, 'Copying people and pages to supabase...').waitFor()
    await page.locator('[data-kind="error"]').filter({ hasText: 'EXPORT_DATABASE_URL is not set' }).waitFor()
    await screenshot(page, 'admin-12-tools-outcomes')
  })

  it("handle-callback: the filled fields make the query; 'HandleCallback completed'; the link is stored and names the visitor", async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Handle callback' }).click()
    await page.getByRole('heading', { name: 'Handle callback', level: 1 }).waitFor()
    // Someone the cookies did not link.
    const someone = world().people.find((p) => p.index % 3 !== 0 && p.devices.length > 0)!
    const puid = someone.devices[0]!.puid
    await page.getByLabel('puid').fill(puid)
    await page.getByLabel('upid').fill(upIdOf(someone))
    expect(await page.getByLabel('Callback request').textContent()).toBe(`GET /i/callback?puid=${puid}&upid=${upIdOf(someone)}`)
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/i/callback')
    await page.getByRole('button', { name: 'Send callback' }).click()
    const pixel = await answer
    expect([pixel.status(), pixel.headers()['content-type']]).toEqual([200, 'image/gif'])
    await ok(page, 'HandleCallback completed').waitFor()
    await screenshot(page, 'admin-13-callback')

    // The worker stores the link from the bus; then the visitor reads as that person.
    await poll(async () => (await api<{ data: Array<{ key: string; value: unknown }> }>('/api-v2/admin/summary')).data.find((r) => r.key === 'callbackLinks')?.value).toBe(1)
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'People table' }).click()
    await page.getByLabel('Organization').selectOption({ label: orgName() })
    await page.getByRole('searchbox', { name: 'Name' }).fill(someone.name)
    await poll(() => bodyRows(page).first().textContent()).toContain(someone.name)
    await detailShows(page, 'People table row', { name: someone.name, upId: upIdOf(someone), personVia: 'callback' })
  })

  it('summary: the figures in a table, as the server counts them', async () => {
    const { page } = staff
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Summary' }).click()
    await page.getByRole('heading', { name: 'Summary', level: 1 }).waitFor()
    const { data: summary } = await api<{ data: Array<{ key: string; label: string; value: number | string | null }> }>('/api-v2/admin/summary')
    const table = page.getByRole('table', { name: 'Summary' })
    await table.locator('tbody tr').first().waitFor()
    const shown = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-key'), tr.children[0]!.textContent, tr.children[1]!.textContent]))
    const fmt = (v: number | string | null) => (typeof v === 'number' ? v.toLocaleString('en-US') : v === null || v === '' ? '–' : v)
    expect(shown).toEqual(summary.map((r) => [r.key, r.label, fmt(r.value)]))
    const value = (key: string) => summary.find((r) => r.key === key)?.value
    expect(value('universalPersons')).toBe(persons)
    expect(value('cookieLinks')).toBe(cookies)
    expect(value('businessIntents')).toBe(intents)
    expect(value('organisations')).toBe(2)
    await screenshot(page, 'admin-14-summary')
    expect(staff.errors).toEqual([])
  })

  it("a big universal import's log grows in the browser while it runs: the first line, then a line per 100,000 rows, then 'Done:'", async () => {
    const { page } = staff
    const big = 150_000
    const lines = ['up_id,first_name']
    for (let i = 0; i < big; i++) lines.push(`5x5-9${String(i).padStart(31, '0')},P${i}`)
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Universal table' }).click()
    await page.getByRole('button', { name: 'Import universal table...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import universal table' })
    const log = dialog.getByRole('log', { name: 'Import log' })
    await log.getByText(/^Done:/m).waitFor() // the last import's log, shown on opening
    await dialog.getByLabel('Universal table file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') })
    // Every text the log shows, in order, as the page renders it.
    await log.evaluate((el) => {
      const seen: string[] = []
      ;(window as unknown as { logStates: string[] }).logStates = seen
      new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, { childList: true, subtree: true, characterData: true })
    })
    await dialog.getByRole('button', { name: 'Import' }).click()
    await dialog.getByText('Import finished').waitFor({ timeout: 120_000 })
    const states = await page.evaluate(() => (window as unknown as { logStates: string[] }).logStates.filter(Boolean))
    const final = states.at(-1)!
    expect(final.split('\n')).toEqual([
      'Importing universal table from big.csv',
      '100,000 rows read: 100,000 imported, 0 unchanged, 0 skipped',
      expect.stringMatching(/^Done: 150,000 rows read: 150,000 imported, 0 unchanged, 0 skipped in [\d.]+ s$/),
      '',
    ])
    // Shown as it came: the first line alone, then with the 100,000 line, before 'Done:'.
    expect(states.some((t) => t === 'Importing universal table from big.csv\n')).toBe(true)
    expect(states.some((t) => t.includes('100,000 rows read') && !t.includes('Done:'))).toBe(true)
    await screenshot(page, 'admin-15-big-import')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await poll(() => range(page).textContent()).toBe(`1–20 of ${groupedCount(persons + big)}`)
    expect(staff.errors).toEqual([])
  }, 180_000)
})
