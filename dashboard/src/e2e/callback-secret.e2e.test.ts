import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/**
 * The identity callback's secret in Chromium against a real fl0: an admin
 * generates it on the settings screen, sees it once (a reload shows only that
 * one is set), rotates and removes it.
 */
describe.skipIf(!runBrowserTests)('the identity callback secret, in Chromium', () => {
  let fl0: EmptyTestFl0
  let browser: Browser
  let admin: OpenedPage

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startEmptyFl0(), launchChromium()])
    admin = await openPage(browser, { viewport: { width: 1280, height: 900 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it('is generated and shown once, rotated, and removed', async () => {
    const { page, errors } = admin
    await signUp(page, fl0, 'Grace Hopper', 'grace@example.com')
    const org = await createOrganisation(page, 'Navy')
    await page.goto(`${fl0.url}/organizations/${org}/settings`)
    const section = page.getByRole('region', { name: 'Identity callback' })
    await section.getByText('Callbacks are accepted without a signature.').waitFor()
    const orgId = (await section.getByLabel('Organization id').textContent())!
    expect(orgId).toMatch(/^[0-9a-f-]{36}$/)

    await section.getByRole('button', { name: 'Generate secret' }).click()
    const fresh = section.getByRole('status', { name: 'New callback secret' })
    const first = (await fresh.getByLabel('Callback secret').textContent())!
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    await section.getByText('Only callbacks signed with this organization’s secret are linked to it.').waitFor()
    await screenshot(page, 'settings-callback-secret')
    const stored = await fl0.stores.metadata!.query<{ secret: string }>('SELECT secret FROM callback_secrets WHERE org_id = $1', [orgId])
    expect(stored).toEqual([{ secret: first }])

    // Shown once: after a reload, only that there is one.
    await page.reload()
    await section.getByRole('button', { name: 'Rotate secret' }).waitFor()
    expect(await section.getByLabel('Callback secret').count()).toBe(0)
    expect(await page.content()).not.toContain(first)

    await section.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('dialog', { name: 'Rotate secret' }).getByRole('button', { name: 'Rotate' }).click()
    const second = (await section.getByRole('status', { name: 'New callback secret' }).getByLabel('Callback secret').textContent())!
    expect(second).toMatch(/^[0-9a-f]{64}$/)
    expect(second).not.toBe(first)

    await section.getByRole('button', { name: 'Remove secret' }).click()
    await page.getByRole('dialog', { name: 'Remove secret' }).getByRole('button', { name: 'Remove' }).click()
    await page.getByText('The callback secret has been removed').waitFor()
    await section.getByText('Callbacks are accepted without a signature.').waitFor()
    expect(await fl0.stores.metadata!.query('SELECT 1 FROM callback_secrets WHERE org_id = $1', [orgId])).toEqual([])
    expect(errors).toEqual([])
  })
})
