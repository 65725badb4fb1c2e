import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'
import { decodeQuotedPrintable, startTestSmtp, type TestSmtp } from '../mail/test-smtp.ts'

/**
 * An open invitation's link for the organisation's admins
 * (routes/invitations.ts, createOrgInvitationsRoutes): how invitations go out,
 * a fresh link to copy (the one before stops working), and resending, with and
 * without a mail server; members and strangers never read a link.
 */
describe('invitation links without a mail server', () => {
  let t: TestApi
  let admin: string
  let member: string
  let stranger: string
  let invitationId = ''
  const tokenOf = (link: string) => link.split('/invitations/')[1]!

  beforeAll(async () => {
    t = await createTestApi()
    ;({ cookie: admin } = await t.signUp('Ada', 'ada@example.com'))
    await t.createOrg(admin, 'Acme')
    // A member: invited, signed up, accepted.
    await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'bob@example.com' } })
    ;({ cookie: member } = await t.signUp('Bob', 'bob@example.com'))
    expect((await t.call('POST', `/api/invitations/${tokenOf(t.invitationLinkFor('bob@example.com'))}/accept`, { cookie: member })).status).toBe(200)
    ;({ cookie: stranger } = await t.signUpWithOrg('Eve', 'Elsewhere'))
    const res = await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'carol@example.com' } })
    invitationId = ((await res.json()) as { id: string }).id
  })
  afterAll(() => t.close())

  it('tells an admin that invitations are only logged', async () => {
    const res = await t.call('GET', '/api/orgs/acme/invitations/delivery', { cookie: admin })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ delivery: 'logged' })
  })

  it('gives an admin a fresh link that the invitee can accept; the link before stops working', async () => {
    const before = tokenOf(t.invitationLinkFor('carol@example.com'))
    const res = await t.call('POST', `/api/orgs/acme/invitations/${invitationId}/link`, { cookie: admin })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { id: string; email: string; link: string; expires_at: string }
    expect(body).toEqual({ id: invitationId, email: 'carol@example.com', link: expect.stringMatching(/^http:\/\/fl0\.test\/invitations\/[A-Za-z0-9_-]{43}$/), expires_at: '2026-03-09T09:00:00.000Z' })
    expect((await t.call('GET', `/api/invitations/${before}`)).status).toBe(404)
    const { cookie: carol } = await t.signUp('Carol', 'carol@example.com')
    expect(await (await t.call('POST', `/api/invitations/${tokenOf(body.link)}/accept`, { cookie: carol })).json()).toEqual({ url_code: 'acme' })
    expect((await t.call('GET', '/api/orgs/acme/users', { cookie: carol })).status).toBe(200)
  })

  it('resends without a mail server: the renewed link comes back to copy', async () => {
    const invited = await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'dan@example.com' } })
    const { id } = (await invited.json()) as { id: string }
    const res = await t.call('POST', `/api/orgs/acme/invitations/${id}/resend`, { cookie: admin })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { delivery: string; link: string }
    expect(body).toEqual({ id, email: 'dan@example.com', delivery: 'logged', link: expect.stringContaining('/invitations/'), expires_at: expect.any(String) })
    // The same link is in the log, as every link is without SMTP.
    expect(t.invitationLinkFor('dan@example.com')).toBe(body.link)
    expect(await (await t.call('GET', `/api/invitations/${tokenOf(body.link)}`)).json()).toMatchObject({ email: 'dan@example.com', status: 'pending' })
  })

  it('never gives a link to a member (403) or someone outside the organisation (404), nor without a session (401)', async () => {
    for (const path of ['delivery', `${invitationId}/link`, `${invitationId}/resend`]) {
      const method = path === 'delivery' ? 'GET' : 'POST'
      const asMember = await t.call(method, `/api/orgs/acme/invitations/${path}`, { cookie: member })
      expect(asMember.status, path).toBe(403)
      expect(JSON.stringify(await asMember.json())).not.toContain('/invitations/')
      expect((await t.call(method, `/api/orgs/acme/invitations/${path}`, { cookie: stranger })).status, path).toBe(404)
      expect((await t.call(method, `/api/orgs/acme/invitations/${path}`)).status, path).toBe(401)
    }
  })

  it('answers 404 for an accepted invitation, another organisation\'s, or a made-up id', async () => {
    // Carol's was accepted above.
    expect((await t.call('POST', `/api/orgs/acme/invitations/${invitationId}/link`, { cookie: admin })).status).toBe(404)
    expect((await t.call('POST', '/api/orgs/acme/invitations/made-up/link', { cookie: admin })).status).toBe(404)
    const { cookie: other } = await t.signUpWithOrg('Olga', 'Other')
    const theirs = (await (await t.call('POST', '/api/orgs/other/users', { cookie: other, body: { invitee_email: 'zed@example.com' } })).json()) as { id: string }
    expect((await t.call('POST', `/api/orgs/acme/invitations/${theirs.id}/link`, { cookie: admin })).status).toBe(404)
  })
})

describe('invitation links with a mail server', () => {
  let t: TestApi
  let smtp: TestSmtp
  let admin: string

  beforeAll(async () => {
    smtp = await startTestSmtp()
    t = await createTestApi({ smtp: { url: smtp.url, from: 'fl0 <no-reply@fl0.test>' } })
    // Sign-up's confirmation goes through SMTP here: read it from the sink.
    await t.call('POST', '/api/auth/local/sign-up', { body: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' } })
    const mail = decodeQuotedPrintable((await smtp.waitFor('ada@example.com')).data)
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail)![1]!
    const confirmed = await t.call('POST', '/api/auth/local/verify-email', { body: { token, password: 'correct horse battery' } })
    ;({ cookie: admin } = await t.signInWith(((await confirmed.json()) as { token: string }).token))
    await t.createOrg(admin, 'Acme')
  })
  afterAll(async () => {
    await t?.close()
    await smtp?.close()
  })

  it('says invitations are e-mailed, and resending e-mails a new link (not answered)', async () => {
    expect(await (await t.call('GET', '/api/orgs/acme/invitations/delivery', { cookie: admin })).json()).toEqual({ delivery: 'sent' })
    const { id } = (await (await t.call('POST', '/api/orgs/acme/users', { cookie: admin, body: { invitee_email: 'bob@example.com' } })).json()) as { id: string }
    await smtp.waitFor('bob@example.com')
    const res = await t.call('POST', `/api/orgs/acme/invitations/${id}/resend`, { cookie: admin })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ id, email: 'bob@example.com', delivery: 'sent', expires_at: expect.any(String) })
    const mails = smtp.received.filter((m) => m.to.includes('bob@example.com'))
    expect(mails).toHaveLength(2)
    const links = mails.map((m) => /\/invitations\/([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(m.data))![1]!)
    expect(links[0]).not.toBe(links[1])
    expect((await t.call('GET', `/api/invitations/${links[1]}`)).status).toBe(200)
    expect((await t.call('GET', `/api/invitations/${links[0]}`)).status).toBe(404)
  })
})
