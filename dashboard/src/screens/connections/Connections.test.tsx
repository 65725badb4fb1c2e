import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RouteObject } from 'react-router'
import ConnectionsPage from './ConnectionsPage.tsx'
import type { SourceMetrics, SourceView } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

/** The screen as routes.tsx mounts it, without the other screens (and their work in progress). */
const routes: RouteObject[] = [{ path: '/organizations/:organization/connections/*', element: <ConnectionsPage /> }]

const KEY = 'k'.repeat(32)
const SNIPPET: SourceView = { id: 's1', type: 'snippet', name: 'js-snippet', api_key: KEY, url: 'www.acme.com', snippet: '<script>fl0("kkk")</script>', detected: true }
const QUIET: SourceView = { id: 's2', type: 'snippet', name: 'Docs', api_key: 'd'.repeat(32), url: 'docs.acme.com', snippet: '<script>docs</script>', detected: false }
const HOOK_SECRET = '0123456789abcdef'.repeat(4)
const SEGMENT: SourceView = { id: 'g1', type: 'segment', name: 'segment', api_key: 'g'.repeat(32), webhook_url: 'https://fl0.acme.test/v1/webhooks/g1', webhook_secret: HOOK_SECRET }
const METRICS: SourceMetrics = {
  total: 1234,
  unique_users: 56,
  total_30d: Array.from({ length: 30 }, (_, i) => ({ date: `2026-02-${String(i + 1).padStart(2, '0')}`, value: i })),
}

/** The clipboard of jsdom, which has none: what was last written. */
let clipboard: string | undefined
beforeEach(() => {
  clipboard = undefined
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (clipboard = text) } })
})
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard
})

function sourcesServer(initial: SourceView[] = [SNIPPET, SEGMENT, QUIET]) {
  const server = fakeServer()
  let list = [...initial]
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api/orgs/acme/sources', () => ({ body: list }))
  server.on('GET', /^\/api\/orgs\/acme\/sources\/[^/]+$/, (call) => {
    const found = list.find((s) => s.id === call.path.split('/').pop())
    return found ? { body: found } : { status: 404, body: { success: false, message: 'Source not found', errors: [] } }
  })
  server.on('GET', /^\/api\/orgs\/acme\/sources\/[^/]+\/metrics$/, { body: METRICS })
  server.on('GET', '/api/sources/segment', { body: { id: 'new-seg', name: 'segment', api_key: 'n'.repeat(32) } })
  server.on('GET', '/api/t/snippet', { body: { id: 'new-snip', name: 'js-snippet', url: '', api_key: 'p'.repeat(32), snippet: '<script>new</script>' } })
  server.on('POST', '/api/orgs/acme/sources', (call) => {
    const b = call.body as { id: string; type: 'segment' | 'snippet'; name: string; url?: string; apiKey: string }
    const view: SourceView =
      b.type === 'segment'
        ? { id: b.id, type: 'segment', name: b.name, api_key: b.apiKey, webhook_url: `https://fl0.acme.test/v1/webhooks/${b.id}`, webhook_secret: 'f'.repeat(64) }
        : { id: b.id, type: 'snippet', name: b.name, api_key: b.apiKey, url: b.url!, snippet: '<script>new</script>', detected: false }
    list = [...list, view]
    return { status: 201, body: view }
  })
  server.on('PATCH', /^\/api\/orgs\/acme\/sources\/[^/]+$/, (call) => {
    const id = call.path.split('/').pop()
    list = list.map((s) => (s.id === id ? ({ ...s, ...(call.body as object) } as SourceView) : s))
    return { body: list.find((s) => s.id === id) }
  })
  server.on('DELETE', /^\/api\/orgs\/acme\/sources\/[^/]+$/, (call) => {
    list = list.filter((s) => s.id !== call.path.split('/').pop())
    return { status: 204 }
  })
  return server
}

const cards = () => within(screen.getByRole('list', { name: 'Sources' })).getAllByRole('listitem')
const fieldError = (name: string) => document.getElementById(`field-${name}-error`)?.textContent
const listCalls = (server: ReturnType<typeof fakeServer>) => server.callsTo('GET', '/api/orgs/acme/sources').length

describe('connections', () => {
  it("says 'You have 0 connections' with 'Add Source', which offers Segment and a snippet", async () => {
    const { router } = renderRoutes(routes, '/organizations/acme/connections', { server: sourcesServer([]) })
    expect(await screen.findByRole('heading', { level: 1, name: 'Connections' })).toBeTruthy()
    expect(await screen.findByText('You have 0 connections')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Add Source' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Add source' }))
    expect(router.state.location.search).toBe('?modal=add-source')
    expect(dialog.getByRole('button', { name: /^Segment/ })).toBeTruthy()
    fireEvent.click(dialog.getByRole('button', { name: /^JS Snippet/ }))
    expect(await screen.findByRole('dialog', { name: 'New JS Snippet source' })).toBeTruthy()
    expect(router.state.location.search).toBe('?modal=snippet-modal')
  })

  it('draws each source as a card joined to the product by a line; a snippet card shows its domain and status', async () => {
    renderRoutes(routes, '/organizations/acme/connections', { server: sourcesServer() })
    await waitFor(() => expect(cards()).toHaveLength(3))
    expect(screen.getByTestId('source-lines').querySelectorAll('path')).toHaveLength(3)
    expect(screen.getByRole('img', { name: 'Acme: 3 sources connected' })).toBeTruthy()
    expect(cards()[0].textContent).toBe('JSjs-snippetJS Snippetwww.acme.comDetected')
    expect(cards()[1].textContent).toBe('SsegmentSegmentAPI key …gggg')
    expect(cards()[2].textContent).toBe('JSDocsJS Snippetdocs.acme.comNot detected yet')
    expect(within(cards()[0]).getByRole('link').getAttribute('href')).toBe('/organizations/acme/connections?modal=snippet-modal&id=s1')
  })

  it("'Add source...' opens the choice; a new Segment source opens on Properties, Performance disabled, and is saved with its handed-out id and key", async () => {
    const server = sourcesServer()
    const { router } = renderRoutes(routes, '/organizations/acme/connections', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'Add source...' }))
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Add source' })).getByRole('button', { name: /^Segment/ }))
    const d = within(await screen.findByRole('dialog', { name: 'New Segment source' }))
    await d.findByLabelText('Name')
    expect(d.getByRole('tab', { name: 'Performance' }).hasAttribute('disabled')).toBe(true)
    expect(d.getByRole('tab', { name: 'Properties' }).getAttribute('aria-selected')).toBe('true')
    expect((d.getByLabelText('Name') as HTMLInputElement).value).toBe('segment')
    expect(d.getByText('n'.repeat(32))).toBeTruthy()

    fireEvent.click(d.getByRole('button', { name: 'Segment Api Key' }))
    expect(await screen.findByText('Segment Api Key copied to clipboard')).toBeTruthy()
    expect(clipboard).toBe('n'.repeat(32))

    fireEvent.change(d.getByLabelText('Name'), { target: { value: '   ' } })
    fireEvent.click(d.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fieldError('name')).toBe('Name must be provided'))
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'x'.repeat(100) } })
    expect(fieldError('name')).toBeUndefined()
    fireEvent.click(d.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fieldError('name')).toBe('Name must have less than 100 characters'))
    expect(server.callsTo('POST', '/api/orgs/acme/sources')).toHaveLength(0)

    const before = listCalls(server)
    fireEvent.change(d.getByLabelText('Name'), { target: { value: ' Warehouse ' } })
    fireEvent.click(d.getByRole('button', { name: 'Save' }))
    expect((await screen.findByText('Warehouse added successfully')).dataset.kind).toBe('ok')
    expect(server.callsTo('POST', '/api/orgs/acme/sources').map((c) => c.body)).toEqual([{ id: 'new-seg', type: 'segment', name: 'Warehouse', apiKey: 'n'.repeat(32) }])
    await waitFor(() => expect(cards()).toHaveLength(4))
    expect(listCalls(server)).toBe(before + 1)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.search).toBe('')
  })

  it("an existing Segment source's Properties show its webhook URL and secret, each copied with its notice", async () => {
    renderRoutes(routes, '/organizations/acme/connections?modal=segment-modal&id=g1', { server: sourcesServer() })
    const d = within(await screen.findByRole('dialog', { name: 'segment' }))
    fireEvent.click(d.getByRole('tab', { name: 'Properties' }))
    const hook = within(d.getByRole('region', { name: 'Webhook' }))
    expect(hook.getByLabelText('Webhook URL').textContent).toBe('https://fl0.acme.test/v1/webhooks/g1')
    expect(hook.getByLabelText('Webhook secret').textContent).toBe(HOOK_SECRET)
    // Where each goes: Segment's Webhooks destination, RudderStack's Webhook destination.
    expect(hook.getByText(/^Segment: a Webhooks destination, with the URL as its Webhook URL and the secret as its Shared Secret\. RudderStack: a Webhook destination with the URL/)).toBeTruthy()
    expect(hook.getByText('Authorization: Bearer {secret}')).toBeTruthy()

    fireEvent.click(hook.getByRole('button', { name: 'Webhook URL' }))
    expect((await screen.findByText('Webhook URL copied to clipboard')).dataset.kind).toBe('ok')
    expect(clipboard).toBe('https://fl0.acme.test/v1/webhooks/g1')
    fireEvent.click(hook.getByRole('button', { name: 'Webhook Secret' }))
    expect((await screen.findByText('Webhook Secret copied to clipboard')).dataset.kind).toBe('ok')
    expect(clipboard).toBe(HOOK_SECRET)
    // The API key is still there, with its own button.
    fireEvent.click(d.getByRole('button', { name: 'Segment Api Key' }))
    expect(await screen.findByText('Segment Api Key copied to clipboard')).toBeTruthy()
    expect(clipboard).toBe('g'.repeat(32))
  })

  it('a new Segment source has no webhook until saved, and says so; a snippet source has none', async () => {
    renderRoutes(routes, '/organizations/acme/connections?modal=segment-modal', { server: sourcesServer() })
    const d = within(await screen.findByRole('dialog', { name: 'New Segment source' }))
    const hook = within(await d.findByRole('region', { name: 'Webhook' }))
    expect(hook.getByText('Save the source to get the webhook URL and secret a Segment or RudderStack workspace forwards its events with.')).toBeTruthy()
    expect(hook.queryByRole('button')).toBeNull()
    fireEvent.click(d.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('a snippet source shows no webhook', async () => {
    renderRoutes(routes, '/organizations/acme/connections?modal=snippet-modal&id=s1', { server: sourcesServer() })
    const d = within(await screen.findByRole('dialog', { name: 'js-snippet' }))
    fireEvent.click(d.getByRole('tab', { name: 'Properties' }))
    await d.findByLabelText('Domain')
    expect(d.queryByRole('region', { name: 'Webhook' })).toBeNull()
    expect(d.queryByRole('button', { name: 'Webhook URL' })).toBeNull()
  })

  it('a new snippet source: the domain rules on the field, then saved with its domain', async () => {
    const server = sourcesServer()
    renderRoutes(routes, '/organizations/acme/connections?modal=snippet-modal', { server })
    const d = within(await screen.findByRole('dialog', { name: 'New JS Snippet source' }))
    const domain = await d.findByLabelText('Domain')
    expect((d.getByLabelText('Snippet') as HTMLTextAreaElement).value).toBe('<script>new</script>')
    fireEvent.click(d.getByRole('button', { name: 'JS Snippet' }))
    expect(await screen.findByText('JS Snippet copied to clipboard')).toBeTruthy()
    expect(clipboard).toBe('<script>new</script>')

    for (const [value, message] of [
      ['', 'Domain must be provided'],
      [`${'a'.repeat(296)}.com`, 'Domain must have less than 300 characters'],
      ['localhost', 'Domain must be valid (e.g. a www domain)'],
      ['https://acme.com', 'Domain must not start with http:// or https://'],
    ]) {
      fireEvent.change(domain, { target: { value } })
      fireEvent.click(d.getByRole('button', { name: 'Save' }))
      await waitFor(() => expect(fieldError('url')).toBe(message))
      expect(domain.getAttribute('aria-invalid')).toBe('true')
    }
    fireEvent.change(domain, { target: { value: ' shop.acme.com ' } })
    fireEvent.click(d.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('js-snippet added successfully')).toBeTruthy()
    expect(server.callsTo('POST', '/api/orgs/acme/sources')[0]!.body).toEqual({ id: 'new-snip', type: 'snippet', name: 'js-snippet', url: 'shop.acme.com', apiKey: 'p'.repeat(32) })
  })

  it("puts the server's field errors on the fields and the others in a snackbar", async () => {
    const server = sourcesServer()
    server.on('POST', '/api/orgs/acme/sources', {
      status: 409,
      body: { success: false, message: 'taken', errors: [{ name: 'apiKey', message: 'This API key is already in use; open a new source again to get a fresh one' }] },
    })
    renderRoutes(routes, '/organizations/acme/connections?modal=segment-modal', { server })
    const d = within(await screen.findByRole('dialog', { name: 'New Segment source' }))
    fireEvent.click(await d.findByRole('button', { name: 'Save' }))
    expect((await screen.findByText('This API key is already in use; open a new source again to get a fresh one')).dataset.kind).toBe('error')
    expect(screen.getByRole('dialog', { name: 'New Segment source' })).toBeTruthy()
  })

  it('an existing source opens on Performance: total events, unique users and the 30-day graph', async () => {
    const server = sourcesServer()
    renderRoutes(routes, '/organizations/acme/connections?modal=snippet-modal&id=s1', { server })
    const d = within(await screen.findByRole('dialog', { name: 'js-snippet' }))
    expect(d.getByRole('tab', { name: 'Performance' }).getAttribute('aria-selected')).toBe('true')
    const total = within(await d.findByRole('group', { name: 'Total events' })).getByTestId('stat-value')
    expect([total.textContent, total.title]).toEqual(['1.2K', '1,234'])
    expect(within(d.getByRole('group', { name: 'Unique users' })).getByTestId('stat-value').textContent).toBe('56')
    expect(d.getByRole('heading', { name: 'Events (last 30 days)' })).toBeTruthy()
    expect(d.getByRole('img', { name: 'Events (last 30 days)' }).dataset.points).toBe('30')
    expect(server.callsTo('GET', '/api/orgs/acme/sources/s1/metrics')).toHaveLength(1)
  })

  it('edits an existing snippet source: name and domain sent, the list refetched, the drawer closed', async () => {
    const server = sourcesServer()
    const { router } = renderRoutes(routes, '/organizations/acme/connections?modal=snippet-modal&id=s1', { server })
    const d = within(await screen.findByRole('dialog', { name: 'js-snippet' }))
    fireEvent.click(d.getByRole('tab', { name: 'Properties' }))
    expect((d.getByLabelText('Domain') as HTMLInputElement).value).toBe('www.acme.com')
    expect(d.getByRole('button', { name: 'Delete source' })).toBeTruthy()
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Website' } })
    fireEvent.change(d.getByLabelText('Domain'), { target: { value: 'acme.com' } })
    fireEvent.click(d.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Website saved')).toBeTruthy()
    expect(server.callsTo('PATCH', '/api/orgs/acme/sources/s1')[0]!.body).toEqual({ name: 'Website', url: 'acme.com' })
    await waitFor(() => expect(cards()[0].textContent).toBe('JSWebsiteJS Snippetacme.comDetected'))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.search).toBe('')
  })

  it("deletes a source after the confirmation: '{name} has been deleted', the list refetched, the drawer closed", async () => {
    const server = sourcesServer()
    renderRoutes(routes, '/organizations/acme/connections?modal=segment-modal&id=g1', { server })
    const d = within(await screen.findByRole('dialog', { name: 'segment' }))
    fireEvent.click(d.getByRole('tab', { name: 'Properties' }))
    fireEvent.click(d.getByRole('button', { name: 'Delete source' }))
    const confirm = within(screen.getByRole('dialog', { name: 'Delete source' }))
    expect(confirm.getByText(/Are you sure you want to delete the source segment\?/)).toBeTruthy()
    // Cancel first: nothing is deleted.
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog', { name: 'Delete source' })).toBeNull()
    expect(server.callsTo('DELETE', '/api/orgs/acme/sources/g1')).toHaveLength(0)

    fireEvent.click(d.getByRole('button', { name: 'Delete source' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete source' })).getByRole('button', { name: 'Delete' }))
    expect((await screen.findByText('segment has been deleted')).dataset.kind).toBe('ok')
    expect(server.callsTo('DELETE', '/api/orgs/acme/sources/g1')).toHaveLength(1)
    await waitFor(() => expect(cards()).toHaveLength(2))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('an unknown source id shows the server’s message in the drawer', async () => {
    renderRoutes(routes, '/organizations/acme/connections?modal=segment-modal&id=gone', { server: sourcesServer() })
    const d = within(await screen.findByRole('dialog', { name: 'Segment' }))
    expect((await d.findByRole('alert')).textContent).toBe('Source not found')
  })
})
