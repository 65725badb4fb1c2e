import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'

/**
 * Audiences in Chromium against a real fl0 filled with the demo's events
 * through its ingest: build an audience of a trait filter and an action
 * filter, see its preview, create it, reload it, find it in the list, delete
 * it. The preview's counts are checked against the events store, read here row
 * by row and worked through in this file's own code (not the engine's SQL):
 * who each event belongs to (a user id, or the user its anonymous id was first
 * seen with), each user's latest non-empty plan, their Report Created events
 * of the last 7 days, their company (the group of their latest group call).
 */
const DAY_MS = 86_400_000
const EVENT = 'Report Created'

interface Row {
  user_id: string
  anonymous_id: string
  type: string
  event: string
  group_id: string
  plan: string
  ms: string
}

describe.skipIf(!runBrowserTests)('audiences, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  const name = `Pro reporters ${Date.now() % 1000}`
  /** The plan value the builder's value look-up offered first. */
  let plan = ''

  /** Who the filters "plan is {plan}" and "Report Created at least once in the last 7 days" take in, and their companies. */
  async function expected(plan: string) {
    const rows = await fl0.query<Row>(
      `SELECT user_id, anonymous_id, type, event, group_id, toString(traits.plan) AS plan, toUnixTimestamp64Milli(timestamp) AS ms
       FROM events WHERE org_id = {org:String} AND timestamp <= now64(3) ORDER BY timestamp`,
      { org: fl0.organisation.org.id },
    )
    const now = Date.now()
    const linked = new Map<string, { user: string; ms: number }>()
    for (const r of rows) {
      if (!r.user_id || !r.anonymous_id) continue
      const seen = linked.get(r.anonymous_id)
      if (!seen || Number(r.ms) < seen.ms || (Number(r.ms) === seen.ms && r.user_id < seen.user)) linked.set(r.anonymous_id, { user: r.user_id, ms: Number(r.ms) })
    }
    const people = new Map<string, { plan: string; reports: number; company: string }>()
    for (const r of rows) {
      const person = r.user_id || linked.get(r.anonymous_id)?.user
      if (!person) continue
      const p = people.get(person) ?? { plan: '', reports: 0, company: '' }
      if (r.type === 'identify' && r.plan !== '') p.plan = r.plan
      if (r.type === 'group' && r.group_id) p.company = r.group_id
      if (r.event === EVENT && Number(r.ms) >= now - 7 * DAY_MS) p.reports++
      people.set(person, p)
    }
    const members = [...people].filter(([, p]) => p.plan === plan && p.reports >= 1)
    return { users: members.length, companies: new Set(members.map(([, p]) => p.company).filter(Boolean)).size, everyone: people.size }
  }

  const preview = () => page.getByRole('region', { name: 'Preview' })
  const tabCount = async (tab: 'Users' | 'Companies') => Number((await preview().getByRole('tab', { name: new RegExp(`^${tab}`) }).innerText()).replace(/\D/g, ''))

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 1000 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('builds an audience from a trait filter and an action filter, with the preview counted as the store says', async () => {
    await signUpToDemo(page, fl0)
    const builder = page.getByRole('region', { name: 'Audience builder' })
    await builder.waitFor()
    // Before any filter: the People table lists everyone, and no preview repeats it.
    const all = await expected('')
    await page.getByRole('region', { name: 'People', exact: true }).locator('tbody tr').first().waitFor()
    expect(await preview().count()).toBe(0)

    await builder.getByRole('button', { name: 'Add filter' }).click()
    await builder.getByRole('combobox', { name: 'Filter 1 trait' }).click()
    await builder.getByRole('option', { name: 'plan', exact: true }).click()
    expect(await builder.getByLabel('Filter 1 operator').inputValue()).toBe('is')
    await builder.getByRole('combobox', { name: 'Filter 1 value' }).click()
    // The values look-up, most common first: take the first.
    plan = (await builder.getByRole('listbox', { name: 'Filter 1 value' }).getByRole('option').first().innerText()).trim()
    await builder.getByRole('option', { name: plan, exact: true }).click()

    await builder.getByRole('button', { name: 'Add action' }).click()
    await builder.getByRole('combobox', { name: 'Action 1 event' }).click()
    await builder.getByRole('option', { name: EVENT, exact: true }).click()
    expect(await builder.getByLabel('Action 1 operator').inputValue()).toBe('greater_than_or_equal_to')
    expect(await builder.getByLabel('Action 1 count').inputValue()).toBe('1')
    expect(await builder.getByLabel('Action 1 date range').inputValue()).toBe('7')

    const want = await expected(plan)
    expect(want.users).toBeGreaterThan(0)
    expect(want.users).toBeLessThan(all.everyone)
    // Both counts of the last preview (an earlier one, of the trait filter alone, may have had as many users).
    await preview().getByRole('tab', { name: `Users ${want.users}` }).waitFor()
    await preview().getByRole('tab', { name: `Companies ${want.companies}` }).waitFor({ timeout: 10_000 }).catch(() => undefined)
    expect(await tabCount('Companies')).toBe(want.companies)
    const users = page.getByRole('tabpanel', { name: 'Users' })
    expect(await users.getByRole('columnheader').allTextContents()).toEqual(['User', 'Name', 'Email', 'Company', 'Last seen', 'plan', `${EVENT} (last 7 days)`])
    const plans = await users.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[5]?.textContent))
    expect(plans.length).toBe(Math.min(20, want.users))
    expect(new Set(plans)).toEqual(new Set([plan]))
    await screenshot(page, 'audiences-01-builder')
    await preview().getByRole('tab', { name: /^Companies/ }).click()
    await page.getByRole('tabpanel', { name: 'Companies' }).getByRole('columnheader', { name: 'Domain' }).waitFor()
  })

  it('creates it: the modal, then the audience page with its filters saved', async () => {
    await page.getByRole('button', { name: 'Create audience...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create audience' })
    await dialog.getByRole('button', { name: 'Create audience' }).click()
    await dialog.getByText('Name must be provided').waitFor()
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByLabel('Description').fill('Made by the browser test')
    await dialog.getByRole('button', { name: 'Create audience' }).click()
    await page.waitForURL(/\/organizations\/demo\/people\/audiences\/[^/]+$/)
    await page.getByText(`The audience "${name}" has been saved`).waitFor()
    await page.getByRole('heading', { level: 1, name }).waitFor()
  })

  it('reloads it: the same name, filters and preview', async () => {
    const want = await expected(plan)
    await page.reload()
    await page.getByRole('heading', { level: 1, name }).waitFor()
    expect(await page.getByRole('navigation', { name: 'Breadcrumbs' }).innerText()).toMatch(new RegExp(`People\\s*›\\s*Audiences\\s*›\\s*${name}`))
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(name)
    expect(await page.getByLabel('Description').inputValue()).toBe('Made by the browser test')
    expect(await page.getByRole('combobox', { name: 'Filter 1 trait' }).inputValue()).toBe('plan')
    expect(await page.getByRole('combobox', { name: 'Filter 1 value' }).inputValue()).toBe(plan)
    expect(await page.getByRole('combobox', { name: 'Action 1 event' }).inputValue()).toBe(EVENT)
    await preview().getByRole('tab', { name: `Users ${want.users}` }).waitFor()
    expect(await tabCount('Companies')).toBe(want.companies)
    await screenshot(page, 'audiences-02-editor')

    // The list counts it the same way.
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Audiences' }).click()
    await page.waitForURL(/\/people\/audiences$/)
    const row = page.getByRole('row').filter({ hasText: name })
    await row.waitFor()
    expect((await row.getByRole('cell').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([`${name} Made by the browser test`, String(want.users), String(want.companies)])
    await page.getByRole('searchbox', { name: 'Search audience name...' }).fill('no such audience')
    await page.getByText('No audiences found').waitFor()
    await page.getByRole('searchbox', { name: 'Search audience name...' }).fill('')
    await row.click()
    await page.getByRole('heading', { level: 1, name }).waitFor()
  })

  it('deletes it after asking', async () => {
    await page.getByRole('button', { name: 'Delete...' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(`Are you sure you want to delete the audience "${name}"?`).waitFor()
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.waitForURL(/\/people\/audiences$/)
    await page.getByText(`Deleted audience ${name} successfully`).waitFor()
    await page.getByText('No audiences found').waitFor()
    expect(errors).toEqual([])
  })
})
