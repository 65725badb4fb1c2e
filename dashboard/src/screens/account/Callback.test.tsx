import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes, USER } from '../../test/render.tsx'

/** fl0 as its own identity provider (no OIDC_ISSUER). */
function localServer() {
  const server = fakeServer()
  server.on('GET', '/api/auth/config', { body: { provider: 'local' } })
  return server
}

describe('sign-in', () => {
  it('gets a token from the built-in provider, posts it from account/callback and lands on /', async () => {
    const server = localServer()
    server.on('POST', '/api/auth/local/sign-in', { body: { token: 'id-token' } })
    server.on('POST', '/api/sign-in', { body: { user: USER } })
    server.on('GET', '/api/users/me', { body: USER })
    server.on('PATCH', '/api/users/me/preferences', { body: {} })
    const { router } = renderRoutes(routes, '/account/sign-in', { server, user: null })
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme'))
    expect(server.callsTo('POST', '/api/sign-in')[0].body).toEqual({ token: 'id-token' })
    expect(sessionStorage.getItem('fl0-id-token')).toBeNull()
  })

  it('shows the provider\'s refusal as an error snackbar and field rules beside the fields', async () => {
    const server = localServer()
    server.on('POST', '/api/auth/local/sign-in', { status: 401, body: { success: false, message: 'Invalid email or password', errors: [] } })
    renderRoutes(routes, '/account/sign-in', { server, user: null })
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(document.getElementById('field-email-error')?.textContent).toBe('Email must be provided'))
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password')
  })

  it("shows 'An error has occurred signing in.' when the server refuses the token", async () => {
    const server = localServer()
    server.on('POST', '/api/sign-in', { status: 401, body: { message: 'Invalid token' } })
    sessionStorage.setItem('fl0-id-token', 'bad')
    renderRoutes(routes, '/account/callback', { server, user: null })
    expect((await screen.findByRole('alert')).textContent).toBe('An error has occurred signing in.')
  })

  it('fails the same way without a token', async () => {
    renderRoutes(routes, '/account/callback', { server: localServer(), user: null })
    expect((await screen.findByRole('alert')).textContent).toBe('An error has occurred signing in.')
  })
})
