import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'
import { startTestSmtp, type TestSmtp } from './test-smtp.ts'

/** Invitations and account links by e-mail when SMTP_URL is set: nodemailer delivering to a real (tiny) SMTP server. */
let smtp: TestSmtp
let t: TestApi
let admin: string

/** A mail's text, its quoted-printable soft breaks and escaped '=' undone. */
const textOf = (data: string) => data.replace(/=\r\n/g, '').replace(/=3D/g, '=')

/** The last mail to `email` whose text holds `holding`, once it has arrived. */
async function mailTo(email: string, holding: string) {
  const deadline = Date.now() + 10_000
  for (;;) {
    const mail = smtp.received.findLast((m) => m.to.includes(email) && m.data.includes(holding))
    if (mail) return mail
    if (Date.now() > deadline) throw new Error(`no mail to ${email} with ${holding}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Signs up, and follows the link of the confirmation e-mail. */
async function signUpByMail(name: string, email: string) {
  const res = await t.call('POST', '/api/auth/local/sign-up', { body: { name, email, password: 'correct horse battery' } })
  expect(res.status).toBe(202)
  expect(await res.json()).toEqual({ email, delivery: 'sent' })
  // Sent without the answer waiting for it (the answer must take as long for a taken address): wait for it to arrive.
  const mail = await mailTo(email, 'Subject: Confirm your email address for fl0')
  const token = /http:\/\/fl0\.test\/account\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(textOf(mail.data))![1]
  const confirmed = await t.call('POST', '/api/auth/local/verify-email', { body: { token, password: 'correct horse battery' } })
  expect(confirmed.status).toBe(201)
  return t.signInWith(((await confirmed.json()) as { token: string }).token)
}

beforeAll(async () => {
  smtp = await startTestSmtp()
  t = await createTestApi({ smtp: { url: smtp.url, from: 'fl0 <invites@fl0.test>' } })
  ;({ cookie: admin } = await signUpByMail('Ada Lovelace', 'ada@example.com'))
  await t.createOrg(admin, 'Acme')
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

describe('invitation e-mail', () => {
  it('is sent through SMTP with the accept link, and the link is not logged', async () => {
    const res = await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'bob@example.com' } })
    expect(res.status).toBe(201)
    const toBob = smtp.received.filter((m) => m.to.includes('bob@example.com'))
    expect(toBob).toHaveLength(1)
    const mail = toBob[0]!
    expect(mail.from).toBe('invites@fl0.test')
    expect(mail.to).toEqual(['bob@example.com'])
    expect(mail.data).toContain('Subject: Ada Lovelace invited you to Acme on fl0')
    const link = /http:\/\/fl0\.test\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.data.replace(/=\r\n/g, ''))?.[0]
    expect(link).toBeDefined()
    expect(t.logs.some((l) => typeof l.obj.link === 'string')).toBe(false)

    // The link in the mail is the one that works.
    const { cookie: bob } = await signUpByMail('Bob', 'bob@example.com')
    const accepted = await t.call('POST', `/api/invitations/${link!.split('/invitations/')[1]}/accept`, { cookie: bob })
    expect(await accepted.json()).toEqual({ url_code: 'acme' })
  })

  it('that the server refuses is a 502, and the invitation stays to be sent again', async () => {
    smtp.refuseRecipients = true
    try {
      const res = await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'carol@example.com' } })
      expect(res.status).toBe(502)
      expect(((await res.json()) as { message: string }).message).toBe('The invitation was saved but the email could not be sent; try again')
      expect(t.logs.some((l) => l.level === 'error' && l.msg === 'invitation e-mail failed')).toBe(true)
    } finally {
      smtp.refuseRecipients = false
    }
    const team = (await (await t.call('GET', '/api/orgs/acme/users', { cookie: admin })).json()) as Array<{ email: string; invitation_status: string }>
    expect(team.find((m) => m.email === 'carol@example.com')?.invitation_status).toBe('pending')
    expect((await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'carol@example.com' } })).status).toBe(201)
    expect(smtp.received.at(-1)?.to).toEqual(['carol@example.com'])
  })
})

describe('account e-mails', () => {
  it('a reset link goes to the owner, and a sign-up with a taken address mails its owner instead of telling the caller', async () => {
    const reset = await t.call('POST', '/api/auth/local/password-reset', { body: { email: 'ada@example.com' } })
    expect(await reset.json()).toEqual({ email: 'ada@example.com', delivery: 'sent' })
    const resetMail = await mailTo('ada@example.com', 'Subject: Reset your fl0 password')
    expect(textOf(resetMail.data)).toMatch(/http:\/\/fl0\.test\/account\/reset-password\?token=[A-Za-z0-9_-]{43}/)

    const taken = await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Not Ada', email: 'ada@example.com', password: 'a new password' } })
    expect(taken.status).toBe(202)
    expect(await taken.json()).toEqual({ email: 'ada@example.com', delivery: 'sent' })
    await mailTo('ada@example.com', 'Subject: You already have an fl0 account')
    expect(t.logs.some((l) => typeof l.obj.link === 'string')).toBe(false) // sent, so not logged
  })
})
