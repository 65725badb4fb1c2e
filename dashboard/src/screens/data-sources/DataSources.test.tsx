import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RouteObject } from 'react-router'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import DataSourcesPage from './DataSourcesPage.tsx'

const routes: RouteObject[] = [{ path: '/organizations/:organization/data-sources/*', element: <DataSourcesPage /> }]

let clipboard: string | undefined
beforeEach(() => {
  clipboard = undefined
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (clipboard = text) } })
})
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard
})

function dataSourcesServer(domain = '') {
  const server = fakeServer()
  let record = { domain, snippet: '<script>!function(){"KEY"}()</script>' }
  server.on('GET', '/api-v2/orgs/acme/data-sources', () => ({ body: record }))
  server.on('POST', '/api-v2/orgs/acme/data-sources/save-data-sources', (call) => {
    record = { ...record, domain: (call.body as { domain: string }).domain }
    return { body: record }
  })
  return server
}

const fieldError = () => document.getElementById('field-domain-error')?.textContent

describe('data sources', () => {
  it("shows 'Data sources', the Domain field with this page's host as placeholder, and the snippet to copy", async () => {
    renderRoutes(routes, '/organizations/acme/data-sources', { server: dataSourcesServer('www.acme.com') })
    expect(screen.getByRole('heading', { level: 1, name: 'Data sources' })).toBeTruthy()
    const domain = (await screen.findByLabelText('Domain')) as HTMLInputElement
    expect(domain.value).toBe('www.acme.com')
    expect(domain.placeholder).toBe(window.location.host)
    const snippet = screen.getByLabelText('Script snippet') as HTMLTextAreaElement
    expect(snippet.readOnly).toBe(true)
    expect(snippet.value).toBe('<script>!function(){"KEY"}()</script>')
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect((await screen.findByText('Script copied to clipboard')).dataset.kind).toBe('ok')
    expect(clipboard).toBe(snippet.value)
  })

  it('checks the domain rules on submit, then saves it trimmed', async () => {
    const server = dataSourcesServer()
    renderRoutes(routes, '/organizations/acme/data-sources', { server })
    const domain = (await screen.findByLabelText('Domain')) as HTMLInputElement
    for (const [value, message] of [
      ['', 'Domain must be provided'],
      [`${'a'.repeat(296)}.com`, 'Domain must have less than 300 characters'],
      ['acme', 'Domain must be valid (e.g. a www domain)'],
      ['http://acme.com', 'Domain must not start with http:// or https://'],
    ]) {
      fireEvent.change(domain, { target: { value } })
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
      await waitFor(() => expect(fieldError()).toBe(message))
    }
    expect(server.callsTo('POST', '/api-v2/orgs/acme/data-sources/save-data-sources')).toHaveLength(0)
    fireEvent.change(domain, { target: { value: '  shop.acme.com ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Domain saved')).toBeTruthy()
    expect(server.callsTo('POST', '/api-v2/orgs/acme/data-sources/save-data-sources').map((c) => c.body)).toEqual([{ domain: 'shop.acme.com' }])
    expect(domain.value).toBe('shop.acme.com')
  })

  it("shows the server's message when the record cannot be read", async () => {
    const server = fakeServer()
    server.on('GET', '/api-v2/orgs/acme/data-sources', { status: 500, body: { success: false, message: 'An error has occurred', errors: [] } })
    renderRoutes(routes, '/organizations/acme/data-sources', { server })
    expect((await screen.findByRole('alert')).textContent).toBe('An error has occurred')
  })
})
