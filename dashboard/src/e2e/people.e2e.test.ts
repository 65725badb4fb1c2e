import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Company, Person } from '@fl0/demo'
import { orgParams, resolvedVisitsSql } from '@fl0/query'
import { formatRevenue } from '../screens/people/PeopleTable.tsx'
import { demoUrl, signUpToDemo, startDemoFl0, waitForIdentity, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'

/** A pager's numbers, grouped as the pager writes them ('1–20 of 13,678'). */
const groupedCount = (n: number) => n.toLocaleString('en-US')

/**
 * People and profiles in Chromium against a real fl0 filled with the demo's
 * events through its ingest. What the screens show is checked against the
 * demo's ground truth (names, roles, companies, e-mail kinds, LinkedIn) and
 * against the events store, read here row by row and worked through in this
 * file's own code: who each event belongs to (a user id, or the user its
 * anonymous id was first seen with), visits as 30-minute sessions, the last
 * 30 days of a company's people.
 */
const DAY_MS = 86_400_000
const SESSION_GAP_MS = 30 * 60_000
const ACTIVITY = new Set(['page', 'screen', 'track'])

interface Row {
  user_id: string
  anonymous_id: string
  type: string
  event: string
  name: string
  page_title: string
  page_path: string
  message_id: string
  group_id: string
  ms: string
}

interface Ev extends Omit<Row, 'ms'> {
  ms: number
  person: string
}

describe.skipIf(!runBrowserTests)('people and profiles, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''
  let events: Ev[] = []
  /** Person key → their world person (signed-up users by id, anonymous visitors by a device's id). */
  const truth = new Map<string, Person>()
  let leads = new Set<string>()
  /** People who told fl0 who they are (an identify call), and those a group call placed in a company. */
  let told = new Set<string>()
  let grouped = new Set<string>()

  const org = () => fl0.organisation.org.id
  const spaces = (s: string | null) => (s ?? '').replace(/[\s\u202f]+/g, ' ').trim()
  const isoOf = (ms: number) => new Date(ms).toISOString()
  const today = () => new Date().toISOString().slice(0, 10)
  const daysAgo = (n: number) => new Date(Date.parse(today()) - n * DAY_MS).toISOString().slice(0, 10)
  const dateOf = (e: Ev) => isoOf(e.ms).slice(0, 10)

  /** Every stored call of the demo organisation up to now, each with its person by the identity rules. */
  async function loadEvents() {
    const rows = await fl0.query<Row>(
      `SELECT user_id, anonymous_id, type, event, name, page_title, page_path, message_id, group_id, toUnixTimestamp64Milli(timestamp) AS ms
       FROM events WHERE org_id = {org:String} AND timestamp <= now64(3) ORDER BY timestamp, message_id`,
      { org: org() },
    )
    const linked = new Map<string, { user: string; ms: number }>()
    for (const r of rows) {
      if (!r.user_id || !r.anonymous_id) continue
      const seen = linked.get(r.anonymous_id)
      const ms = Number(r.ms)
      if (!seen || ms < seen.ms || (ms === seen.ms && r.user_id < seen.user)) linked.set(r.anonymous_id, { user: r.user_id, ms })
    }
    return rows
      .filter((r) => r.user_id || r.anonymous_id)
      .map((r) => ({ ...r, ms: Number(r.ms), person: r.user_id || linked.get(r.anonymous_id)?.user || `anon:${r.anonymous_id}` }))
  }

  /** People most recently active first (then by key), with their last activity and visits. */
  function ranking(anonymous: boolean) {
    const people = new Map<string, { last: number; times: number[] }>()
    for (const e of events) {
      if (!anonymous && e.person.startsWith('anon:')) continue
      const p = people.get(e.person) ?? { last: 0, times: [] }
      if (ACTIVITY.has(e.type)) {
        p.last = Math.max(p.last, e.ms)
        p.times.push(e.ms)
      }
      people.set(e.person, p)
    }
    return [...people]
      .map(([key, p]) => ({ key, last: p.last, visits: p.times.sort((a, b) => a - b).filter((t, i, all) => i === 0 || t - all[i - 1]! > SESSION_GAP_MS).length }))
      .sort((a, b) => b.last - a.last || (a.key < b.key ? -1 : 1))
  }

  /**
   * The name the table shows: the world's name for anyone who told it in an identify call (signing up, logging
   * in, the demo form); else the user id, or 'Anonymous visitor'. Someone who signed up before the window and
   * never logged in during it has told nothing the store holds.
   */
  const shownName = (key: string) => {
    const p = truth.get(key)
    if (p && told.has(key)) return p.name
    return key.startsWith('anon:') ? 'Anonymous visitor' : key
  }

  const grid = () => page.getByRole('region', { name: 'People' })
  const rowTexts = () => grid().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')))

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    // Anonymous visitors' companies come from their visits' addresses: every visit folded before any screen is read.
    await waitForIdentity(fl0)
    base = demoUrl(fl0)
    const { world } = fl0.demo
    for (const p of world.people) {
      truth.set(p.id, p)
      for (const d of p.devices) truth.set(`anon:${d.anonymousId}`, p)
    }
    events = await loadEvents()
    leads = new Set(events.filter((e) => e.type === 'identify' && !e.user_id).map((e) => e.anonymous_id))
    told = new Set(events.filter((e) => e.type === 'identify').map((e) => e.person))
    grouped = new Set(events.filter((e) => e.type === 'group').map((e) => e.person))
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('signs up (adopting the demo organisation) and lands on the People table: the identified people, most recently seen first', async () => {
    await signUpToDemo(page, fl0)
    const expected = ranking(false)
    const [{ n }] = await fl0.query<{ n: string }>("SELECT uniqExact(user_id) AS n FROM events WHERE org_id = {org:String} AND user_id != '' AND timestamp <= now64(3)", { org: org() })
    expect(expected.length).toBe(Number(n))
    await grid().getByText(`1–20 of ${groupedCount(expected.length)}`).waitFor()
    expect(await page.getByRole('navigation', { name: 'People area' }).getByRole('link', { name: 'People', exact: true }).getAttribute('aria-current')).toBe('page')
    expect(await grid().getByRole('columnheader').allTextContents()).toEqual(['Visitor', 'Company', 'Activity', 'Role', 'Last seen', 'Employees', 'Revenue'])

    const rows = await rowTexts()
    expect(rows).toHaveLength(20)
    const firstPage = expected.slice(0, 20)
    await screenshot(page, 'people-01-table')
    expect(firstPage.filter((p) => told.has(p.key)).length).toBeGreaterThan(10)
    for (const [i, want] of firstPage.entries()) {
      // What the store can know of the person: all of the world's truth once they identified, nothing before.
      const person = truth.get(want.key)!
      const known = told.has(want.key)
      const company: Company | null = person.companyIndex === null ? null : fl0.demo.world.companies[person.companyIndex]!
      const placed = company && (grouped.has(want.key) || (known && person.emailKind === 'business'))
      const [visitor, companyCell, activity, role, , employees, revenue] = rows[i]!.map(spaces)
      expect(visitor, `row ${i}`).toContain(shownName(want.key))
      expect(companyCell, `row ${i}`).toBe(placed ? `${company.name}${company.domain}` : '—')
      expect(activity, `row ${i}`).toBe(`${want.visits} visit${want.visits === 1 ? '' : 's'}`)
      expect(role, `row ${i}`).toBe(known ? person.role : '—')
      expect(employees, `row ${i}`).toBe(placed ? company.employees.toLocaleString('en-US') : '—')
      expect(revenue, `row ${i}`).toBe(placed ? formatRevenue(company.revenue) : '—')
      // The icons: LinkedIn when the person gave a profile, the e-mail kind the world gave them.
      const tr = grid().locator('tbody tr').nth(i)
      expect(await tr.getByRole('link', { name: /^LinkedIn profile of/ }).count(), `row ${i}`).toBe(known && person.linkedinUrl ? 1 : 0)
      if (known && person.linkedinUrl) expect(await tr.getByRole('link', { name: /^LinkedIn/ }).getAttribute('href')).toBe(person.linkedinUrl)
      expect(await tr.getByRole('img', { name: 'Business email' }).count(), `row ${i}`).toBe(known && person.emailKind === 'business' ? 1 : 0)
      expect(await tr.getByRole('img', { name: 'Personal email' }).count(), `row ${i}`).toBe(known && person.emailKind === 'personal' ? 1 : 0)
      expect(await tr.locator('time').getAttribute('datetime'), `row ${i}`).toBe(isoOf(want.last))
    }
  })

  it('pages through the people, 20 at a time', async () => {
    const expected = ranking(false)
    await grid().getByLabel('Next page').click()
    await grid().getByText(`21–${Math.min(40, expected.length)} of ${groupedCount(expected.length)}`).waitFor()
    // The range shows as the page is asked for; its rows follow with the answer (on a busy machine, a while after).
    const names = async () => (await rowTexts()).map((r) => spaces(r[0]!))
    await expect.poll(async () => (await names())[0], { timeout: 15_000 }).toContain(shownName(expected[20]!.key))
    const shown = await names()
    expected.slice(20, 40).forEach((want, i) => expect(shown[i]).toContain(shownName(want.key)))
    await grid().getByLabel('Previous page').click()
    await grid().getByText(`1–20 of ${groupedCount(expected.length)}`).waitFor()
  })

  it("adds the visitors nobody identified with 'Show anonymous users'", async () => {
    const expected = ranking(true)
    const [{ n }] = await fl0.query<{ n: string }>(
      `SELECT uniqExact(anonymous_id) AS n FROM events WHERE org_id = {org:String} AND anonymous_id != '' AND user_id = '' AND timestamp <= now64(3)
         AND anonymous_id NOT IN (SELECT anonymous_id FROM events WHERE org_id = {org:String} AND user_id != '' AND anonymous_id != '')`,
      { org: org() },
    )
    expect(expected.length).toBe(ranking(false).length + Number(n))
    await page.getByRole('switch', { name: 'Show anonymous users' }).check()
    await grid().getByText(`1–20 of ${groupedCount(expected.length)}`).waitFor()
    const names = (await rowTexts()).map((r) => spaces(r[0]!))
    expected.slice(0, 20).forEach((want, i) => expect(names[i], `row ${i}`).toContain(shownName(want.key)))
    expect(expected.slice(0, 20).some((p) => p.key.startsWith('anon:'))).toBe(true)
    await screenshot(page, 'people-02-anonymous')
    await page.getByRole('switch', { name: 'Show anonymous users' }).uncheck()
    await grid().getByText(`1–20 of ${groupedCount(ranking(false).length)}`).waitFor()
  })

  it('names the company behind anonymous visitors from their office address, with no data imported, and never a provider', async () => {
    // The demo's companies are business networks of the free IP data fl0 ships with (demo/src/generator/networks.ts):
    // an anonymous visitor seen at an office is named by that office's company, one seen only at home or on a phone by none.
    const linkedAnons = new Set(events.filter((e) => e.user_id && e.anonymous_id).map((e) => e.anonymous_id))
    const officeCompanies = new Set<string>()
    const companyName = new Map(fl0.demo.world.companies.map((c) => [c.id, c.name]))
    for (const { message, truth } of fl0.demo.messages()) {
      if (!message.anonymousId || message.userId || linkedAnons.has(message.anonymousId)) continue
      if (truth.network === 'office' && truth.companyId) officeCompanies.add(companyName.get(truth.companyId)!)
    }
    expect(officeCompanies.size).toBeGreaterThan(0)
    // Every anonymous visitor the list names a company for, through the API the screen reads (all pages).
    const call = (n: number) => page.request.get(`${fl0.url}/api-v2/orgs/${fl0.organisation.org.url_code}/people?ip2company=true&page=${n}`).then((r) => r.json() as Promise<{ totalUsers: number; users: Array<{ anonymous: boolean; company: string | null }> }>)
    const first = await call(1)
    expect(first.totalUsers).toBeGreaterThan(0)
    let firstNamedPage = 0
    let named = 0
    for (let n = 1; n <= Math.ceil(first.totalUsers / 20); n++) {
      for (const u of (n === 1 ? first : await call(n)).users) {
        if (!u.anonymous || !u.company) continue
        expect(officeCompanies.has(u.company), u.company).toBe(true)
        named++
        firstNamedPage ||= n
      }
    }
    expect(named).toBeGreaterThan(0)
    // And on screen: the first page with one, its row naming the company.
    // Each page's rows are read once its pager shows that page of the list with anonymous visitors (its own total).
    const pager = (n: number) => `${(n - 1) * 20 + 1}–${Math.min(n * 20, first.totalUsers)} of ${groupedCount(first.totalUsers)}`
    await page.getByRole('switch', { name: 'Show anonymous users' }).check()
    for (let n = 1; n < firstNamedPage; n++) {
      await grid().getByText(pager(n)).waitFor()
      await grid().getByLabel('Next page').click()
    }
    await grid().getByText(pager(firstNamedPage)).waitFor()
    // The pager shows the page as it is asked for, its rows come with the answer: wait for that page's named visitors.
    const namedRows = async () => (await rowTexts()).filter((cells) => spaces(cells[0]!).includes('Anonymous visitor') && spaces(cells[1]!) !== '—' && spaces(cells[1]!) !== '')
    await expect.poll(async () => (await namedRows()).length, { timeout: 15_000 }).toBeGreaterThan(0)
    const shown = await namedRows()
    for (const cells of shown) expect([...officeCompanies].some((c) => spaces(cells[1]!).startsWith(c)), cells[1]).toBe(true)
    await screenshot(page, 'people-03-anonymous-companies')
    await page.getByRole('switch', { name: 'Show anonymous users' }).uncheck()
    await grid().getByText(`1–20 of ${groupedCount(ranking(false).length)}`).waitFor()
  })

  it("opens the company page from a person's row", async () => {
    const first = ranking(false).find((p) => grouped.has(p.key) && truth.get(p.key)?.companyIndex !== null)!
    const company = fl0.demo.world.companies[truth.get(first.key)!.companyIndex!]!
    const person = truth.get(first.key)!
    await grid().locator('tbody tr', { has: page.getByRole('link', { name: person.name, exact: true }) }).getByText(person.role, { exact: true }).click()
    await page.waitForURL(new RegExp(`/organizations/demo/companies/${company.domain.replace(/\./g, '\\.')}$`))
    await page.getByRole('heading', { level: 1, name: company.name }).waitFor()
    await page.goBack()
    await grid().getByText(`1–20 of ${groupedCount(ranking(false).length)}`).waitFor()
  })

  let profiled: { key: string; person: Person; company: Company }

  it("opens a user's profile: who they are, their most triggered events of the last 30 days", async () => {
    const key = ranking(false).find((p) => grouped.has(p.key) && truth.get(p.key)?.companyIndex !== null)!.key
    const person = truth.get(key)!
    profiled = { key, person, company: fl0.demo.world.companies[person.companyIndex!]! }
    await grid().getByRole('link', { name: person.name, exact: true }).click()
    await page.waitForURL(`${base}/people/users/${encodeURIComponent(key)}`)
    await page.getByRole('heading', { level: 1, name: person.name }).waitFor()
    await page.getByText(person.email, { exact: true }).first().waitFor()
    expect(await page.getByRole('link', { name: profiled.company.name, exact: true }).getAttribute('href')).toBe(`/organizations/demo/people/companies/${profiled.company.domain}`)

    const since = daysAgo(29)
    const counts = new Map<string, number>()
    for (const e of events) if (e.person === key && e.type === 'track' && e.event && dateOf(e) >= since) counts.set(e.event, (counts.get(e.event) ?? 0) + 1)
    const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10)
    const list = page.getByRole('region', { name: 'Most triggered events' })
    await list.waitFor()
    const shown = await list.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)))
    expect(shown).toEqual([...top.map(([name, n]) => [name, n.toLocaleString('en-US')]), ...Array.from({ length: 10 - top.length }, () => ['-', '-'])])
    expect(await page.getByRole('img', { name: 'Events per day' }).getAttribute('data-points')).toBe('30')
    await page.getByRole('img', { name: 'Events per day' }).locator('canvas').first().waitFor()
    await screenshot(page, 'people-03-user-overview')
  })

  it('lists all their events, newest first, with the metrics that count them, and shows a payload on hover', async () => {
    // A saved metric of one of the person's events, made through the api as the metric editor would.
    const topEvent = events.filter((e) => e.person === profiled.key && e.type === 'track').at(-1)!.event
    const res = await page.request.post(`${fl0.url}/api/orgs/demo/metrics`, { data: { name: 'Their metric', definition: { events: [{ name: topEvent }] } } })
    expect(res.status()).toBe(201)
    await page.getByRole('link', { name: 'Events', exact: true }).click()
    await page.waitForURL(`${base}/people/users/${encodeURIComponent(profiled.key)}/events`)
    const theirs = events.filter((e) => e.person === profiled.key).sort((a, b) => b.ms - a.ms || (a.message_id < b.message_id ? 1 : -1))
    const table = page.getByRole('region', { name: 'Events' })
    await table.getByText(`1–${Math.min(20, theirs.length)} of ${groupedCount(theirs.length)}`).waitFor()
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Event', 'Metrics'])
    const label = (e: Ev) => (e.type === 'track' ? e.event : e.type === 'page' || e.type === 'screen' ? e.name || e.page_title || e.page_path : e.type)
    const shown = await table.locator('tbody tr td:nth-child(2)').allTextContents()
    expect(shown).toEqual(theirs.slice(0, 20).map((e) => `${e.type}${label(e)}`))
    const metrics = await table.locator('tbody tr td:nth-child(3)').allTextContents()
    expect(metrics).toEqual(theirs.slice(0, 20).map((e) => (e.type === 'track' && e.event === topEvent ? 'Their metric' : '—')))

    await table.locator('tbody tr').nth(1).hover()
    const payload = page.getByRole('complementary', { name: 'Event payload' }).getByTestId('payload')
    await page.waitForFunction((id) => document.querySelector('[data-testid="payload"]')?.textContent?.includes(`"message_id": "${id}"`), theirs[1]!.message_id)
    const json = JSON.parse((await payload.textContent())!) as Record<string, unknown>
    expect(json).toMatchObject({ message_id: theirs[1]!.message_id, type: theirs[1]!.type, user_id: theirs[1]!.user_id })
    await screenshot(page, 'people-04-user-events')
  })

  it("opens the company's profile: active users, who used it most, features against the store", async () => {
    // Two features of demo events and one nobody uses, made through the api as the features screen would.
    for (const [name, evs] of [['Reporting', ['Report Created', 'Export Downloaded']], ['Dashboards', ['Dashboard Viewed', 'Dashboard Shared']], ['Never used', ['Nothing Happened']]] as const) {
      const res = await page.request.post(`${fl0.url}/api-v2/orgs/demo/features`, { data: { name, events: evs } })
      expect(res.status()).toBe(201)
    }
    await page.getByRole('link', { name: '← Back to people' }).waitFor()
    await page.goto(`${base}/people/companies/${profiled.company.domain}`)
    await page.getByRole('heading', { level: 1, name: profiled.company.name }).waitFor()

    // The company's people, from the ground truth's group id: its group calls' users, identify calls at its domain,
    // the anonymous ids of those users (by the identity rule), and leads who gave a business e-mail there.
    const c = profiled.company
    const users = new Set(events.filter((e) => e.user_id && ((e.type === 'group' && e.group_id === c.id) || false)).map((e) => e.user_id))
    const [emails] = [await fl0.query<{ user_id: string; anonymous_id: string }>(
      `SELECT DISTINCT user_id, anonymous_id FROM events WHERE org_id = {org:String} AND type = 'identify' AND endsWith(lower(traits.email::String), {at:String})`,
      { org: org(), at: `@${c.domain}` },
    )]
    for (const r of emails) if (r.user_id) users.add(r.user_id)
    const leadAnons = new Set(emails.filter((r) => !r.user_id).map((r) => r.anonymous_id))
    // And the anonymous visitors identification resolves to it by their address (members.ts rule 4): the free IP data
    // names the demo's companies, and learns their domains from their people's e-mails.
    const byAddress = await fl0.query<{ person: string }>(
      `SELECT DISTINCT person FROM (${resolvedVisitsSql()}) WHERE company_domain = {domain:String} AND company_via = 'ip' AND startsWith(person, 'anon:')`,
      { ...orgParams(org()), domain: c.domain },
    )
    const ipAnons = new Set(byAddress.map((r) => r.person))
    const member = (e: Ev) => users.has(e.person) || (e.person.startsWith('anon:') && (leadAnons.has(e.person.slice(5)) || ipAnons.has(e.person)))
    const active = events.filter((e) => member(e) && ACTIVITY.has(e.type))
    const activeSince = (date: string) => new Set(active.filter((e) => dateOf(e) >= date).map((e) => e.person)).size
    const stats = [activeSince(today()), activeSince(daysAgo(6)), activeSince(daysAgo(29))]
    await page.getByTestId('MAU').waitFor()
    expect(await Promise.all(['DAU', 'WAU', 'MAU'].map((k) => page.getByTestId(k).textContent()))).toEqual(stats.map(String))
    expect(stats[2]).toBeGreaterThan(0)

    const window = active.filter((e) => dateOf(e) >= daysAgo(29))
    const perPerson = new Map<string, number>()
    for (const e of window) perPerson.set(e.person, (perPerson.get(e.person) ?? 0) + 1)
    const [topKey, topTotal] = [...perPerson].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!
    const most = page.getByRole('region', { name: 'Who used it most' })
    const firstRow = await most.locator('tbody tr').first().locator('td').allTextContents()
    expect(firstRow).toEqual([told.has(topKey) ? truth.get(topKey)!.email : '—', shownName(topKey), topTotal.toLocaleString('en-US')])
    expect(await most.locator('tbody tr').count()).toBe(10)

    // Feature adoption: the window's track calls of each feature's events, the people who made them, over the active people.
    const adoption = (evs: string[]) => {
      const uses = window.filter((e) => e.type === 'track' && evs.includes(e.event))
      const people = new Set(uses.map((e) => e.person)).size
      return [uses.length, people, Math.round((people / stats[2]!) * 1000) / 10]
    }
    const reporting = adoption(['Report Created', 'Export Downloaded'])
    const lowest = page.getByRole('region', { name: 'Least used features' })
    await lowest.locator('tbody tr').first().waitFor()
    const lowestRows = await lowest.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)))
    expect(lowestRows[0]).toEqual(['Never used', '0', '0', '0%'])
    const row = lowestRows.find((r) => r[0] === 'Reporting')!
    expect(row).toEqual(['Reporting', reporting[0]!.toLocaleString('en-US'), String(reporting[1]), `${reporting[2]!.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`])
    expect(lowestRows.slice(3)).toEqual(Array.from({ length: 7 }, () => ['-', '-', '-', '-']))
    await page.getByRole('img', { name: 'Monthly active users' }).locator('canvas').first().waitFor()
    await screenshot(page, 'people-05-company-profile')
    await lowest.scrollIntoViewIfNeeded()
    await screenshot(page, 'people-06-company-features')
  })

  it('keeps the traits chosen for company profiles, for the organisation, across reloads', async () => {
    const traits = () => page.getByRole('region', { name: 'Traits' })
    const terms = () => traits().locator('dl dt').allTextContents()
    await traits().locator('dl dt', { hasText: 'Industry' }).waitFor()
    expect(await terms()).toEqual(['Industry', 'Employees', 'Revenue', 'Country', 'Plan', 'Website', 'Created at'])
    expect(spaces(await traits().locator('dl > div', { has: page.locator('dt', { hasText: 'Industry' }) }).locator('dd').textContent())).toBe(profiled.company.industry)
    await traits().getByRole('button', { name: 'Add trait' }).click()
    await page.getByRole('menuitemcheckbox', { name: 'Plan' }).click()
    await traits().locator('dl dt', { hasText: /^Plan$/ }).waitFor({ state: 'detached' })
    await screenshot(page, 'people-07-company-traits-chooser')
    await page.reload()
    await page.getByRole('heading', { level: 1, name: profiled.company.name }).waitFor()
    await traits().locator('dl dt', { hasText: 'Industry' }).waitFor()
    expect(await terms()).toEqual(['Industry', 'Employees', 'Revenue', 'Country', 'Website', 'Created at'])
    await traits().getByRole('button', { name: 'Add trait' }).click()
    expect(await page.getByRole('menuitemcheckbox', { name: 'Plan' }).getAttribute('aria-checked')).toBe('false')
    await page.getByRole('menuitemcheckbox', { name: 'Plan' }).click()
    await traits().locator('dl dt', { hasText: /^Plan$/ }).waitFor()
    await page.keyboard.press('Escape')
  })

  it('mounts the same screens under people-ai, and no error reached the page', async () => {
    await page.goto(`${base}/people-ai`)
    await grid().getByText(`1–20 of ${groupedCount(ranking(false).length)}`).waitFor()
    expect(await grid().getByRole('link', { name: profiled.person.name, exact: true }).getAttribute('href')).toBe(`/organizations/demo/people-ai/users/${encodeURIComponent(profiled.key)}`)
    expect(errors).toEqual([])
  })
})
