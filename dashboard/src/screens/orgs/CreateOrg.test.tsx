import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes, USER } from '../../test/render.tsx'

const noOrgs = { ...USER, orgs: [] }
const errorText = () => document.getElementById('field-name-error')?.textContent

async function typeAndSubmit(name: string, button: string) {
  fireEvent.change(screen.getByLabelText('Organization name'), { target: { value: name } })
  fireEvent.click(screen.getByRole('button', { name: button }))
}

describe('creating an organisation', () => {
  it.each([
    ['', 'Organization name must be provided'],
    ['a'.repeat(40), 'Organization name must have less than 40 characters'],
    ['1acme', 'Organization name must start with a-z (lowercase), or A-Z (uppercase)'],
    ['acme-', 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9'],
    ['ac me', 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -'],
  ])("'Create your Organization' (rule set A) refuses %j: %s", async (name, message) => {
    const server = fakeServer()
    renderRoutes(routes, '/', { server, user: noOrgs })
    await screen.findByRole('heading', { name: 'Create your Organization' })
    await typeAndSubmit(name, 'Create organization')
    await waitFor(() => expect(errorText()).toBe(message))
    expect(document.activeElement).toBe(screen.getByLabelText('Organization name'))
    expect(server.callsTo('POST', '/api/orgs')).toHaveLength(0)
  })

  it('creates it, reloads the user and replaces the page with its address', async () => {
    const server = fakeServer()
    server.on('POST', '/api/orgs', { body: { url_code: 'acme-labs' } })
    server.on('GET', '/api/users/me', { body: { ...USER, orgs: [{ id: 'o9', name: 'Acme-Labs', url_code: 'acme-labs', role: 'admin' }] } })
    server.on('PATCH', '/api/users/me/preferences', { body: {} })
    const { router } = renderRoutes(routes, '/', { server, user: noOrgs })
    await screen.findByRole('heading', { name: 'Create your Organization' })
    await typeAndSubmit('Acme-Labs', 'Create organization')
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme-labs'))
    expect(server.callsTo('POST', '/api/orgs')[0].body).toEqual({ name: 'Acme-Labs', variant: 'form' })
    expect(router.state.historyAction).toBe('REPLACE')
  })

  it("shows the server's field error beside the field", async () => {
    const server = fakeServer()
    server.on('POST', '/api/orgs', { status: 400, body: { success: false, message: 'Invalid', errors: [{ name: 'name', message: 'Organization name is taken' }] } })
    renderRoutes(routes, '/', { server, user: noOrgs })
    await screen.findByRole('heading', { name: 'Create your Organization' })
    await typeAndSubmit('acme', 'Create organization')
    await waitFor(() => expect(errorText()).toBe('Organization name is taken'))
  })

  it('the create modal (rule set B) caps typing at 99 and has its own messages', async () => {
    const server = fakeServer()
    server.on('PATCH', '/api/users/me/preferences', { body: {} })
    server.on('POST', '/api/orgs', { body: { url_code: 'new-co' } })
    server.on('GET', '/api/users/me', { body: { ...USER, orgs: [...USER.orgs, { id: 'o3', name: 'New Co', url_code: 'new-co', role: 'admin' }] } })
    const { router } = renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('heading', { name: 'People' })
    fireEvent.click(screen.getByRole('button', { name: 'Switch organization' }))
    fireEvent.click(screen.getByRole('menuitem', { name: 'Create organization...' }))
    const input = (await screen.findByLabelText('Organization name')) as HTMLInputElement
    expect(input.maxLength).toBe(99)
    await typeAndSubmit('New_Co', 'Create')
    await waitFor(() => expect(errorText()).toBe('Organization name must only contain letters, numbers, hyphens and spaces'))
    await typeAndSubmit('   ', 'Create')
    await waitFor(() => expect(errorText()).toBe('Organization name must be provided'))
    await typeAndSubmit(' New Co ', 'Create')
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/new-co'))
    expect(server.callsTo('POST', '/api/orgs')[0].body).toEqual({ name: 'New Co', variant: 'modal' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
