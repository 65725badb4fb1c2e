import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CallbackSecretState } from '../../api/types.ts'
import { routes } from '../../routes.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

/** The identity callback's secret on the settings page: generated and shown once, rotated, removed, by admins. */
const ORG_ID = '6b1f7d0e-3a51-4c6a-9d7e-1f2a3b4c5d6e'
let clipboard: string | undefined
beforeEach(() => {
  clipboard = undefined
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (clipboard = text) } })
})
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard
})

function secretServer() {
  const server = fakeServer()
  let state: CallbackSecretState = { orgId: ORG_ID, configured: false, createdAt: null }
  let made = 0
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', /^\/api\/orgs\/[^/]+\/users$/, { body: [] })
  server.on('GET', /^\/api-v2\/orgs\/[^/]+\/settings\/callback-secret$/, () => ({ body: state }))
  server.on('POST', '/api-v2/orgs/acme/settings/callback-secret', () => {
    state = { orgId: ORG_ID, configured: true, createdAt: '2026-03-02T09:00:00.000Z' }
    return { body: { ...state, secret: String(++made).repeat(64) } }
  })
  server.on('DELETE', '/api-v2/orgs/acme/settings/callback-secret', () => {
    state = { orgId: ORG_ID, configured: false, createdAt: null }
    return { body: state }
  })
  return server
}

const section = async () => within(await screen.findByRole('region', { name: 'Identity callback' }))

describe('organisation settings: the identity callback secret', () => {
  it('generates a secret for an admin and shows it once, with the organization id partners send', async () => {
    const server = secretServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    const s = await section()
    expect(await s.findByText('Callbacks are accepted without a signature.')).toBeTruthy()
    expect(s.getByLabelText('Organization id').textContent).toBe(ORG_ID)
    fireEvent.click(s.getByRole('button', { name: 'Organization Id' }))
    await waitFor(() => expect(clipboard).toBe(ORG_ID))

    fireEvent.click(s.getByRole('button', { name: 'Generate secret' }))
    const shown = within(await s.findByRole('status', { name: 'New callback secret' }))
    expect(shown.getByText('Copy the secret now: it will not be shown again.')).toBeTruthy()
    expect(shown.getByLabelText('Callback secret').textContent).toBe('1'.repeat(64))
    expect((await screen.findByText('A new callback secret has been generated')).dataset.kind).toBe('ok')
    fireEvent.click(shown.getByRole('button', { name: 'Callback Secret' }))
    await waitFor(() => expect(clipboard).toBe('1'.repeat(64)))
    expect(await s.findByText('Only callbacks signed with this organization’s secret are linked to it.')).toBeTruthy()
    expect(s.queryByRole('button', { name: 'Generate secret' })).toBeNull()
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api-v2/orgs/acme/settings/callback-secret'])
  })

  it('rotates and removes it after asking', async () => {
    const server = secretServer()
    renderRoutes(routes, '/organizations/acme/settings', { server })
    const s = await section()
    fireEvent.click(await s.findByRole('button', { name: 'Generate secret' }))
    fireEvent.click(await s.findByRole('button', { name: 'Rotate secret' }))
    const rotate = within(await screen.findByRole('dialog', { name: 'Rotate secret' }))
    expect(rotate.getByText('Rotate the secret? Callbacks signed with the current one are refused from now on.')).toBeTruthy()
    fireEvent.click(rotate.getByRole('button', { name: 'Rotate' }))
    await waitFor(() => expect(s.getByLabelText('Callback secret').textContent).toBe('2'.repeat(64)))

    fireEvent.click(s.getByRole('button', { name: 'Remove secret' }))
    const remove = within(await screen.findByRole('dialog', { name: 'Remove secret' }))
    fireEvent.click(remove.getByRole('button', { name: 'Remove' }))
    expect((await screen.findByText('The callback secret has been removed')).dataset.kind).toBe('ok')
    expect(await s.findByText('Callbacks are accepted without a signature.')).toBeTruthy()
    expect(s.queryByLabelText('Callback secret')).toBeNull()
    expect(server.calls.filter((c) => c.method !== 'GET' && c.path.includes('callback')).map((c) => c.method)).toEqual(['POST', 'POST', 'DELETE'])
  })

  it('shows a member whether callbacks must be signed, and nothing to change', async () => {
    renderRoutes(routes, '/organizations/globex/settings', { server: secretServer() })
    const s = await section()
    expect(await s.findByText('Callbacks are accepted without a signature.')).toBeTruthy()
    expect(s.queryByRole('button', { name: /secret/ })).toBeNull()
  })
})
