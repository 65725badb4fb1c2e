import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../routes.tsx'
import type { TeamMember } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes, USER } from '../../test/render.tsx'
import { cleanPaths } from './OrgSettingsForm.tsx'

const TEAM: TeamMember[] = [
  { id: 'u1', email: 'ada@example.com', role: 'admin', invitation_status: 'accepted' },
  { id: 'u2', email: 'bob@example.com', name: 'Robert Tables', role: 'member', invitation_status: 'accepted' },
  { id: 'i1', email: 'carol@example.com', role: 'member', invitation_status: 'pending' },
  { id: 'i2', email: 'dan@example.com', role: 'member', invitation_status: 'expired' },
]

function teamServer(members: TeamMember[] = TEAM) {
  const server = fakeServer()
  let list = [...members]
  server.on('GET', '/api/orgs/acme/users', () => ({ body: list }))
  server.on('GET', '/api/orgs/globex/users', () => ({ body: list }))
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('DELETE', /^\/api\/orgs\/acme\/users\//, (call) => {
    list = list.filter((m) => m.id !== call.path.split('/').pop())
    return { status: 204 }
  })
  server.on('POST', '/api/orgs/acme/users', (call) => {
    const row: TeamMember = { id: 'i3', email: (call.body as { invitee_email: string }).invitee_email, role: 'member', invitation_status: 'pending' }
    list = [...list, row]
    return { status: 201, body: row }
  })
  // Invitations are e-mailed here (SMTP configured): the specification's message (InviteModal.tsx).
  server.on('GET', '/api/orgs/acme/invitations/delivery', { body: { delivery: 'sent' } })
  return server
}

const rows = () => within(screen.getByRole('list', { name: 'Team members' })).getAllByRole('listitem')

describe('organisation settings: the team', () => {
  it("lists members with '(you)', 'Admin', 'Invitation pending' and 'Invitation expired'", async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: teamServer() })
    expect(await screen.findByRole('heading', { name: 'Organization settings' })).toBeTruthy()
    await waitFor(() => expect(rows()).toHaveLength(4))
    expect(rows()[0].textContent).toContain('ada@example.com(you)')
    expect(rows()[0].textContent).toContain('Admin')
    expect(rows()[2].textContent).toContain('Invitation pending')
    expect(rows()[3].textContent).toContain('Invitation expired')
    expect(rows()[1].textContent).not.toMatch(/Admin|Invitation/)
    expect(screen.getByRole('link', { name: '← Acme' }).getAttribute('href')).toBe('/organizations/acme')
  })

  it("searches by 'Search team by name...', with 'No users found' when nothing matches", async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: teamServer() })
    const search = await screen.findByPlaceholderText('Search team by name...')
    fireEvent.change(search, { target: { value: 'BOB' } })
    expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining('bob@example.com')])
    fireEvent.change(search, { target: { value: 'tables' } })
    expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining('Robert Tablesbob@example.com')])
    fireEvent.change(search, { target: { value: 'zed' } })
    expect(screen.getByText('No users found')).toBeTruthy()
  })

  it("shows 'Invite team members' for an empty team", async () => {
    renderRoutes(routes, '/organizations/acme/settings', { server: teamServer([]) })
    expect(await screen.findByText('Invite team members')).toBeTruthy()
  })

  it('offers invite and remove to admins only', async () => {
    renderRoutes(routes, '/organizations/globex/settings', { server: teamServer() })
    await waitFor(() => expect(rows()).toHaveLength(4))
    expect(screen.queryByRole('button', { name: 'Invite team member' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull()
  })

  it('invites by e-mail: the rules, then the sent message and the refreshed list', async () => {
    const server = teamServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'Invite team member' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Invite team member' }))
    const email = dialog.getByLabelText('Email')
    const error = () => document.getElementById('field-invitee_email-error')?.textContent
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }))
    await waitFor(() => expect(error()).toBe('Email must be provided'))
    fireEvent.change(email, { target: { value: 'not-an-address' } })
    expect(error()).toBeUndefined()
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }))
    await waitFor(() => expect(error()).toBe('Email must be a valid email address'))
    fireEvent.change(email, { target: { value: `${'a'.repeat(300)}@example.com` } })
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }))
    await waitFor(() => expect(error()).toBe('Email must be at most 300 characters'))
    fireEvent.change(email, { target: { value: 'eve@example.com' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }))
    expect((await screen.findByText('A team invite email has been sent to eve@example.com.')).dataset.kind).toBe('ok')
    expect(server.callsTo('POST', '/api/orgs/acme/users')[0].body).toEqual({ invitee_email: 'eve@example.com' })
    await waitFor(() => expect(rows()).toHaveLength(5))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('removes a member after the confirmation', async () => {
    const server = teamServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    await waitFor(() => expect(rows()).toHaveLength(4))
    // No remove button on one's own row.
    expect(screen.queryByRole('button', { name: 'Remove ada@example.com' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Remove bob@example.com' }))
    const dialog = within(screen.getByRole('dialog'))
    expect(dialog.getByText('Are you sure you want to remove the team member bob@example.com from the organization Acme?')).toBeTruthy()
    fireEvent.click(dialog.getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Removed team member bob@example.com successfully')).toBeTruthy()
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(server.callsTo('DELETE', '/api/orgs/acme/users/u2')).toHaveLength(1)
  })
})

describe('organisation settings: timezone and company paths', () => {
  afterEach(() => vi.useRealTimers())

  function settingsServer(save: { status?: number; body?: unknown } = { body: {} }) {
    const server = teamServer()
    server.on('GET', '/api-v2/orgs/acme/settings', { body: { timezone: 'UTC', timezones: ['UTC', 'Europe/Paris', 'America/New_York'], companyPaths: ['/pricing'] } })
    server.on('POST', '/api-v2/orgs/acme/settings/save-settings', save)
    return server
  }

  it('are hidden without the fl0-org-settings flag', async () => {
    const server = settingsServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    await waitFor(() => expect(rows()).toHaveLength(4))
    expect(screen.queryByLabelText('Timezone')).toBeNull()
    expect(server.callsTo('GET', '/api-v2/orgs/acme/settings')).toHaveLength(0)
  })

  it('save 500 ms after a change, with blank paths trimmed away', async () => {
    document.cookie = 'fl0-org-settings=true; path=/'
    const server = settingsServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    const timezone = await screen.findByLabelText('Timezone')
    vi.useFakeTimers()
    fireEvent.change(timezone, { target: { value: 'Europe/Paris' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    // The last path is empty: Add is disabled until it is filled.
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(screen.getByLabelText('Company path 2'), { target: { value: '  /docs  ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    await act(() => vi.advanceTimersByTimeAsync(499))
    expect(server.callsTo('POST', '/api-v2/orgs/acme/settings/save-settings')).toHaveLength(0)
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(server.callsTo('POST', '/api-v2/orgs/acme/settings/save-settings').map((c) => c.body)).toEqual([{ timezone: 'Europe/Paris', companyPaths: ['/pricing', '/docs'] }])
  })

  it('save only when the timezone or the non-blank, trimmed paths change: a blank entry alone sends nothing', async () => {
    document.cookie = 'fl0-org-settings=true; path=/'
    const server = settingsServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    await screen.findByLabelText('Timezone')
    vi.useFakeTimers()
    const saves = () => server.callsTo('POST', '/api-v2/orgs/acme/settings/save-settings').map((c) => c.body)
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    fireEvent.change(screen.getByLabelText('Company path 2'), { target: { value: '   ' } })
    fireEvent.change(screen.getByLabelText('Company path 1'), { target: { value: ' /pricing ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Delete company path 2' }))
    await act(() => vi.advanceTimersByTimeAsync(1000))
    expect(saves()).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    fireEvent.change(screen.getByLabelText('Company path 2'), { target: { value: '/docs' } })
    await act(() => vi.advanceTimersByTimeAsync(500))
    expect(saves()).toEqual([{ timezone: 'UTC', companyPaths: ['/pricing', '/docs'] }])
  })

  it('deleting the last path leaves one blank entry', async () => {
    document.cookie = 'fl0-org-settings=true; path=/'
    renderRoutes(routes, '/organizations/acme/settings', { server: settingsServer() })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete company path 1' }))
    expect((screen.getByLabelText('Company path 1') as HTMLInputElement).value).toBe('')
    expect(cleanPaths([' a ', '  ', ''])).toEqual(['a'])
  })

  it("on a failed save shows 'An error has occurred saving organization settings' and reloads the page", async () => {
    document.cookie = 'fl0-org-settings=true; path=/'
    const reload = vi.fn()
    renderRoutes(routes, '/organizations/acme/settings', { server: settingsServer({ status: 500, body: { message: 'down' } }), reload })
    const timezone = await screen.findByLabelText('Timezone')
    vi.useFakeTimers()
    fireEvent.change(timezone, { target: { value: 'America/New_York' } })
    await act(() => vi.advanceTimersByTimeAsync(500))
    expect(screen.getByText('An error has occurred saving organization settings').dataset.kind).toBe('error')
    expect(screen.getByTestId('input-blocker')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(3200))
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
