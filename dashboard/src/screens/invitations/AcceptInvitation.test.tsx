import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes, USER } from '../../test/render.tsx'

function invitation(status: 'pending' | 'expired' | 'accepted', signedIn: boolean) {
  const server = fakeServer()
  server.on('GET', '/api/invitations/tok', { body: { email: 'bob@example.com', organization: { name: 'Acme', url_code: 'acme' }, status } })
  server.on('GET', '/api/users/me', signedIn ? { body: USER } : { status: 401, body: { message: 'Not signed in' } })
  server.on('GET', '/api/auth/config', { body: { provider: 'local' } })
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  return server
}

describe('the invitation link', () => {
  it('offers sign-up and sign-in to a visitor, coming back here with the address filled in', async () => {
    const { router } = renderRoutes(routes, '/invitations/tok', { server: invitation('pending', false), user: null })
    expect(await screen.findByRole('heading', { name: 'Join Acme' })).toBeTruthy()
    await screen.findByRole('link', { name: 'Sign up' })
    fireEvent.click(screen.getByRole('link', { name: 'Sign up' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/sign-up'))
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/invitations/tok')
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('bob@example.com')
  })

  it('accepts for a signed-in user and opens the organisation', async () => {
    const server = invitation('pending', true)
    server.on('POST', '/api/invitations/tok/accept', { body: { url_code: 'acme' } })
    const { router } = renderRoutes(routes, '/invitations/tok', { server, user: null })
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme'))
    expect(server.callsTo('POST', '/api/invitations/tok/accept')).toHaveLength(1)
  })

  it('says when the invitation has expired or was already accepted', async () => {
    const a = renderRoutes(routes, '/invitations/tok', { server: invitation('expired', true), user: null })
    expect(await screen.findByText(/This invitation has expired/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull()
    a.unmount()
    renderRoutes(routes, '/invitations/tok', { server: invitation('accepted', true), user: null })
    expect(await screen.findByText('This invitation has already been accepted.')).toBeTruthy()
  })

  it("shows the server's message for an unknown link", async () => {
    const server = fakeServer()
    server.on('GET', '/api/invitations/nope', { status: 404, body: { success: false, message: 'Invitation not found', errors: [] } })
    server.on('GET', '/api/users/me', { status: 401, body: {} })
    renderRoutes(routes, '/invitations/nope', { server, user: null })
    expect((await screen.findByRole('alert')).textContent).toBe('Invitation not found')
  })
})
