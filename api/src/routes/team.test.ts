import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, daysMs, type TestApi } from '../testing.ts'

/**
 * The team: invitations (e-mail rules, the link written to the log without
 * SMTP, acceptance as the invited address, the 7-day expiry on an injected
 * clock), members, removal, and the admin-only calls.
 */
let t: TestApi
let admin: string
beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie: admin } = await t.signUp('Ada', 'ada@example.com'))
  await t.createOrg(admin, 'Acme')
})
afterAll(() => t.close())

const team = async (cookie = admin) => (await t.call('GET', '/api/orgs/acme/users', { cookie })).json() as Promise<Array<Record<string, string>>>
const invite = (email: unknown, cookie = admin) => t.call('POST', '/api/orgs/acme/users', { cookie, body: { invitee_email: email } })
const tokenOf = (link: string) => link.split('/invitations/')[1]!

describe('invite team member: validation', () => {
  it.each([
    [undefined, 'Email must be provided'],
    ['', 'Email must be provided'],
    [`${'a'.repeat(289)}@example.com`, 'Email must be at most 300 characters'],
    ['not an address', 'Email must be a valid email address'],
    ['ann@', 'Email must be a valid email address'],
  ])('%j → 400 %s', async (email, message) => {
    const res = await invite(email)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message, errors: [{ name: 'invitee_email', message }] })
  })
})

describe('inviting and accepting', () => {
  it('lists the admin alone to begin with', async () => {
    expect(await team()).toEqual([{ id: expect.any(String), email: 'ada@example.com', name: 'Ada', role: 'admin', invitation_status: 'accepted' }])
  })

  it('invites an address: pending, and the accept link written to the log without SMTP', async () => {
    const res = await invite(' Bob@Example.com ')
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ id: expect.any(String), email: 'bob@example.com', role: 'member', invitation_status: 'pending' })
    const link = t.invitationLinkFor('bob@example.com')
    expect(link).toMatch(/^http:\/\/fl0\.test\/invitations\/[A-Za-z0-9_-]{43}$/)
    expect(t.logs.find((l) => l.obj.link === link)?.msg).toBe('invitation link (SMTP_URL is not set, so no e-mail was sent)')
    expect((await team()).map((m) => [m.email, m.invitation_status])).toEqual([
      ['ada@example.com', 'accepted'],
      ['bob@example.com', 'pending'],
    ])
  })

  it('shows the invitation to anyone with the link, and nothing for a made-up one', async () => {
    const token = tokenOf(t.invitationLinkFor('bob@example.com'))
    expect(await (await t.call('GET', `/api/invitations/${token}`)).json()).toEqual({
      email: 'bob@example.com',
      organization: { name: 'Acme', url_code: 'acme' },
      status: 'pending',
    })
    expect((await t.call('GET', '/api/invitations/made-up')).status).toBe(404)
  })

  it('needs a session to accept, and the invited address', async () => {
    const token = tokenOf(t.invitationLinkFor('bob@example.com'))
    expect((await t.call('POST', `/api/invitations/${token}/accept`)).status).toBe(401)
    const { cookie: mallory } = await t.signUp('Mallory', 'mallory@example.com')
    const res = await t.call('POST', `/api/invitations/${token}/accept`, { cookie: mallory })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { message: string }).message).toBe('This invitation was sent to another email address')
    expect((await t.call('GET', '/api/orgs/acme/users', { cookie: mallory })).status).toBe(404)
  })

  it('signs the invitee up, accepts, and makes them a member', async () => {
    const token = tokenOf(t.invitationLinkFor('bob@example.com'))
    const { cookie: bob, user } = await t.signUp('Bob', 'bob@example.com')
    const res = await t.call('POST', `/api/invitations/${token}/accept`, { cookie: bob })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url_code: 'acme' })
    expect(await team(bob)).toEqual([
      { id: expect.any(String), email: 'ada@example.com', name: 'Ada', role: 'admin', invitation_status: 'accepted' },
      { id: user.id, email: 'bob@example.com', name: 'Bob', role: 'member', invitation_status: 'accepted' },
    ])
    // Following the link again is harmless.
    expect((await t.call('POST', `/api/invitations/${token}/accept`, { cookie: bob })).status).toBe(200)
    expect(await (await t.call('GET', `/api/invitations/${token}`)).json()).toMatchObject({ status: 'accepted' })
  })

  it('refuses to invite someone who is already a member', async () => {
    const res = await invite('bob@example.com')
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'invitee_email', message: 'This person is already a member of the organization' }] })
  })

  it('lets only admins invite and remove', async () => {
    const bob = (await t.signInWith(await localToken('bob@example.com'))).cookie
    const res = await invite('carol@example.com', bob)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ success: false, message: 'Only organization admins can do this', errors: [] })
    const ada = (await team()).find((m) => m.email === 'ada@example.com')!
    expect((await t.call('DELETE', `/api/orgs/acme/users/${ada.id}`, { cookie: bob })).status).toBe(403)
  })
})

describe('invitation expiry (7 days)', () => {
  it('is pending until 7 days after sending, then expired, and cannot be accepted', async () => {
    const start = t.clock.now
    try {
      expect((await invite('dan@example.com')).status).toBe(201)
      const token = tokenOf(t.invitationLinkFor('dan@example.com'))
      const { cookie: dan } = await t.signUp('Dan', 'dan@example.com')
      const status = async () => (await team()).find((m) => m.email === 'dan@example.com')?.invitation_status

      t.clock.now = new Date(start.getTime() + daysMs(7) - 1)
      expect(await status()).toBe('pending')
      t.clock.now = new Date(start.getTime() + daysMs(7))
      expect(await status()).toBe('expired')
      expect(await (await t.call('GET', `/api/invitations/${token}`)).json()).toMatchObject({ status: 'expired' })
      const res = await t.call('POST', `/api/invitations/${token}/accept`, { cookie: dan })
      expect(res.status).toBe(410)
      expect(((await res.json()) as { message: string }).message).toBe('This invitation has expired')
      expect((await t.call('GET', '/api/orgs/acme/users', { cookie: dan })).status).toBe(404)

      // Inviting again renews it: a new link, 7 more days; the old link stops working.
      const again = await invite('dan@example.com')
      expect(((await again.json()) as { invitation_status: string }).invitation_status).toBe('pending')
      const fresh = tokenOf(t.invitationLinkFor('dan@example.com'))
      expect(fresh).not.toBe(token)
      expect((await t.call('GET', `/api/invitations/${token}`)).status).toBe(404)
      expect((await team()).filter((m) => m.email === 'dan@example.com')).toHaveLength(1)
      t.clock.now = new Date(start.getTime() + daysMs(14) - 1)
      expect((await t.call('POST', `/api/invitations/${fresh}/accept`, { cookie: dan })).status).toBe(200)
    } finally {
      t.clock.now = start
    }
  })
})

describe('removing', () => {
  it('removes a member, who then no longer reaches the organisation', async () => {
    const { cookie: erin, user } = await acceptedMember('erin@example.com')
    const res = await t.call('DELETE', `/api/orgs/acme/users/${user.id}`, { cookie: admin })
    expect(res.status).toBe(204)
    expect((await team()).some((m) => m.email === 'erin@example.com')).toBe(false)
    expect((await t.call('GET', '/api/orgs/acme/users', { cookie: erin })).status).toBe(404)
  })

  it('revokes an open invitation by its id', async () => {
    const { id } = (await (await invite('frank@example.com')).json()) as { id: string }
    const token = tokenOf(t.invitationLinkFor('frank@example.com'))
    expect((await t.call('DELETE', `/api/orgs/acme/users/${id}`, { cookie: admin })).status).toBe(204)
    expect((await team()).some((m) => m.email === 'frank@example.com')).toBe(false)
    expect((await t.call('GET', `/api/invitations/${token}`)).status).toBe(404)
  })

  it('keeps the last admin, and answers 404 for an unknown id', async () => {
    const ada = (await team()).find((m) => m.email === 'ada@example.com')!
    const res = await t.call('DELETE', `/api/orgs/acme/users/${ada.id}`, { cookie: admin })
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe('An organization must keep at least one admin')
    expect((await t.call('DELETE', '/api/orgs/acme/users/nobody', { cookie: admin })).status).toBe(404)
  })

  it('does not reach into another organisation', async () => {
    const { cookie: gina, user } = await t.signUp('Gina', 'gina@example.com')
    await t.createOrg(gina, 'Globex')
    // Ada is admin of acme, not of globex: Gina is not in acme, so there is nothing to remove there.
    expect((await t.call('DELETE', `/api/orgs/acme/users/${user.id}`, { cookie: admin })).status).toBe(404)
    expect((await t.call('DELETE', `/api/orgs/globex/users/${user.id}`, { cookie: admin })).status).toBe(404)
    const globex = (await (await t.call('GET', '/api/orgs/globex/users', { cookie: gina })).json()) as unknown[]
    expect(globex).toHaveLength(1) // Gina is still there: Ada never reached globex
  })
})

async function localToken(email: string) {
  const res = await t.call('POST', '/api/auth/local/sign-in', { body: { email, password: 'correct horse battery' } })
  return ((await res.json()) as { token: string }).token
}

async function acceptedMember(email: string) {
  await invite(email)
  const token = tokenOf(t.invitationLinkFor(email))
  const member = await t.signUp(email.split('@')[0]!, email)
  expect((await t.call('POST', `/api/invitations/${token}/accept`, { cookie: member.cookie })).status).toBe(200)
  return member
}
