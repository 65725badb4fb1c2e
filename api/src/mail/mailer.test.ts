import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'
import { startTestSmtp, type TestSmtp } from './test-smtp.ts'

/** Invitations by e-mail when SMTP_URL is set: nodemailer delivering to a real (tiny) SMTP server. */
let smtp: TestSmtp
let t: TestApi
let admin: string
beforeAll(async () => {
  smtp = await startTestSmtp()
  t = await createTestApi({ smtp: { url: smtp.url, from: 'fl0 <invites@fl0.test>' } })
  ;({ cookie: admin } = await t.signUp('Ada Lovelace', 'ada@example.com'))
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
    expect(smtp.received).toHaveLength(1)
    const mail = smtp.received[0]!
    expect(mail.from).toBe('invites@fl0.test')
    expect(mail.to).toEqual(['bob@example.com'])
    expect(mail.data).toContain('Subject: Ada Lovelace invited you to Acme on fl0')
    const link = /http:\/\/fl0\.test\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.data.replace(/=\r\n/g, ''))?.[0]
    expect(link).toBeDefined()
    expect(t.logs.some((l) => typeof l.obj.link === 'string')).toBe(false)

    // The link in the mail is the one that works.
    const { cookie: bob } = await t.signUp('Bob', 'bob@example.com')
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
