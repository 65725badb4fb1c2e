import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { BETWEEN_MESSAGE, type MetricDefinition } from '@fl0/contracts/metrics'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'
import { demoUrl, signUpToDemo, startDemoFl0, waitForLexicon, type DemoFl0 } from './demoFl0.ts'

/**
 * Metrics in Chromium against a real fl0 filled with the demo's events: the
 * empty list, each of the editor's seven rules acting as the user changes the
 * form, a three-step funnel built in the editor whose preview matches a count
 * made here from the raw events, saving, the list, editing with a property
 * filter from the look-ups, the between rule, and deleting.
 */
/** Three steps the small demo data set has, each taken by fewer people than the one before. */
const FUNNEL = ['Logged In', 'Report Created', 'Invite Sent'] as const
const NOTES = {
  rule1: 'Measure changed to Unique: Total needs events to count',
  rule2total: 'Measure changed to Unique: Total does not go with the Ordered operation',
  rule2conversion: 'Measure changed to Unique: Conversion rate needs the Ordered operation',
  rule3: 'Operation changed to Any: Ordered does not go with Total',
  rule4: 'Operation changed to Any: All needs events',
  rule5: 'Operation changed to Any: Ordered needs events',
  rule6: 'Graph type changed to Line: a funnel needs the Ordered operation',
  rule7: 'Occurring changed to Daily: weekly and monthly need more than 7 days',
}

describe.skipIf(!runBrowserTests)('metrics, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''
  let org = ''
  /** Every graph query the page sent, in order. */
  const graphBodies: MetricDefinition[] = []

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    org = fl0.organisation.org.id
    // Property paths come from the lexicon.
    await waitForLexicon(fl0)
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1400, height: 1000 } }))
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/metrics/graph')) graphBodies.push(r.postDataJSON() as MetricDefinition)
    })
    base = demoUrl(fl0, '/metrics')
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const group = (name: string) => page.getByRole('radiogroup', { name })
  const choose = (groupName: string, option: string) => group(groupName).getByRole('radio', { name: option, exact: true }).click()
  const chosen = (groupName: string, option: string) => group(groupName).getByRole('radio', { name: option, exact: true, checked: true }).waitFor()
  const note = (text: string) => page.getByRole('status', { name: 'Rules applied' }).getByText(text, { exact: true }).waitFor()
  const preview = () => page.getByRole('region', { name: 'Preview' })
  const eventsList = () => page.getByRole('list', { name: 'Events' }).getByRole('listitem')

  async function addEvent(name: string) {
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('searchbox', { name: 'Search events' }).fill(name)
    await page.getByRole('list', { name: 'Known events' }).getByRole('button', { name, exact: true }).click()
    await page.getByRole('list', { name: 'Events' }).getByRole('listitem', { name, exact: true }).last().waitFor()
  }
  const removeEvent = (name: string) => page.getByRole('button', { name: `Remove ${name}`, exact: true }).click()

  /**
   * Waits until the last graph query is the one described, and its answer is
   * on screen: the query starts (aria-busy) in the same task that sends it.
   */
  async function settled(is: (d: MetricDefinition) => boolean) {
    await expect.poll(() => graphBodies.length > 0 && is(graphBodies.at(-1)!), { timeout: 15_000 }).toBe(true)
    await page.locator('section[aria-label="Preview"][aria-busy="false"]').waitFor()
  }

  /** The funnel in the preview: each step's name and count. */
  async function shownFunnel() {
    const steps = preview().getByRole('list').first().getByRole('listitem')
    const names = await steps.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
    const counts = await preview().getByTestId('step-value').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))
    return names.map((name, i) => ({ step: name?.replace(/^Step \d+: /, ''), count: counts[i] }))
  }

  /**
   * The funnel counted here from the raw events: a person is the user id, else
   * the anonymous id; the range is the last 30 days in the organisation's zone
   * (UTC), today included; a person reaches a step when its event comes after
   * the previous step's (the first match of each step, in time order).
   */
  async function countFunnel(steps: ReadonlyArray<{ event: string; where?: { path: string; value: string } }>) {
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)
    const path = steps.find((s) => s.where)?.where?.path ?? ''
    const rows = await fl0.query<{ person: string; event: string; ts: string; prop: string }>(
      `SELECT if(user_id != '', user_id, anonymous_id) AS person, event, toUnixTimestamp64Milli(timestamp) AS ts, JSONExtractString(toJSONString(properties), {path:String}) AS prop
       FROM events
       WHERE org_id = {org:String} AND type = 'track' AND event IN {events:Array(String)} AND toDate(timestamp, 'UTC') >= {from:Date} AND timestamp <= now64(3)
       ORDER BY person, ts`,
      { org, events: [...new Set(steps.map((s) => s.event))], from, path },
    )
    const reached = new Array<number>(steps.length).fill(0)
    const byPerson = new Map<string, typeof rows>()
    for (const r of rows) byPerson.set(r.person, [...(byPerson.get(r.person) ?? []), r])
    for (const events of byPerson.values()) {
      let level = 0
      for (const e of events) {
        const step = steps[level]
        if (step && e.event === step.event && (step.where === undefined || e.prop === step.where.value)) level++
      }
      for (let k = 0; k < level; k++) reached[k]!++
    }
    return steps.map((s, k) => ({ step: s.event, count: reached[k] }))
  }

  it("shows 'Metrics' with 'No metrics found' before any metric exists", async () => {
    await signUpToDemo(page, fl0)
    await page.goto(base)
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor()
    await page.getByText('No metrics found').waitFor()
    expect(await page.getByRole('searchbox').getAttribute('placeholder')).toBe('Search metric by name...')
    await screenshot(page, 'metrics-01-empty')
  })

  it("opens the editor from 'Create metric...': 'Select metric options' over an empty graph, with no graph query", async () => {
    await page.getByRole('link', { name: 'Create metric...' }).click()
    await page.waitForURL(`${base}/new`)
    await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor()
    await preview().getByText('Select metric options').waitFor()
    await preview().getByRole('img', { name: 'Empty graph' }).locator('canvas').waitFor()
    expect(await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Metrics' }).getAttribute('href')).toBe('/organizations/demo/metrics')
    expect(await page.getByRole('button', { name: 'Delete...' }).count()).toBe(0)
    await screenshot(page, 'metrics-02-new')
  })

  it('watches each of the seven rules act as the form changes', async () => {
    // Rule 4: All needs events (or any event).
    await page.getByRole('checkbox', { name: 'Any event' }).check()
    await choose('Operation', 'All')
    await chosen('Operation', 'All')
    await page.getByRole('checkbox', { name: 'Any event' }).uncheck()
    await chosen('Operation', 'Any')
    await note(NOTES.rule4)
    await screenshot(page, 'metrics-03-rule4')

    // Rule 1: total with nothing to count becomes unique.
    await addEvent('Export Downloaded')
    await choose('Measure', 'Total')
    await chosen('Measure', 'Total')
    await removeEvent('Export Downloaded')
    await chosen('Measure', 'Unique users')
    await note(NOTES.rule1)

    // Rule 5: an ordered metric that loses its events becomes any.
    await addEvent('Export Downloaded')
    await choose('Operation', 'Ordered')
    await chosen('Operation', 'Ordered')
    await removeEvent('Export Downloaded')
    await chosen('Operation', 'Any')
    await note(NOTES.rule5)

    // Rule 7: weekly or monthly with the last 7 days becomes daily, and both are then disabled.
    await choose('Occurring', 'Weekly')
    await choose('Date range', '7D')
    await chosen('Occurring', 'Daily')
    await note(NOTES.rule7)
    expect(await group('Occurring').getByRole('radio', { name: 'Monthly' }).isDisabled()).toBe(true)
    await screenshot(page, 'metrics-04-rule7')
    await choose('Date range', '30D')

    for (const e of FUNNEL) await addEvent(e)
    expect(await eventsList().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([...FUNNEL])

    // Rule 2: total does not go with ordered (the operation just chosen stands).
    await choose('Measure', 'Total')
    await choose('Operation', 'Ordered')
    await chosen('Operation', 'Ordered')
    await chosen('Measure', 'Unique users')
    await note(NOTES.rule2total)
    // Rule 3: total chosen in an ordered metric: the operation gives way.
    await choose('Measure', 'Total')
    await chosen('Measure', 'Total')
    await chosen('Operation', 'Any')
    await note(NOTES.rule3)
    await screenshot(page, 'metrics-05-rule3')
    // Rule 2: conversion rate only with ordered.
    await choose('Operation', 'Ordered')
    await choose('Measure', 'Conversion rate')
    await choose('Operation', 'Any')
    await chosen('Measure', 'Unique users')
    await note(NOTES.rule2conversion)
    // Rule 6: the funnel only with ordered.
    await choose('Operation', 'Ordered')
    await choose('Graph type', 'Funnel')
    await chosen('Graph type', 'Funnel')
    await choose('Operation', 'All')
    await chosen('Graph type', 'Line')
    await note(NOTES.rule6)
    await screenshot(page, 'metrics-06-rule6')
  })

  it('builds a three-step funnel whose preview matches the raw events, moving a step into place', async () => {
    await choose('Operation', 'Ordered')
    await choose('Graph type', 'Funnel')
    // The date range does not apply to the funnel graph.
    expect(await group('Date range').getByRole('radio', { name: '3M' }).isDisabled()).toBe(true)
    // Put the steps out of order, then move them back.
    await page.getByRole('button', { name: 'Move Invite Sent up' }).click()
    expect(await eventsList().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['Logged In', 'Invite Sent', 'Report Created'])
    await page.getByRole('button', { name: 'Move Report Created up' }).click()
    expect(await eventsList().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([...FUNNEL])

    // The funnel is asked as the form shows it; the preview settles on its answer.
    await settled((d) => d.operation === 'ordered' && d.graphType === 'funnel' && d.events.map((e) => e.name).join() === FUNNEL.join())
    expect(graphBodies.at(-1)).toMatchObject({ measureBy: 'unique', dateRange: 'last30Days', events: FUNNEL.map((name) => ({ name })) })
    const expected = await countFunnel(FUNNEL.map((event) => ({ event })))
    expect(expected[0]!.count).toBeGreaterThan(expected[2]!.count)
    expect(expected[2]!.count).toBeGreaterThan(0)
    expect(await shownFunnel()).toEqual(expected)
    // Nothing was asked before the metric had an event.
    expect(graphBodies[0]!.events.length + (graphBodies[0]!.isAnyEvent ? 1 : 0)).toBeGreaterThan(0)
    await screenshot(page, 'metrics-07-funnel')
  })

  it("saves it: 'Metric \"Activation funnel\" has been saved', at the metric's own address, then found in the list", async () => {
    await page.getByLabel('Name', { exact: true }).fill('Activation funnel')
    await page.getByLabel('Category', { exact: true }).fill('growth')
    await page.getByRole('button', { name: 'Save metric' }).click()
    await page.getByText('Metric "Activation funnel" has been saved').waitFor()
    await page.waitForURL(new RegExp(`${base}/[^/]+$`))
    expect(page.url()).not.toBe(`${base}/new`)
    await page.getByRole('heading', { name: 'Activation funnel', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Delete...' }).waitFor()
    await screenshot(page, 'metrics-08-saved')

    await page.getByRole('link', { name: '← Back to Metrics' }).click()
    await page.waitForURL(base)
    const growth = page.getByRole('region', { name: 'growth' })
    await growth.getByRole('link', { name: 'Activation funnel' }).waitFor()
    await page.getByRole('searchbox').fill('zzz')
    await page.getByText('No metrics found').waitFor()
    await page.getByRole('searchbox').fill('activation')
    await growth.getByRole('link', { name: 'Activation funnel' }).waitFor()
    await screenshot(page, 'metrics-09-list')
  })

  it('edits it: a property filter from the look-ups narrows the last step, the between rule is said, the change is saved', async () => {
    await page.getByRole('region', { name: 'growth' }).getByRole('link', { name: 'Activation funnel' }).click()
    await page.getByRole('heading', { name: 'Activation funnel', level: 1 }).waitFor()
    expect(await eventsList().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([...FUNNEL])
    await chosen('Graph type', 'Funnel')

    await page.getByRole('button', { name: 'Add filter to Invite Sent' }).click()
    expect(await page.getByLabel('Property operation of Invite Sent (3)', { exact: true }).inputValue()).toBe('is')
    expect(await page.getByLabel('Occurring operation of Invite Sent (3)', { exact: true }).inputValue()).toBe('equals')
    await page.getByRole('combobox', { name: 'Property of Invite Sent (3)' }).click()
    const paths = page.getByRole('listbox', { name: 'Property of Invite Sent (3)' })
    await paths.getByRole('option', { name: 'invitee_role', exact: true }).waitFor()
    expect((await paths.getByRole('option').allTextContents()).sort()).toEqual(['invitee_email', 'invitee_role'])
    await paths.getByRole('option', { name: 'invitee_role', exact: true }).click()
    await page.getByRole('combobox', { name: 'Property value of Invite Sent (3)' }).click()
    const values = page.getByRole('listbox', { name: 'Property value of Invite Sent (3)' })
    await values.getByRole('option', { name: 'member', exact: true }).waitFor()
    await screenshot(page, 'metrics-10-property-values')
    await values.getByRole('option', { name: 'member', exact: true }).click()

    await settled((d) => d.events[2]?.property?.value === 'member')
    expect(graphBodies.at(-1)!.events[2]).toEqual({ name: 'Invite Sent', property: { path: 'invitee_role', operation: 'is', value: 'member' } })
    const expected = await countFunnel([{ event: 'Logged In' }, { event: 'Report Created' }, { event: 'Invite Sent', where: { path: 'invitee_role', value: 'member' } }])
    expect(await shownFunnel()).toEqual(expected)

    // The between rule, beside the counts.
    await page.getByLabel('Occurring operation of Invite Sent (3)', { exact: true }).selectOption('between')
    await page.getByLabel('Occurring count of Invite Sent (3)', { exact: true }).fill('5')
    await page.getByLabel('Last occurring count of Invite Sent (3)', { exact: true }).fill('2')
    await page.getByRole('form', { name: 'Metric' }).getByText(BETWEEN_MESSAGE).waitFor()
    await screenshot(page, 'metrics-11-between')
    await page.getByLabel('Last occurring count of Invite Sent (3)', { exact: true }).fill('')
    await page.getByLabel('Occurring count of Invite Sent (3)', { exact: true }).fill('')
    await page.getByRole('form', { name: 'Metric' }).getByText(BETWEEN_MESSAGE).waitFor({ state: 'detached' })

    await page.getByLabel('Name', { exact: true }).fill('Team activation')
    await page.getByRole('button', { name: 'Save metric' }).click()
    await page.getByText('Metric "Team activation" has been saved').waitFor()
    await page.getByRole('heading', { name: 'Team activation', level: 1 }).waitFor()
    // What was saved reads back as it was left: the empty occurring count was not sent.
    await page.reload()
    await page.getByRole('heading', { name: 'Team activation', level: 1 }).waitFor()
    expect(await page.getByRole('combobox', { name: 'Property value of Invite Sent (3)' }).inputValue()).toBe('member')
    expect(await page.getByLabel('Occurring count of Invite Sent (3)', { exact: true }).inputValue()).toBe('')
    await expect.poll(shownFunnel, { timeout: 15_000 }).toEqual(expected)
    await screenshot(page, 'metrics-12-edited')
  })

  it("deletes it after the confirmation: 'Metric has been deleted', and the list is empty again", async () => {
    await page.getByRole('button', { name: 'Delete...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete metric' })
    await dialog.getByText('Are you sure you want to delete the metric "Team activation"?').waitFor()
    await screenshot(page, 'metrics-13-confirm-delete')
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Metric has been deleted').waitFor()
    await page.waitForURL(base)
    await page.getByText('No metrics found').waitFor()
    await screenshot(page, 'metrics-14-deleted')
    expect(errors).toEqual([])
  })

  it('draws one number that matches the store, then a breakdown by a trait (behind fl0-metrics-breakdown) as bars side by side and as a table', async () => {
    await context.addCookies([{ name: 'fl0-metrics-breakdown', value: 'true', url: fl0.url }])
    await page.goto(`${base}/new`)
    await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor()
    await addEvent('Logged In')
    await choose('Graph type', 'Metric')
    expect(await group('Date range').getByRole('radio', { name: '7D' }).isDisabled()).toBe(true)
    await settled((d) => d.graphType === 'metric' && d.events.length === 1)
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)
    const [{ n }] = await fl0.query<{ n: string }>(
      "SELECT uniqExact(if(user_id != '', user_id, anonymous_id)) AS n FROM events WHERE org_id = {org:String} AND type = 'track' AND event = 'Logged In' AND toDate(timestamp, 'UTC') >= {from:Date} AND timestamp <= now64(3)",
      { org, from },
    )
    await preview().getByRole('img', { name: `Unique users: ${Number(n)}` }).waitFor()
    await screenshot(page, 'metrics-15-number')

    await choose('Graph type', 'Bar')
    expect(await group('Graph layout').getByRole('radio', { name: 'Side by side' }).isDisabled()).toBe(true)
    await page.getByRole('combobox', { name: 'Breakdown trait' }).click()
    await page.getByRole('listbox', { name: 'Breakdown trait' }).getByRole('option', { name: 'role', exact: true }).click()
    await choose('Graph layout', 'Side by side')
    await settled((d) => d.graphType === 'bar' && d.graphLayout === 'side' && d.breakdown?.trait === 'role')
    const chart = preview().getByRole('img', { name: 'Unique users' })
    await chart.locator('canvas').waitFor()
    expect(await chart.getAttribute('data-layout')).toBe('side')
    expect(Number(await chart.getAttribute('data-series'))).toBeGreaterThan(1)
    await screenshot(page, 'metrics-16-breakdown-bars')

    await choose('Graph layout', 'Stacked')
    await settled((d) => d.graphLayout === 'stacked')
    await screenshot(page, 'metrics-17-breakdown-stacked')

    await choose('Graph type', 'Table')
    await settled((d) => d.graphType === 'table')
    const rows = preview().getByRole('table', { name: 'Unique users' }).getByRole('row')
    expect(await rows.count()).toBeGreaterThan(2)
    await screenshot(page, 'metrics-18-table')
    expect(errors).toEqual([])
  })
})
