import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../routes.tsx'
import { deferred, fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import type { ParagonSdk } from './paragonSdk.ts'

/**
 * The screen's logic in jsdom, with window.paragon already defined by the test
 * in place of Paragon's hosted script (which is loaded only when absent). The
 * browser test loads a stand-in script for real (e2e/integrations.e2e.test.ts).
 */
const TOKEN = { token: 'eyJ.signed.token', projectId: 'proj-1', sdkUrl: 'https://sdk.test/paragon.js', expiresAt: '2026-03-02T10:00:00.000Z' }
const METADATA = [
  { type: 'salesforce', name: 'Salesforce', brandColor: '#057ACF', icon: 'https://icons.test/salesforce.svg' },
  { type: 'slack', name: 'Slack', brandColor: '#4A154B', icon: 'https://icons.test/slack.svg' },
]

function server(answer: { status?: number; body?: unknown } = { body: TOKEN }) {
  const s = fakeServer()
  s.on('PATCH', '/api/users/me/preferences', { body: {} })
  s.on('GET', '/api-v2/orgs/acme/integrations/paragon-user', answer)
  return s
}

function sdk(overrides: Partial<ParagonSdk> = {}): ParagonSdk {
  return {
    authenticate: vi.fn().mockResolvedValue(undefined),
    getUser: vi.fn().mockReturnValue({ authenticated: true, integrations: { slack: { enabled: true } } }),
    getIntegrationMetadata: vi.fn().mockReturnValue(METADATA),
    connect: vi.fn(),
    ...overrides,
  }
}

const sdkScripts = () => document.querySelectorAll('script[data-fl0="paragon-sdk"]')

afterEach(() => {
  delete window.paragon
  sdkScripts().forEach((s) => s.remove())
})

describe('integrations', () => {
  it('authenticates with the token from fl0, shows the loader meanwhile, then lists the integrations; a button opens its Connect Portal', async () => {
    const auth = deferred<void>()
    const paragon = sdk({ authenticate: vi.fn().mockReturnValue(auth.promise) })
    window.paragon = paragon
    renderRoutes(routes, '/organizations/acme/integrations', { server: server() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeTruthy()
    await waitFor(() => expect(paragon.authenticate).toHaveBeenCalledWith('proj-1', 'eyJ.signed.token'))
    expect(screen.getByRole('status', { name: 'Loading integrations' })).toBeTruthy()
    auth.resolve()
    const list = within(await screen.findByRole('list', { name: 'Integrations' }))
    expect(list.getAllByRole('button').map((b) => b.textContent)).toEqual(['Salesforce', 'SlackConnected'])
    fireEvent.click(list.getByRole('button', { name: /Salesforce/ }))
    expect(paragon.connect).toHaveBeenCalledWith('salesforce')
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('shows the error text when authentication fails', async () => {
    window.paragon = sdk({ authenticate: vi.fn().mockRejectedValue(new Error('Invalid user token: signature verification failed')) })
    renderRoutes(routes, '/organizations/acme/integrations', { server: server() })
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid user token: signature verification failed')
  })

  it("shows 'User is unauthenticated' when the SDK says so", async () => {
    const paragon = sdk({ getUser: vi.fn().mockReturnValue({ authenticated: false }) })
    window.paragon = paragon
    renderRoutes(routes, '/organizations/acme/integrations', { server: server() })
    expect((await screen.findByRole('alert')).textContent).toBe('User is unauthenticated')
    expect(paragon.getIntegrationMetadata).not.toHaveBeenCalled()
  })

  it('says what to configure when fl0 has no Paragon project, and loads no third-party script', async () => {
    const message = 'Integrations are not configured on this fl0 server: set PARAGON_PROJECT_ID and PARAGON_SIGNING_KEY (or PARAGON_SIGNING_KEY_FILE), then restart fl0.'
    renderRoutes(routes, '/organizations/acme/integrations', { server: server({ status: 404, body: { success: false, message, errors: [] } }) })
    expect((await screen.findByRole('note')).textContent).toBe(message)
    expect(sdkScripts()).toHaveLength(0)
  })

  it("with fl0-disable-3rd-party on, neither asks for a token nor loads the SDK, and says why", async () => {
    document.cookie = 'fl0-disable-3rd-party=true; path=/'
    const s = server()
    renderRoutes(routes, '/organizations/acme/integrations', { server: s })
    expect((await screen.findByRole('note')).textContent).toContain('third-party scripts are turned off')
    expect(s.callsTo('GET', '/api-v2/orgs/acme/integrations/paragon-user')).toHaveLength(0)
    expect(sdkScripts()).toHaveLength(0)
  })

  it('loads the SDK from the address fl0 names, and says so when it cannot', async () => {
    renderRoutes(routes, '/organizations/acme/integrations', { server: server() })
    await waitFor(() => expect(sdkScripts()).toHaveLength(1))
    const script = sdkScripts()[0] as HTMLScriptElement
    expect(script.src).toBe('https://sdk.test/paragon.js')
    fireEvent.error(script)
    expect((await screen.findByRole('alert')).textContent).toBe('The integration SDK could not be loaded from https://sdk.test/paragon.js')
  })
})
