import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ORG_ROUTE_GROUPS, routes } from '../routes.tsx'
import { signOut } from '../session/signOut.ts'
import { createApi } from '../api/client.ts'
import { createHttp } from '../api/http.ts'
import { fakeServer } from '../test/fakeServer.ts'
import { renderRoutes, USER } from '../test/render.tsx'

function server() {
  const s = fakeServer()
  s.on('PATCH', '/api/users/me/preferences', { body: { preferences: USER.preferences } })
  return s
}

describe('routes', () => {
  it.each(ORG_ROUTE_GROUPS.map((g) => [g.path, g.heading]))('/organizations/acme/%s shows its heading', async (path, heading) => {
    // Below companies/ is the company page of a domain (screens/companies), so that group is checked bare.
    renderRoutes(routes, path === 'companies' ? `/organizations/acme/${path}` : `/organizations/acme/${path}/anything/below`, { server: server() })
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy()
  })

  it('sends / to the default organisation, else the first, else the create form', async () => {
    const a = renderRoutes(routes, '/', { server: server(), user: { ...USER, preferences: { isMenuCollapsed: false, defaultOrgUrlCode: 'globex' } } })
    await waitFor(() => expect(a.router.state.location.pathname).toBe('/organizations/globex'))
    a.unmount()

    const b = renderRoutes(routes, '/organizations', { server: server(), user: { ...USER, preferences: { isMenuCollapsed: false, defaultOrgUrlCode: 'gone' } } })
    await waitFor(() => expect(b.router.state.location.pathname).toBe('/organizations/acme'))
    b.unmount()

    renderRoutes(routes, '/', { server: server(), user: { ...USER, orgs: [] } })
    expect(await screen.findByRole('heading', { name: 'Create your Organization' })).toBeTruthy()
  })

  it("sends the organisation home to /reports with fl0-ai, else shows the home (issue 22's page in place of the spec's /people)", async () => {
    const a = renderRoutes(routes, '/organizations/acme', { server: server() })
    expect(await screen.findByRole('heading', { level: 1, name: 'This week' })).toBeTruthy()
    expect(a.router.state.location.pathname).toBe('/organizations/acme')
    a.unmount()
    document.cookie = 'fl0-ai=true; path=/'
    const b = renderRoutes(routes, '/organizations/acme', { server: server() })
    await waitFor(() => expect(b.router.state.location.pathname).toBe('/organizations/acme/reports'))
  })

  it('sends a visitor without a session to sign-in', async () => {
    const s = fakeServer()
    s.on('GET', '/api/users/me', { status: 401, body: { message: 'Not signed in' } })
    s.on('GET', '/api/auth/config', { body: { provider: 'local' } })
    const { router } = renderRoutes(routes, '/organizations/acme/people', { server: s, user: null })
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/sign-in'))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
  })

  it('shows the admin area to staff only, with its own menu', async () => {
    renderRoutes(routes, '/admin/summary', { server: server(), user: { ...USER, isStaff: true } })
    expect(await screen.findByRole('heading', { level: 1, name: 'Summary' })).toBeTruthy()
    expect(screen.getByRole('complementary', { name: 'Admin menu' }).textContent).toContain('Universal table')
  })

  it("signs out: the server call, its errors ignored, then the site's origin", async () => {
    const s = fakeServer()
    s.on('POST', '/api/sign-out', Promise.reject(new TypeError('Failed to fetch')))
    const go = vi.fn()
    sessionStorage.setItem('fl0-id-token', 'x')
    await signOut(createApi(createHttp({ fetch: s.fetch })), go)
    expect(s.callsTo('POST', '/api/sign-out')).toHaveLength(1)
    expect(go).toHaveBeenCalledWith(window.location.origin + '/')
    expect(sessionStorage.getItem('fl0-id-token')).toBeNull()
  })

  it('signs out once, however many ask: the 401s of the requests in flight after Log out share its navigation', async () => {
    vi.resetModules()
    const { signOutOnce } = await import('../session/signOut.ts')
    const s = fakeServer()
    s.on('POST', '/api/sign-out', { body: {} })
    const api = createApi(createHttp({ fetch: s.fetch }))
    const go = vi.fn()
    const late = vi.fn()
    await Promise.all([signOutOnce(api, go), signOutOnce(api, late), signOutOnce(api, late)])
    expect(s.callsTo('POST', '/api/sign-out')).toHaveLength(1)
    expect(go).toHaveBeenCalledTimes(1)
    expect(late).not.toHaveBeenCalled()
  })
})
