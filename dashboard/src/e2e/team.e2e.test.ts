import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import { createOrganisation, fillSignUp, followConfirmation, launchChromium, openPage, runBrowserTests, screenshot, signUp, type OpenedPage } from './harness.ts'
import { decodeQuotedPrintable, startTestSmtp, type TestSmtp } from '@fl0/api/mail/test-smtp'

/**
 * Team and settings in Chromium against a real fl0 that mails its invitations
 * to an SMTP sink: an admin invites a member, the member follows the link,
 * signs up and accepts, and the admin removes them; the timezone autosaves.
 */
describe.skipIf(!runBrowserTests)('team and settings, in Chromium', () => {
  let fl0: EmptyTestFl0
  let smtp: TestSmtp
  let browser: Browser
  let admin: OpenedPage
  let member: OpenedPage
  let org = ''
  let link = ''

  /** The link of the last confirmation e-mail the SMTP sink received for `email`. */
  async function confirmationMailedTo(email: string): Promise<string> {
    const deadline = Date.now() + 10_000
    for (;;) {
      const mail = smtp.received.findLast((m) => m.to.includes(email) && decodeQuotedPrintable(m.data).includes('/account/verify-email?token='))
      if (mail) return /https?:\/\/[^\s"<>]+\/account\/verify-email\?token=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(mail.data))![0]
      if (Date.now() > deadline) throw new Error(`no confirmation e-mail to ${email}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  beforeAll(async () => {
    smtp = await startTestSmtp()
    ;[fl0, browser] = await Promise.all([startEmptyFl0({ SMTP_URL: smtp.url }), launchChromium()])
    admin = await openPage(browser, { viewport: { width: 1280, height: 800 } })
    member = await openPage(browser, { viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
    await smtp?.close()
  })

  it('an admin opens the settings from the user menu and sees the team', async () => {
    const { page } = admin
    await signUp(page, { url: fl0.url, mailedLink: confirmationMailedTo }, 'Grace Hopper', 'grace@example.com')
    org = await createOrganisation(page, 'Navy')

    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Organization settings' }).waitFor()
    const team = page.getByRole('list', { name: 'Team members' })
    expect(await team.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/grace@example\.com\(you\).*Admin/)])
    // The settings page hides the left menu and links back to the organisation.
    expect(await page.getByRole('complementary', { name: 'Main menu' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: '← Navy' }).getAttribute('href')).toBe(`/organizations/${org}`)
  })

  it('invites a member: the e-mail rules on screen, then the sent message, the pending badge and the e-mail', async () => {
    const { page } = admin
    await page.getByRole('button', { name: 'Invite team member' }).click()
    const dialog = page.getByRole('dialog', { name: 'Invite team member' })
    await dialog.getByLabel('Email').fill('not an address')
    await dialog.getByRole('button', { name: 'Invite' }).click()
    await dialog.getByText('Email must be a valid email address').waitFor()
    await screenshot(page, 'team-01-invite-error')

    await dialog.getByLabel('Email').fill('Linus@Example.com')
    await dialog.getByRole('button', { name: 'Invite' }).click()
    await page.getByText('A team invite email has been sent to linus@example.com.').waitFor()
    const row = page.getByRole('listitem').filter({ hasText: 'linus@example.com' })
    expect(await row.textContent()).toContain('Invitation pending')
    await screenshot(page, 'team-02-invited')

    const mail = decodeQuotedPrintable((await smtp.waitFor('linus@example.com')).data)
    const found = mail.match(/https?:\/\/[^\s"<>]+\/invitations\/[A-Za-z0-9_-]+/)
    expect(found, mail).not.toBeNull()
    link = new URL(found![0]).pathname
  })

  it('the invitee follows the link, signs up and accepts, landing in the organisation', async () => {
    const { page } = member
    await page.goto(fl0.url + link)
    await page.getByRole('heading', { name: 'Join Navy' }).waitFor()
    await screenshot(page, 'team-03-invitation')
    await page.getByRole('link', { name: 'Sign up' }).click()
    // The invited address is filled in.
    expect(await page.getByLabel('Email').inputValue()).toBe('linus@example.com')
    await fillSignUp(page, 'Linus Torvalds', 'linus@example.com')
    // With a mail server, the screen says nothing of logs.
    expect(await page.getByRole('note').count()).toBe(0)
    await followConfirmation(page, fl0.url, await confirmationMailedTo('linus@example.com'))
    await page.waitForURL(`**${link}`)
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await page.waitForURL(`**/organizations/${org}`)
    expect(await page.getByRole('button', { name: 'Switch organization' }).textContent()).toContain('Navy')
    await screenshot(page, 'team-04-accepted')

    // A member sees the team without invite or remove.
    await page.goto(`${fl0.url}/organizations/${org}/settings`)
    await page.getByRole('listitem').filter({ hasText: 'linus@example.com(you)' }).waitFor()
    expect(await page.getByRole('button', { name: 'Invite team member' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0)
  })

  it('the admin removes the member after the confirmation; the member loses access', async () => {
    const { page } = admin
    await page.reload()
    const row = page.getByRole('listitem').filter({ hasText: 'linus@example.com' })
    await row.waitFor()
    expect(await row.textContent()).not.toContain('Invitation')
    await page.getByRole('button', { name: 'Remove linus@example.com' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Are you sure you want to remove the team member linus@example.com from the organization Navy?').waitFor()
    await screenshot(page, 'team-05-remove-confirm')
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
    await page.getByText('Removed team member linus@example.com successfully').waitFor()
    await row.waitFor({ state: 'detached' })
    await screenshot(page, 'team-06-removed')

    expect((await member.page.request.get(`${fl0.url}/api/orgs/${org}/users`)).status()).toBe(404)
    await member.page.goto(`${fl0.url}/organizations/${org}/people`)
    await member.page.getByRole('heading', { name: 'Organization not found' }).waitFor()
  })

  it('with fl0-org-settings, the timezone saves itself and stays after a reload', async () => {
    const { page, context } = admin
    await context.addCookies([{ name: 'fl0-org-settings', value: 'true', url: fl0.url }])
    await page.reload()
    const timezone = page.getByLabel('Timezone')
    await timezone.waitFor()
    const saved = page.waitForResponse((r) => r.url().endsWith('/settings/save-settings'))
    await timezone.selectOption('Europe/Paris')
    await page.getByLabel('Company path 1', { exact: true }).fill('  /pricing  ')
    const response = await saved
    expect(response.status()).toBe(200)
    // Autosave waits 500 ms after the last change; both changes went in one call.
    expect(response.request().postDataJSON()).toEqual({ timezone: 'Europe/Paris', companyPaths: ['/pricing'] })
    await page.reload()
    expect(await page.getByLabel('Timezone').inputValue()).toBe('Europe/Paris')
    expect(await page.getByLabel('Company path 1', { exact: true }).inputValue()).toBe('/pricing')
    await screenshot(page, 'team-07-settings')
    expect(admin.errors).toEqual([])
    expect(member.errors).toEqual([])
  })

  it('a 401 from /api-v2 logs the user out', async () => {
    const { page, context } = admin
    // The session ends on the server side (here: the cookie is gone) while the app is open.
    await page.getByRole('link', { name: '← Navy' }).click()
    await page.getByRole('heading', { name: 'People' }).waitFor()
    await context.clearCookies({ name: 'fl0_session' })
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.waitForURL('**/account/sign-in')
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
  })
})
