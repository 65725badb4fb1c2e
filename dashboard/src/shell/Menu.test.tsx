import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../routes.tsx'
import { fakeServer } from '../test/fakeServer.ts'
import { renderRoutes, USER } from '../test/render.tsx'

const menu = () => screen.getByRole('complementary', { name: 'Main menu' })
const links = () => within(menu()).queryAllByRole('link').map((a) => a.textContent)

function serverWithPreferences() {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', (call) => ({ body: { preferences: { ...USER.preferences, ...(call.body as object) } } }))
  return server
}

describe('the shell', () => {
  it('shows the normal layout under the headings ID and Tools', async () => {
    renderRoutes(routes, '/organizations/acme/people', { server: serverWithPreferences() })
    expect(await screen.findByRole('heading', { name: 'People' })).toBeTruthy()
    expect(menu().dataset.layout).toBe('normal')
    expect(links()).toEqual(['People', 'Data sources', 'Integrations'])
    expect(within(menu()).getByText('ID')).toBeTruthy()
    expect(within(menu()).getByText('Tools')).toBeTruthy()
    expect(within(menu()).getByRole('link', { name: 'People' }).getAttribute('href')).toBe('/organizations/acme/people')
  })

  it('shows the AI layout with fl0-ai=true, the Data model group open under lexicon and closed elsewhere', async () => {
    document.cookie = 'fl0-ai=true; path=/'
    const { router } = renderRoutes(routes, '/organizations/acme/lexicon', { server: serverWithPreferences() })
    expect(await screen.findByRole('heading', { name: 'Lexicon' })).toBeTruthy()
    expect(menu().dataset.layout).toBe('ai')
    expect(within(menu()).getByRole('button', { name: 'Data model' }).getAttribute('aria-expanded')).toBe('true')
    expect(links()).toEqual(['Reports', 'AI scoring', 'People', 'Metrics', 'Features', 'Connections', 'Lexicon'])
    expect(within(menu()).getByRole('link', { name: 'People' }).getAttribute('href')).toBe('/organizations/acme/people-ai')

    await router.navigate('/organizations/acme/reports')
    // Already open: stays open; a fresh visit to reports starts closed.
    expect(within(menu()).getByRole('button', { name: 'Data model' }).getAttribute('aria-expanded')).toBe('true')
  })

  it('starts the Data model group closed outside it', async () => {
    document.cookie = 'fl0-ai=true; path=/'
    renderRoutes(routes, '/organizations/acme/reports', { server: serverWithPreferences() })
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeTruthy()
    expect(within(menu()).getByRole('button', { name: 'Data model' }).getAttribute('aria-expanded')).toBe('false')
    expect(links()).toEqual(['Reports', 'AI scoring', 'People'])
  })

  it('collapses the menu and saves isMenuCollapsed', async () => {
    const server = serverWithPreferences()
    renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('heading', { name: 'People' })
    fireEvent.click(screen.getByRole('button', { name: 'Collapse menu' }))
    expect(menu().dataset.collapsed).toBe('true')
    await waitFor(() => expect(server.callsTo('PATCH', '/api/users/me/preferences').map((c) => c.body)).toContainEqual({ isMenuCollapsed: true }))
    fireEvent.click(screen.getByRole('button', { name: 'Expand menu' }))
    expect(menu().dataset.collapsed).toBe('false')
    await waitFor(() => expect(server.callsTo('PATCH', '/api/users/me/preferences').map((c) => c.body)).toContainEqual({ isMenuCollapsed: false }))
  })

  it('switches organisation from the switcher and remembers it as the default', async () => {
    const server = serverWithPreferences()
    const { router } = renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('heading', { name: 'People' })
    fireEvent.click(screen.getByRole('button', { name: 'Switch organization' }))
    const options = within(screen.getByRole('menu', { name: 'Switch organization' }))
    expect(options.getAllByRole('menuitem').map((o) => o.textContent)).toEqual(['AAcme', 'GGlobex', 'Create organization...'])
    fireEvent.click(options.getByText('Globex'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/globex'))
    await waitFor(() => expect(server.callsTo('PATCH', '/api/users/me/preferences').map((c) => c.body)).toContainEqual({ defaultOrgUrlCode: 'globex' }))
  })

  it('has a user menu with name, e-mail, Settings and Log out', async () => {
    const server = serverWithPreferences()
    server.on('POST', '/api/sign-out', { status: 500, body: { message: 'ignored' } })
    renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('heading', { name: 'People' })
    fireEvent.click(screen.getByRole('button', { name: 'User menu' }))
    const userMenu = within(screen.getByRole('menu', { name: 'User menu' }))
    expect(userMenu.getByText('Ada Lovelace')).toBeTruthy()
    expect(userMenu.getByText('ada@example.com')).toBeTruthy()
    expect(userMenu.getByRole('menuitem', { name: 'Settings' }).getAttribute('href')).toBe('/organizations/acme/settings')
    fireEvent.click(userMenu.getByRole('menuitem', { name: 'Log out' }))
    expect(userMenu.getByRole('menuitem', { name: 'Log out' }).getAttribute('aria-busy')).toBe('true')
    await waitFor(() => expect(server.callsTo('POST', '/api/sign-out')).toHaveLength(1))
  })

  it('hides the menu on the settings page', async () => {
    const server = serverWithPreferences()
    server.on('GET', '/api/orgs/acme/users', { body: [] })
    renderRoutes(routes, '/organizations/acme/settings', { server })
    expect(await screen.findByRole('heading', { name: 'Organization settings' })).toBeTruthy()
    expect(screen.queryByRole('complementary', { name: 'Main menu' })).toBeNull()
  })
})
