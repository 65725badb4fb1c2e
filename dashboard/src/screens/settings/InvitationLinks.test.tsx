import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import type { TeamMember } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

/**
 * The invitation's truth and links (InviteModal.tsx, TeamList.tsx): without a
 * mail server the dialog says no e-mail was sent and shows the link to copy;
 * Resend on an open invitation e-mails it, or hands the renewed link over.
 */
const TEAM: TeamMember[] = [
  { id: 'u1', email: 'ada@example.com', role: 'admin', invitation_status: 'accepted' },
  { id: 'i1', email: 'carol@example.com', role: 'member', invitation_status: 'pending' },
]
const LINK = 'http://fl0.test/invitations/abc'

function server(delivery: 'sent' | 'logged') {
  const s = fakeServer()
  let list = [...TEAM]
  s.on('GET', '/api/orgs/acme/users', () => ({ body: list }))
  s.on('GET', '/api/orgs/globex/users', () => ({ body: list }))
  s.on('PATCH', '/api/users/me/preferences', { body: {} })
  s.on('POST', '/api/orgs/acme/users', (call) => {
    const row: TeamMember = { id: 'i3', email: (call.body as { invitee_email: string }).invitee_email, role: 'member', invitation_status: 'pending' }
    list = [...list, row]
    return { status: 201, body: row }
  })
  s.on('GET', '/api/orgs/acme/invitations/delivery', { body: { delivery } })
  s.on('POST', /^\/api\/orgs\/acme\/invitations\/[^/]+\/link$/, (call) => ({ body: { id: call.path.split('/')[5], email: 'eve@example.com', link: LINK, expires_at: '2026-01-01T00:00:00.000Z' } }))
  s.on('POST', '/api/orgs/acme/invitations/i1/resend', {
    body: { id: 'i1', email: 'carol@example.com', delivery, expires_at: '2026-01-01T00:00:00.000Z', ...(delivery === 'logged' ? { link: LINK } : {}) },
  })
  return s
}

describe('invitations without a mail server', () => {
  it('says no e-mail was sent and shows the link to copy, never the sent message', async () => {
    const s = server('logged')
    renderRoutes(routes, '/organizations/acme/settings', { server: s })
    fireEvent.click(await screen.findByRole('button', { name: 'Invite team member' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Invite team member' }))
    fireEvent.change(dialog.getByLabelText('Email'), { target: { value: 'eve@example.com' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }))
    const created = within(await screen.findByRole('dialog', { name: 'Invitation created' }))
    expect(created.getByRole('status').textContent).toBe('No e-mail was sent: fl0 has no mail server configured. Copy the invitation link and send it yourself.')
    expect((created.getByLabelText('Invitation link for eve@example.com') as HTMLInputElement).value).toBe(LINK)
    expect(created.getByRole('button', { name: 'Copy link' })).toBeTruthy()
    expect(screen.queryByText(/A team invite email has been sent/)).toBeNull()
    expect(s.callsTo('POST', '/api/orgs/acme/invitations/i3/link')).toHaveLength(1)
  })

  it('Resend hands the renewed link over', async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: server('logged') })
    fireEvent.click(await screen.findByRole('button', { name: 'Resend invitation to carol@example.com' }))
    const renewed = within(await screen.findByRole('dialog', { name: 'Invitation renewed' }))
    expect((renewed.getByLabelText('Invitation link for carol@example.com') as HTMLInputElement).value).toBe(LINK)
  })
})

describe('invitations with a mail server', () => {
  it('Resend says the e-mail was sent', async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: server('sent') })
    fireEvent.click(await screen.findByRole('button', { name: 'Resend invitation to carol@example.com' }))
    expect((await screen.findByText('A team invite email has been sent to carol@example.com.')).dataset.kind).toBe('ok')
  })

  it('offers Copy link and Resend to admins only, on open invitations only', async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: server('sent') })
    await screen.findByRole('button', { name: 'Resend invitation to carol@example.com' })
    expect(screen.getAllByRole('button', { name: /^Copy invitation link/ })).toHaveLength(1)
    expect(screen.queryByRole('button', { name: /ada@example\.com/ })).toBeNull()
  })

  it('a member sees neither', async () => {
    renderRoutes(routes, '/organizations/globex/settings', { server: server('sent') })
    await waitFor(() => expect(screen.getByText('carol@example.com')).toBeTruthy())
    expect(screen.queryByRole('button', { name: /^Copy invitation link|^Resend/ })).toBeNull()
  })
})
