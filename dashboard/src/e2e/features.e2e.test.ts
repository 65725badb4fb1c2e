import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'
import { demoUrl, signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'

/**
 * Features in Chromium against a real fl0 filled with the demo's events: the
 * empty list, every validation message, creating a feature from a known demo
 * event and a custom one, searching, editing, deleting after the confirmation.
 * The event picker's list is checked against the events store itself.
 */
describe.skipIf(!runBrowserTests)('features, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let base = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } }))
    base = demoUrl(fl0)
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const drawer = (title: string) => page.getByRole('dialog', { name: title })
  const row = (name: string) => page.getByRole('cell', { name, exact: true })
  const chips = (d: Locator) => d.getByRole('list', { name: 'Events' }).getByRole('listitem').evaluateAll((els) => els.map((e) => e.firstElementChild?.textContent))
  const knownEvents = (d: Locator) => d.getByRole('list', { name: 'Known events' }).getByRole('button')
  const pickKnown = (d: Locator, name: string) => d.getByRole('list', { name: 'Known events' }).getByRole('button', { name, exact: true }).click()

  /** The demo organisation's track events as the store counts them, most frequent first. */
  async function storeEvents() {
    const rows = await fl0.query<{ name: string; n: string }>(
      "SELECT event AS name, count() AS n FROM events WHERE org_id = {org:String} AND type = 'track' AND event != '' GROUP BY event ORDER BY count() DESC, name ASC",
      { org: fl0.organisation.org.id },
    )
    return rows.map((r) => ({ name: r.name, n: Number(r.n) }))
  }

  it("shows 'Your features' with 'No features found' before any feature exists", async () => {
    await signUpToDemo(page, fl0)
    await page.goto(`${base}/features`)
    await page.getByRole('heading', { name: 'Your features', level: 1 }).waitFor()
    await page.getByText('No features found').waitFor()
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Name'])
    await screenshot(page, 'features-01-empty')
  })

  it('shows the name rules in the drawer before anything is saved', async () => {
    await page.getByRole('button', { name: 'Add feature...' }).click()
    const d = drawer('Track new feature')
    await d.waitFor()
    expect(new URL(page.url()).search).toBe('?modal=feature-modal')
    await d.getByRole('button', { name: 'Save' }).click()
    await d.getByText('Name must be provided').waitFor()
    await screenshot(page, 'features-02-name-required')
    await d.getByLabel('Name', { exact: true }).fill('A feature name that is much too long to be shown in a list')
    // The error goes as soon as the value changes.
    await d.getByText('Name must be provided').waitFor({ state: 'detached' })
    await d.getByRole('button', { name: 'Save' }).click()
    await d.getByText('Name must have less than 50 characters').waitFor()
    await screenshot(page, 'features-03-name-too-long')
  })

  it("creates a feature from a known demo event and a custom one; the picker lists the store's events, most frequent first", async () => {
    const d = drawer('Track new feature')
    await d.getByLabel('Name', { exact: true }).fill('Reporting')
    await d.getByRole('button', { name: 'Add event' }).click()
    await knownEvents(d).first().waitFor()
    const store = await storeEvents()
    expect(store.map((e) => e.name)).toContain('Report Created')
    expect(await knownEvents(d).evaluateAll((els) => els.map((e) => e.getAttribute('title')))).toEqual(store.map((e) => `${e.name}: ${e.n} events`))
    await screenshot(page, 'features-04-event-picker')
    await pickKnown(d, 'Report Created')
    expect(await chips(d)).toEqual(['Report Created'])

    // A custom event needs non-blank search text.
    await d.getByRole('button', { name: 'Add event' }).click()
    const search = d.getByRole('searchbox', { name: 'Search events' })
    await search.fill('   ')
    expect(await d.getByRole('button', { name: 'Add custom event' }).isDisabled()).toBe(true)
    await search.fill('Tour Finished')
    await d.getByText('No events found').waitFor()
    await screenshot(page, 'features-05-custom-event')
    await d.getByRole('button', { name: 'Add custom event "Tour Finished"' }).click()
    expect(await chips(d)).toEqual(['Report Created', 'Tour Finished'])
    await screenshot(page, 'features-06-chips')

    await d.getByRole('button', { name: 'Save' }).click()
    await d.waitFor({ state: 'detached' })
    await row('Reporting').waitFor()
    expect(new URL(page.url()).search).toBe('')
    await screenshot(page, 'features-07-list')
  })

  it('refuses a second feature of the same name beside the field, and searches the list by name', async () => {
    await page.getByRole('button', { name: 'Add feature...' }).click()
    const d = drawer('Track new feature')
    await d.getByLabel('Name', { exact: true }).fill('reporting')
    await d.getByRole('button', { name: 'Save' }).click()
    await d.getByText('A feature with this name already exists').waitFor()
    await screenshot(page, 'features-08-duplicate-name')
    await d.getByLabel('Name', { exact: true }).fill('Onboarding')
    await d.getByRole('button', { name: 'Add event' }).click()
    await d.getByRole('searchbox', { name: 'Search events' }).fill('sign')
    await pickKnown(d, 'Signed Up')
    await d.getByRole('button', { name: 'Save' }).click()
    await d.waitFor({ state: 'detached' })
    await row('Onboarding').waitFor()

    const search = page.getByRole('searchbox', { name: 'Search features' })
    await search.fill('onb')
    await row('Reporting').waitFor({ state: 'detached' })
    expect(await page.getByRole('cell').allTextContents()).toEqual(['Onboarding'])
    await search.fill('no such feature')
    await page.getByText('No features found').waitFor()
    await screenshot(page, 'features-09-search-empty')
    await search.fill('')
    await row('Reporting').waitFor()
  })

  it("edits a feature from its row ('Feature' at its own address): renamed, a chip removed, an event added", async () => {
    await row('Reporting').click()
    const d = drawer('Feature')
    await d.waitFor()
    const url = new URL(page.url())
    expect(url.searchParams.get('modal')).toBe('feature-modal')
    const id = url.searchParams.get('id')!
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    await d.getByRole('button', { name: 'Remove Tour Finished' }).waitFor()
    expect(await chips(d)).toEqual(['Report Created', 'Tour Finished'])
    await screenshot(page, 'features-10-edit')

    await d.getByRole('button', { name: 'Remove Tour Finished' }).click()
    await d.getByLabel('Name', { exact: true }).fill('Reports')
    await d.getByRole('button', { name: 'Add event' }).click()
    await pickKnown(d, 'Dashboard Viewed')
    expect(await chips(d)).toEqual(['Report Created', 'Dashboard Viewed'])
    await d.getByRole('button', { name: 'Save' }).click()
    await d.waitFor({ state: 'detached' })
    await row('Reports').waitFor()
    expect(await row('Reporting').count()).toBe(0)

    const saved = await (await page.request.get(`${fl0.url}/api-v2/orgs/demo/features/${id}`)).json()
    expect(saved).toEqual({ id, name: 'Reports', events: [{ event_name: 'Report Created' }, { event_name: 'Dashboard Viewed' }] })

    // The drawer is addressable: the same address opens it again after a reload.
    await page.goto(`${base}/features?modal=feature-modal&id=${id}`)
    await drawer('Feature').getByRole('button', { name: 'Remove Dashboard Viewed' }).waitFor()
    expect(await drawer('Feature').getByLabel('Name', { exact: true }).inputValue()).toBe('Reports')
  })

  it("deletes a feature after the confirmation: '{name} has been deleted', and the list follows", async () => {
    const d = drawer('Feature')
    await d.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete feature' })
    await confirm.getByText('Are you sure you want to delete the feature "Reports"?').waitFor()
    await screenshot(page, 'features-11-delete-confirm')
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Reports has been deleted').waitFor()
    await d.waitFor({ state: 'detached' })
    await row('Reports').waitFor({ state: 'detached' })
    expect(await page.getByRole('cell').allTextContents()).toEqual(['Onboarding'])
    await screenshot(page, 'features-12-deleted')

    // The last one too: the empty state again. The snackbar goes first (3 s), as it
    // sits over the drawer's footer, where Delete is.
    await page.getByText('Reports has been deleted').waitFor({ state: 'detached' })
    await row('Onboarding').click()
    await drawer('Feature').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog', { name: 'Delete feature' }).getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Onboarding has been deleted').waitFor()
    await page.getByText('No features found').waitFor()
    expect(errors).toEqual([])
  })

  it('the integrations screen says what to configure when fl0 has no Paragon project', async () => {
    await page.goto(`${base}/integrations`)
    const note = page.getByRole('note')
    await note.waitFor()
    expect(await note.textContent()).toContain('set PARAGON_PROJECT_ID and PARAGON_SIGNING_KEY')
    await screenshot(page, 'integrations-00-not-configured')
    expect(errors).toEqual([])
  })
})
