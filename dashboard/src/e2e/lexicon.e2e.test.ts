import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { LexiconEventList, MappingSelections } from '@fl0/contracts/lexicon'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'
import { demoUrl, signUpToDemo, startDemoFl0, waitForLexicon, type DemoFl0 } from './demoFl0.ts'

/**
 * The lexicon in Chromium against a real fl0 filled with the demo's events
 * through its ingest, the lexicon worker indexing them as they came: the
 * events by volume and by name, search, a row's properties, an event sent
 * during the test showing up, the traits' filters, and mapping choices that
 * outlive a reload. Names and types are checked against the events store.
 *
 * Nothing here waits for a time: what a click, a keystroke or a tab changes is
 * polled until the screen shows it (a tab's page renders in a transition, after
 * the address has changed), and the dictionary is compared with the store only
 * once its worker has indexed every record on the bus (waitForLexicon).
 */
describe.skipIf(!runBrowserTests)('lexicon, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''
  let org = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    org = fl0.organisation.org.id
    await waitForLexicon(fl0)
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } }))
    base = demoUrl(fl0, '/lexicon')
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const grid = () => page.getByRole('table')
  /** A tab's own panel: its name changes in the same render as its content. */
  const panel = (tab: 'Events' | 'Traits' | 'Mapping') => page.getByRole('tabpanel', { name: tab, exact: true })
  /** Waits until the screen shows what `read` expects; the bound is only how long to wait before failing. */
  const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 })
  /** The names shown, in order: each row's first cell is its expand button. */
  const shownNames = () => grid().locator('tbody > tr > td:first-child button').allTextContents().then((names) => names.map((n) => n.replace('›', '').trim()))
  const rowOf = (name: string) => grid().locator('tbody > tr').filter({ has: page.getByRole('button', { name, exact: false }) }).first()
  const lexicon = async () => ((await (await page.request.get(`${fl0.url}/api/orgs/demo/lexicon/events`)).json()) as LexiconEventList).events

  it("lists the demo's events with their 30-day volume, most first, under the tabs Events, Traits and Mapping", async () => {
    await signUpToDemo(page, fl0)
    // The answer the screen itself got: its order is checked against that, not against a later call (the window moves).
    const shown = page.waitForResponse((r) => r.url().endsWith('/api/orgs/demo/lexicon/events') && r.request().method() === 'GET')
    await page.goto(base)
    await page.getByRole('heading', { name: 'Lexicon', level: 1 }).waitFor()
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Events', 'Traits', 'Mapping'])
    await grid().locator('tbody button').first().waitFor()
    expect((await page.getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▲▼]/g, ''))).toEqual(['Name', '30 day volume'])
    expect(await page.getByRole('columnheader', { name: /30 day volume/ }).getAttribute('aria-sort')).toBe('descending')

    // Every track event name in the store is listed, and nothing else.
    const stored = await fl0.query<{ event: string }>("SELECT DISTINCT event FROM events WHERE org_id = {org:String} AND type = 'track' ORDER BY event", { org })
    const events = await lexicon()
    expect(events.map((e) => e.name).sort()).toEqual(stored.map((r) => r.event).sort())
    // The volume is the store's count of the last 30 days (counted before and after: the window moves while the test runs).
    const count = async (name: string) =>
      Number((await fl0.query<{ n: string }>("SELECT count() AS n FROM events WHERE org_id = {org:String} AND type = 'track' AND event = {name:String} AND timestamp > now64(3) - INTERVAL 30 DAY AND timestamp <= now64(3)", { org, name }))[0]!.n)
    const top = events[0]!
    // Found by name, not taken first: while the window moves, a close second could overtake it.
    const [before, answered, after] = [await count(top.name), (await lexicon()).find((e) => e.name === top.name), await count(top.name)]
    if (!answered) throw new Error(`${top.name} is no longer listed`)
    expect(answered.volume).toBeGreaterThanOrEqual(Math.min(before, after))
    expect(answered.volume).toBeLessThanOrEqual(Math.max(before, after))
    expect(top.volume).toBeGreaterThan(0)

    // The screen shows them in the answer's order: by volume, most first.
    const onScreen = ((await (await shown).json()) as LexiconEventList).events
    const byVolume = [...onScreen].sort((a, b) => b.volume - a.volume || a.name.localeCompare(b.name)).map((e) => e.name)
    expect(await shownNames()).toEqual(byVolume.slice(0, 20))
    await screenshot(page, 'lexicon-01-events-by-volume')
  })

  it('sorts by name and back by volume, and searches by name', async () => {
    const events = await lexicon()
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('button').click()
    await poll(() => page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending')
    await poll(shownNames).toEqual(events.map((e) => e.name).sort((a, b) => a.localeCompare(b)).slice(0, 20))
    await screenshot(page, 'lexicon-02-events-by-name')
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('button').click()
    await poll(shownNames).toEqual(events.map((e) => e.name).sort((a, b) => b.localeCompare(a)).slice(0, 20))
    await page.getByRole('columnheader', { name: /30 day volume/ }).getByRole('button').click()
    await poll(() => page.getByRole('columnheader', { name: /30 day volume/ }).getAttribute('aria-sort')).toBe('descending')

    const search = page.getByRole('searchbox', { name: 'Search events' })
    await search.fill('report')
    const expected = events.filter((e) => e.name.toLowerCase().includes('report')).map((e) => e.name)
    expect(expected.length).toBeGreaterThan(0)
    await poll(shownNames).toEqual(expected)
    await search.fill('no such event anywhere')
    await page.getByText('No events found').waitFor()
    await screenshot(page, 'lexicon-03-events-empty')
    await search.fill('')
  })

  it("opens a row into its properties and their types, as the store holds them, or 'No properties found'", async () => {
    const [{ event }] = await fl0.query<{ event: string }>(
      'SELECT event FROM lexicon_properties WHERE org_id = {org:String} GROUP BY event ORDER BY uniqExact(path) DESC, event LIMIT 1',
      { org },
    )
    const paths = await fl0.query<{ path: string }>('SELECT DISTINCT path FROM lexicon_properties WHERE org_id = {org:String} AND event = {event:String} ORDER BY path', { org, event })
    const button = rowOf(event).getByRole('button')
    await button.click()
    await poll(() => button.getAttribute('aria-expanded')).toBe('true')
    const list = page.getByRole('list', { name: `Properties of ${event}` })
    await list.waitFor()
    const items = await list.getByRole('listitem').evaluateAll((els) => els.map((li) => [li.querySelector('span.font-mono')?.textContent, li.querySelector('span.rounded')?.textContent]))
    expect(items.map(([name]) => name)).toEqual(paths.map((p) => p.path))
    for (const [, type] of items) expect(['string', 'number', 'boolean', 'date', 'stringArray', 'numberArray', 'booleanArray', 'objectArray']).toContain(type)
    await screenshot(page, 'lexicon-04-event-properties')
    await button.click()
    await list.waitFor({ state: 'detached' })

    // An event sent now, through the ingest, without properties: listed after a reload, with 'No properties found'.
    const res = await page.request.post(`${fl0.url}/v1/track`, {
      data: { writeKey: fl0.organisation.segment.write_key, userId: 'e2e-user', event: 'Tour Finished' },
    })
    expect(res.status()).toBe(200)
    // The ingest answered once the call was on the bus: once the worker has indexed all the bus holds, the name is listed.
    await waitForLexicon(fl0)
    expect((await lexicon()).map((e) => e.name)).toContain('Tour Finished')
    await page.reload()
    await page.getByRole('searchbox', { name: 'Search events' }).fill('tour finished')
    await rowOf('Tour Finished').getByRole('button').click()
    await page.getByText('No properties found').waitFor()
    await screenshot(page, 'lexicon-05-no-properties')
    expect(errors).toEqual([])
  })

  it('filters the traits by Entity and Type, and searches them', async () => {
    await page.getByRole('tab', { name: 'Traits' }).click()
    await page.waitForURL(/\/lexicon\/traits$/)
    // Not grid(): the Events tab's table stays on screen until the new tab's render is committed.
    await panel('Traits').locator('tbody td').first().waitFor()
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Trait name', 'Type', 'Entity'])
    const rows = () => grid().locator('tbody > tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
    const stored = await fl0.query<{ entity: string; name: string }>('SELECT DISTINCT entity, name FROM lexicon_traits WHERE org_id = {org:String}', { org })
    const companyTraits = stored.filter((t) => t.entity === 'company').map((t) => t.name).sort()
    expect(companyTraits.length).toBeGreaterThan(0)
    await screenshot(page, 'lexicon-06-traits')

    await page.getByRole('combobox', { name: 'Entity' }).selectOption({ label: 'Company' })
    await poll(async () => (await rows()).map((r) => r[2])).toEqual(Array(Math.min(companyTraits.length, 20)).fill('Company'))
    expect((await rows()).map((r) => r[0]).sort()).toEqual(companyTraits.slice(0, 20))
    await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'number' })
    await poll(async () => new Set((await rows()).map((r) => `${r[1]} ${r[2]}`))).toEqual(new Set(['number Company']))
    expect((await rows()).map((r) => r[0])).toEqual(expect.arrayContaining(['employees']))
    await screenshot(page, 'lexicon-07-traits-filtered')
    await page.getByRole('searchbox', { name: 'Search traits' }).fill('no such trait')
    await page.getByText('No traits found').waitFor()
    await screenshot(page, 'lexicon-08-traits-empty')
    await page.getByRole('searchbox', { name: 'Search traits' }).fill('')
    await page.getByRole('combobox', { name: 'Entity' }).selectOption({ label: 'User' })
    await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'All' })
    await poll(async () => new Set((await rows()).map((r) => r[2]))).toEqual(new Set(['User']))
  })

  it('saves mapping choices at once, with no save button, and they outlive a reload', async () => {
    await page.getByRole('tab', { name: 'Mapping' }).click()
    await page.waitForURL(/\/lexicon\/mapping$/)
    await panel('Mapping').locator('tbody button').first().waitFor()
    expect(await page.getByRole('button', { name: /save/i }).count()).toBe(0)
    const [{ event }] = await fl0.query<{ event: string }>(
      'SELECT event FROM lexicon_properties WHERE org_id = {org:String} GROUP BY event ORDER BY uniqExact(path) DESC, event LIMIT 1',
      { org },
    )
    const [{ path }] = await fl0.query<{ path: string }>('SELECT min(path) AS path FROM lexicon_properties WHERE org_id = {org:String} AND event = {event:String}', { org, event })
    const search = page.getByRole('searchbox', { name: 'Search events' })
    await search.fill(event)
    const row = rowOf(event)
    await row.getByRole('button').click()
    const props = page.getByRole('list', { name: `Properties of ${event}` })
    const saved = () => page.waitForResponse((r) => r.url().endsWith('/api-v2/orgs/demo/lexicon/mapping') && r.request().method() === 'POST')
    const stored = async () => ((await (await page.request.get(`${fl0.url}/api-v2/orgs/demo/lexicon/mapping`)).json()) as MappingSelections).featureSelections

    let response = saved()
    await props.getByRole('checkbox', { name: path, exact: true }).check()
    expect((await response).status()).toBe(200)
    expect(await stored()).toEqual({ excludedEvents: [], includedProperties: [{ event, property: path }] })
    await screenshot(page, 'lexicon-09-mapping-property')

    await page.reload()
    await search.fill(event)
    await rowOf(event).getByRole('button').click()
    await poll(() => props.getByRole('checkbox', { name: path, exact: true }).isChecked()).toBe(true)
    await poll(() => rowOf(event).getByRole('checkbox', { name: 'In model' }).isChecked()).toBe(true)

    // Out of the model: its ticked property goes with it.
    response = saved()
    await rowOf(event).getByRole('checkbox', { name: 'In model' }).uncheck()
    expect((await response).status()).toBe(200)
    expect(await stored()).toEqual({ excludedEvents: [event], includedProperties: [] })
    const box = props.getByRole('checkbox', { name: path, exact: true })
    await poll(async () => [await box.isChecked(), await box.isDisabled()]).toEqual([false, true])
    await screenshot(page, 'lexicon-10-mapping-event-off')

    await page.reload()
    await search.fill(event)
    await poll(() => rowOf(event).getByRole('checkbox', { name: 'In model' }).isChecked()).toBe(false)

    await search.fill('no such event anywhere')
    await page.getByText('No events found').waitFor()
    await screenshot(page, 'lexicon-11-mapping-empty')
    expect(errors).toEqual([])
  })
})

