import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { adminServer, queryOf, STAFF } from '../../test/adminServer.ts'
import { deferred } from '../../test/fakeServer.ts'
import { renderRoutes, USER } from '../../test/render.tsx'

describe('the admin area', () => {
  it('refuses a member who is not staff, plainly, and calls nothing of /api-v2/admin', async () => {
    const server = adminServer()
    renderRoutes(routes, '/admin/people-table', { server, user: USER })
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin area' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('Only staff can open the admin area.')
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/')
    expect(screen.queryByRole('complementary', { name: 'Admin menu' })).toBeNull()
    expect(server.calls.filter((c) => c.path.startsWith('/api-v2/admin'))).toEqual([])
  })

  it('has its own menu with every sub-route', async () => {
    renderRoutes(routes, '/admin', { server: adminServer(), user: STAFF })
    const aside = within(await screen.findByRole('complementary', { name: 'Admin menu' }))
    expect(aside.getByRole('link', { name: '← Back to fl0' }).getAttribute('href')).toBe('/')
    const menu = within(aside.getByRole('navigation', { name: 'Admin sections' }))
    expect(menu.getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Tools', '/admin'],
      ['People table', '/admin/people-table'],
      ['Universal table', '/admin/universal-table'],
      ['Pages table', '/admin/pages-table'],
      ['Identified visits table', '/admin/identified-visits-table'],
      ['ip_to_company table', '/admin/ip-to-company-table'],
      ['Handle callback', '/admin/handle-callback'],
      ['Summary', '/admin/summary'],
    ])
    fireEvent.click(menu.getByRole('link', { name: 'Summary' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Summary' })).toBeTruthy()
  })

  it("handle-callback: the query from the filled fields only, then 'HandleCallback completed'", async () => {
    const server = adminServer()
    const answer = deferred<{ status: number; body: unknown }>()
    server.on('GET', '/i/callback', answer.promise)
    renderRoutes(routes, '/admin/handle-callback', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'Handle callback' })).toBeTruthy()
    const request = () => screen.getByLabelText('Callback request').textContent
    expect(request()).toBe('GET /i/callback')
    fireEvent.change(screen.getByLabelText('puid'), { target: { value: ' p-123 ' } })
    fireEvent.change(screen.getByLabelText('upid'), { target: { value: '5x5-00000000000000000000000000000042' } })
    expect(request()).toBe('GET /i/callback?puid=p-123&upid=5x5-00000000000000000000000000000042')
    fireEvent.click(screen.getByRole('button', { name: 'Send callback' }))
    await waitFor(() => expect(server.callsTo('GET', '/i/callback')).toHaveLength(1))
    expect(queryOf(server.callsTo('GET', '/i/callback')[0]!)).toEqual({ puid: 'p-123', upid: '5x5-00000000000000000000000000000042' })
    expect(screen.queryByText('HandleCallback completed')).toBeNull()
    answer.resolve({ status: 200, body: undefined })
    expect((await screen.findByText('HandleCallback completed')).dataset.kind).toBe('ok')

    // Nothing filled: the bare callback.
    for (const f of ['puid', 'upid']) fireEvent.change(screen.getByLabelText(f), { target: { value: '' } })
    fireEvent.change(screen.getByLabelText('hem'), { target: { value: 'a1b2' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send callback' }))
    await waitFor(() => expect(server.callsTo('GET', '/i/callback')).toHaveLength(2))
    expect(queryOf(server.callsTo('GET', '/i/callback')[1]!)).toEqual({ hem: 'a1b2' })
  })

  it('summary: the admin summary in a table view, one figure a row in the given order', async () => {
    const server = adminServer()
    server.on('GET', '/api-v2/admin/summary', {
      body: {
        data: [
          { key: 'organisations', label: 'Organisations', value: 3 },
          { key: 'events', label: 'Events', value: 1250000 },
          { key: 'lastJob', label: 'Last job', value: 'import-cookies: succeeded (Imported 3 cookie links)' },
          { key: 'pages', label: 'Pages', value: null },
        ],
        total: 4,
      },
    })
    renderRoutes(routes, '/admin/summary', { server, user: STAFF })
    const summary = within(await screen.findByRole('table', { name: 'Summary' }))
    expect(summary.getAllByRole('row').map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Figure', 'Value'],
      ['Organisations', '3'],
      ['Events', '1,250,000'],
      ['Last job', 'import-cookies: succeeded (Imported 3 cookie links)'],
      ['Pages', '–'],
    ])
  })
})
