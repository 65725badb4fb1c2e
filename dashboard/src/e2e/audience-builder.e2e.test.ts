import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { launchChromium, openPage, runBrowserTests, shotAtSizes } from './harness.ts'

/**
 * Starting an audience from People, in Chromium against a real fl0 with the
 * demo's events, at the smaller of the sizes the dashboard is checked at
 * (1280×720): the builder is the first thing on the page, above the fold;
 * before a filter is set the page lists its people once (the People table,
 * no preview repeating it); a finished filter puts the preview in the
 * table's place; 'Create audience...' makes it a saved audience and opens
 * its page with the filter on it.
 */
describe.skipIf(!runBrowserTests)('the audience builder on People, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  const name = `Planned ${Date.now() % 1000}`

  const builder = () => page.getByRole('region', { name: 'Audience builder' })
  const preview = () => page.getByRole('region', { name: 'Preview' })
  const people = () => page.getByRole('region', { name: 'People', exact: true })

  /** The whole of the element lies inside the window, as first drawn (nothing scrolled). */
  async function aboveTheFold(locator: Locator) {
    const box = (await locator.boundingBox())!
    const view = page.viewportSize()!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(view.height)
    expect(box.x + box.width).toBeLessThanOrEqual(view.width)
  }

  const shots = (name: string) => shotAtSizes(page, name)

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startDemoFl0(), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 720 } }))
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('puts the builder first, above the fold at 1280×720, and lists the people once before a filter is set', async () => {
    await signUpToDemo(page, fl0)
    await builder().waitFor()
    await people().locator('tbody tr').first().waitFor()
    for (const control of ['Add filter', 'Add action', 'Create audience...']) await aboveTheFold(builder().getByRole('button', { name: control }))
    await aboveTheFold(builder())
    // The builder, then the table under it.
    const top = (await builder().boundingBox())!
    expect((await people().boundingBox())!.y).toBeGreaterThanOrEqual(top.y + top.height)
    // One list of people: the table, no preview of everyone repeating it.
    expect(await preview().count()).toBe(0)
    expect(await page.locator('main table').count()).toBe(1)
    await shots('audience-builder-01-people')
  })

  it('an unfinished filter changes nothing; a finished one puts the preview in the table’s place', async () => {
    await builder().getByRole('button', { name: 'Add filter' }).click()
    await builder().getByRole('combobox', { name: 'Filter 1 trait' }).click()
    await builder().getByRole('option', { name: 'plan', exact: true }).click()
    // 'is' with no value yet: left out, so still everyone, still the table alone.
    await page.waitForTimeout(500)
    expect(await preview().count()).toBe(0)
    expect(await people().count()).toBe(1)
    await builder().getByLabel('Filter 1 operator').selectOption('is_set')
    await preview().waitFor()
    await preview().getByRole('tab', { name: /^Users \d/ }).waitFor()
    const users = Number((await preview().getByRole('tab', { name: /^Users/ }).innerText()).replace(/\D/g, ''))
    expect(users).toBeGreaterThan(0)
    await page.getByRole('tabpanel', { name: 'Users' }).locator('tbody tr').first().waitFor()
    expect(await people().count()).toBe(0)
    expect(await page.locator('main table').count()).toBe(1)
    // The preview starts under the filters, on the first screen.
    const top = (await builder().boundingBox())!
    const shown = (await preview().boundingBox())!
    expect(shown.y).toBeGreaterThanOrEqual(top.y + top.height)
    expect(shown.y).toBeLessThan(720)
    await shots('audience-builder-02-filtered')
  })

  it("'Create audience...' saves it and lands on its page, the filter saved on it", async () => {
    await builder().getByRole('button', { name: 'Create audience...' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create audience' })
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByRole('button', { name: 'Create audience' }).click()
    await page.waitForURL(/\/organizations\/demo\/people\/audiences\/[^/]+$/)
    await page.getByText(`The audience "${name}" has been saved`).waitFor()
    await page.getByRole('heading', { level: 1, name }).waitFor()
    expect(await page.getByRole('combobox', { name: 'Filter 1 trait' }).inputValue()).toBe('plan')
    expect(await page.getByLabel('Filter 1 operator').inputValue()).toBe('is_set')
    await preview().getByRole('tab', { name: /^Users \d/ }).waitFor()
    await shots('audience-builder-03-created')
    expect(errors).toEqual([])
    await context.close()
  })
})
