import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, fillSignUp, followConfirmation, launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'

/**
 * In Chromium against a real fl0 with no mail server: staff reach the admin
 * area from the user menu and a member does not see it; an invitation says
 * no e-mail was sent, Copy link copies a link the invitee opens to join, and
 * Resend on a pending invitation hands a renewed link over.
 */
describe.skipIf(!runBrowserTests)('the admin entry and invitation links, in Chromium', () => {
  let fl0: EmptyTestFl0
  let browser: Browser
  let admin: OpenedPage
  let member: OpenedPage
  let org = ''

  beforeAll(async () => {
    ;[fl0, browser] = await Promise.all([startEmptyFl0(), launchChromium()])
    admin = await openPage(browser, { viewport: { width: 1440, height: 900 } })
    member = await openPage(browser, { viewport: { width: 1280, height: 720 } })
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fl0.url })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  const userMenu = async (page: Page) => {
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor()
  }
  const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

  it('staff see Admin in the user menu, and it opens the admin area', async () => {
    const { page } = admin
    // The first account of a fresh install is staff.
    await signUp(page, fl0, 'Grace Hopper', 'grace@example.com')
    org = await createOrganisation(page, 'Navy')
    await userMenu(page)
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Settings', 'Admin', 'Log out'])
    await screenshot(page, 'team-links-01-user-menu-staff')
    await page.getByRole('menuitem', { name: 'Admin' }).click()
    await page.waitForURL('**/admin')
    await page.getByRole('navigation', { name: 'Admin sections' }).waitFor()
    await page.getByRole('link', { name: 'Summary' }).waitFor()
    await screenshot(page, 'team-links-02-admin-area')

    // The new organisation's home (screens/home) has no visit yet: it says where visits come from.
    await page.goto(`${fl0.url}/organizations/${org}`)
    await page.getByText('No visits this week yet.', { exact: false }).waitFor()
    expect(await page.getByRole('link', { name: 'Open Data sources →' }).getAttribute('href')).toBe(`/organizations/${org}/data-sources`)
    await screenshot(page, 'home-00-empty-1440')
  })

  it('without SMTP the invitation says no e-mail was sent, and Copy link copies a link that joins the invitee', async () => {
    const { page } = admin
    await page.goto(`${fl0.url}/organizations/${org}/settings`)
    await page.getByRole('button', { name: 'Invite team member' }).click()
    const invite = page.getByRole('dialog', { name: 'Invite team member' })
    await invite.getByLabel('Email').fill('linus@example.com')
    await invite.getByRole('button', { name: 'Invite' }).click()
    const created = page.getByRole('dialog', { name: 'Invitation created' })
    await created.getByText('No e-mail was sent: fl0 has no mail server configured. Copy the invitation link and send it yourself.').waitFor()
    expect(await page.getByText(/A team invite email has been sent/).count()).toBe(0)
    await created.getByRole('button', { name: 'Copy link' }).click()
    await page.getByText('Invitation link copied to clipboard').waitFor()
    const link = await readClipboard(page)
    expect(link).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}$/)
    expect(await created.getByLabel('Invitation link for linus@example.com').inputValue()).toBe(link)
    await screenshot(page, 'team-links-03-invitation-not-sent')
    await created.getByRole('button', { name: 'Done' }).click()
    const row = page.getByRole('listitem').filter({ hasText: 'linus@example.com' })
    await row.getByText('Invitation pending').waitFor()

    // The invitee opens the copied link (fl0's links name its public address; the test reaches it at fl0.url).
    const mp = member.page
    await mp.goto(fl0.url + new URL(link).pathname)
    await mp.getByRole('heading', { name: 'Join Navy' }).waitFor()
    await mp.getByRole('link', { name: 'Sign up' }).click()
    await fillSignUp(mp, 'Linus Torvalds', 'linus@example.com')
    await followConfirmation(mp, fl0.url, await fl0.mailedLink('linus@example.com', 'verify-email'))
    await mp.getByRole('button', { name: 'Accept invitation' }).click()
    await mp.waitForURL(new RegExp(`/organizations/${org}(/[a-z-]+)?$`))
    expect(await mp.getByRole('button', { name: 'Switch organization' }).textContent()).toContain('Navy')

    await page.reload()
    await row.waitFor()
    await expect.poll(async () => row.textContent(), { timeout: 20_000 }).not.toContain('Invitation')
  })

  it('a member sees no Admin entry, and no Copy link or Resend', async () => {
    const mp = member.page
    await userMenu(mp)
    expect(await mp.getByRole('menuitem').allTextContents()).toEqual(['Settings', 'Log out'])
    await screenshot(mp, 'team-links-04-user-menu-member')
    await mp.keyboard.press('Escape')
    await mp.goto(`${fl0.url}/organizations/${org}/settings`)
    await mp.getByRole('listitem').filter({ hasText: 'linus@example.com(you)' }).waitFor()
    expect(await mp.getByRole('button', { name: /^Copy invitation link|^Resend/ }).count()).toBe(0)
    await mp.goto(`${fl0.url}/admin`)
    await mp.getByRole('heading', { name: 'Admin area' }).waitFor()
    expect(await mp.getByRole('navigation', { name: 'Admin sections' }).count()).toBe(0)
  })

  it('Resend on a pending invitation renews the link and offers it to copy', async () => {
    const { page } = admin
    await page.getByRole('button', { name: 'Invite team member' }).click()
    const invite = page.getByRole('dialog', { name: 'Invite team member' })
    await invite.getByLabel('Email').fill('ken@example.com')
    await invite.getByRole('button', { name: 'Invite' }).click()
    const created = page.getByRole('dialog', { name: 'Invitation created' })
    const first = await created.getByLabel('Invitation link for ken@example.com').inputValue()
    await created.getByRole('button', { name: 'Done' }).click()

    await page.getByRole('button', { name: 'Resend invitation to ken@example.com' }).click()
    const renewed = page.getByRole('dialog', { name: 'Invitation renewed' })
    await renewed.getByText('No e-mail was sent: fl0 has no mail server configured. Copy the invitation link and send it yourself.').waitFor()
    const second = await renewed.getByLabel('Invitation link for ken@example.com').inputValue()
    expect(second).not.toBe(first)
    await screenshot(page, 'team-links-05-resend')
    await renewed.getByRole('button', { name: 'Copy link' }).click()
    await expect.poll(() => readClipboard(page)).toBe(second)
    await renewed.getByRole('button', { name: 'Done' }).click()
    // The renewed link opens the invitation; the one before it no longer does.
    expect((await page.request.get(`${fl0.url}/api/invitations/${second.split('/invitations/')[1]}`)).status()).toBe(200)
    expect((await page.request.get(`${fl0.url}/api/invitations/${first.split('/invitations/')[1]}`)).status()).toBe(404)
    await page.setViewportSize({ width: 1280, height: 720 })
    await screenshot(page, 'team-links-06-team-1280')
    expect(admin.errors).toEqual([])
    expect(member.errors).toEqual([])
  })
})
