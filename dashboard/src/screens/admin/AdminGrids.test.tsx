import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { adminServer, queryOf, STAFF, tableRows } from '../../test/adminServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const grid = () => within(screen.getByRole('table'))
const bodyRows = () => grid().getAllByRole('row').slice(1)
const lastCall = (server: ReturnType<typeof adminServer>, path: string) => queryOf(server.callsTo('GET', path).at(-1)!)
const range = () => screen.getByText(/ of \d+$/).textContent

/** Goes to page 2 and waits for it. */
async function toPage2(server: ReturnType<typeof adminServer>, path: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
  await waitFor(() => expect(range()).toBe('21–40 of 45'))
  expect(lastCall(server, path).page).toBe('2')
}

describe('the admin grids', () => {
  it('pages-table: 20 rows a page with every column, the organisation picker fed by /api-v2/admin/orgs, the page back to 1 when it changes', async () => {
    const server = adminServer({ 'pages-table': tableRows(45, 'page') })
    renderRoutes(routes, '/admin/pages-table', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'Pages table' })).toBeTruthy()
    await waitFor(() => expect(bodyRows()).toHaveLength(20))
    expect(grid().getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['id', 'org_id', 'n', 'meta'])
    expect(bodyRows()[0]!.textContent).toBe('page-1org-acme1{"index":0,"tags":["a","b"]}')
    expect(range()).toBe('1–20 of 45')
    expect(lastCall(server, '/api-v2/admin/pages-table')).toEqual({ page: '1' })

    const picker = screen.getByLabelText('Organization') as HTMLSelectElement
    await waitFor(() => expect(picker.disabled).toBe(false))
    expect([...picker.options].map((o) => [o.value, o.text])).toEqual([
      ['', 'All organizations'],
      ['org-acme', 'Acme'],
      ['org-globex', 'Globex'],
    ])

    await toPage2(server, '/api-v2/admin/pages-table')
    const before = server.callsTo('GET', '/api-v2/admin/pages-table').length
    fireEvent.change(picker, { target: { value: 'org-globex' } })
    await waitFor(() => expect(range()).toBe('1–20 of 45'))
    const after = server.callsTo('GET', '/api-v2/admin/pages-table').slice(before)
    // One call, for page 1: no request for the stale page went out.
    expect(after.map(queryOf)).toEqual([{ orgId: 'org-globex', page: '1' }])
  })

  it('a row opens a modal with each field of the row as formatted JSON', async () => {
    const server = adminServer({ 'identified-visits-table': tableRows(3, 'visit') })
    renderRoutes(routes, '/admin/identified-visits-table', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'Identified visits table' })).toBeTruthy()
    fireEvent.click(await screen.findByText('visit-2'))
    const dialog = within(await screen.findByRole('dialog', { name: 'Identified visits table row' }))
    const fields = dialog.getAllByRole('term').map((t) => t.textContent)
    expect(fields).toEqual(['id', 'org_id', 'n', 'meta'])
    const values = dialog.getAllByRole('definition').map((d) => d.querySelector('pre')!.textContent)
    expect(values).toEqual(['"visit-2"', '"org-globex"', '2', '{\n  "index": 1,\n  "tags": [\n    "a",\n    "b"\n  ]\n}'])
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('people-table: organisation, showIp2Company and a name filter are sent; each change returns the page to 1', async () => {
    const server = adminServer({ 'people-table': tableRows(45, 'person') })
    const path = '/api-v2/admin/people-table'
    renderRoutes(routes, '/admin/people-table', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'People table' })).toBeTruthy()
    await waitFor(() => expect(bodyRows()).toHaveLength(20))
    expect(lastCall(server, path)).toEqual({ showIp2Company: 'false', page: '1' })

    await toPage2(server, path)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show anonymous users' }))
    await waitFor(() => expect(lastCall(server, path)).toEqual({ showIp2Company: 'true', page: '1' }))
    await waitFor(() => expect(range()).toBe('1–20 of 45'))

    await toPage2(server, path)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: ' Ada ' } })
    await waitFor(() => expect(lastCall(server, path)).toEqual({ showIp2Company: 'true', name: 'Ada', page: '1' }))

    await toPage2(server, path)
    const picker = screen.getByLabelText('Organization') as HTMLSelectElement
    await waitFor(() => expect(picker.disabled).toBe(false))
    fireEvent.change(picker, { target: { value: 'org-acme' } })
    await waitFor(() => expect(lastCall(server, path)).toEqual({ orgId: 'org-acme', showIp2Company: 'true', name: 'Ada', page: '1' }))
    await waitFor(() => expect(range()).toBe('1–20 of 45'))
  })

  it('ip-to-company-table: the organisation picker and an IP address filter', async () => {
    const server = adminServer({ 'ip-to-company-table': tableRows(45, 'range') })
    const path = '/api-v2/admin/ip-to-company-table'
    renderRoutes(routes, '/admin/ip-to-company-table', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'ip_to_company table' })).toBeTruthy()
    await waitFor(() => expect(bodyRows()).toHaveLength(20))
    await toPage2(server, path)
    const ip = screen.getByRole('searchbox', { name: 'IP address' })
    // An address half typed is not sent: the grid stays as it was, and the field says why.
    const before = server.callsTo('GET', path).length
    fireEvent.change(ip, { target: { value: '203.0.' } })
    expect(ip.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(ip.getAttribute('aria-describedby')!)!.textContent).toBe('IP address must be a valid IPv4 or IPv6 address')
    expect(range()).toBe('21–40 of 45')
    fireEvent.change(ip, { target: { value: '203.0.113.7' } })
    expect(ip.getAttribute('aria-invalid')).toBeNull()
    await waitFor(() => expect(lastCall(server, path)).toEqual({ ipAddress: '203.0.113.7', page: '1' }))
    expect(server.callsTo('GET', path).length).toBe(before + 1)
    fireEvent.change(ip, { target: { value: '::ffff:203.0.113.7' } })
    await waitFor(() => expect(lastCall(server, path)).toEqual({ ipAddress: '::ffff:203.0.113.7', page: '1' }))
    await waitFor(() => expect(range()).toBe('1–20 of 45'))
    const picker = screen.getByLabelText('Organization') as HTMLSelectElement
    await waitFor(() => expect(picker.disabled).toBe(false))
    fireEvent.change(picker, { target: { value: 'org-globex' } })
    await waitFor(() => expect(lastCall(server, path)).toEqual({ orgId: 'org-globex', ipAddress: '::ffff:203.0.113.7', page: '1' }))
  })

  it("a filter the server refuses shows its field's message", async () => {
    const server = adminServer()
    server.on('GET', '/api-v2/admin/ip-to-company-table', {
      status: 400,
      body: { success: false, message: 'Invalid query', errors: [{ name: 'ipAddress', message: 'IP address must be a valid IPv4 or IPv6 address' }] },
    })
    renderRoutes(routes, '/admin/ip-to-company-table', { server, user: STAFF })
    expect((await screen.findByRole('alert')).textContent).toBe('IP address must be a valid IPv4 or IPv6 address')
  })

  it("universal-table: the up_id filter with the 5x5- placeholder, sent as upId; the page back to 1", async () => {
    const server = adminServer({ 'universal-table': tableRows(45, 'person') })
    const path = '/api-v2/admin/universal-table'
    renderRoutes(routes, '/admin/universal-table', { server, user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'Universal table' })).toBeTruthy()
    const filter = screen.getByRole('searchbox', { name: 'up_id' }) as HTMLInputElement
    expect(filter.placeholder).toMatch(/^5x5-\d{32}$/)
    await waitFor(() => expect(bodyRows()).toHaveLength(20))
    await toPage2(server, path)
    fireEvent.change(filter, { target: { value: '5x5-00000000000000000000000000000042' } })
    await waitFor(() => expect(lastCall(server, path)).toEqual({ upId: '5x5-00000000000000000000000000000042', page: '1' }))
    await waitFor(() => expect(range()).toBe('1–20 of 45'))
  })

  it("an empty grid says 'No data found'; a failed one shows the server's message", async () => {
    const server = adminServer({})
    server.on('GET', '/api-v2/admin/identified-visits-table', { status: 500, body: { message: 'ClickHouse is unavailable' } })
    const a = renderRoutes(routes, '/admin/pages-table', { server, user: STAFF })
    expect(await screen.findByText('No data found')).toBeTruthy()
    a.unmount()
    renderRoutes(routes, '/admin/identified-visits-table', { server, user: STAFF })
    expect((await screen.findByRole('alert')).textContent).toBe('ClickHouse is unavailable')
  })
})
