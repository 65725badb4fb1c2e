import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import type { FeatureDetail, KnownEvent } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const KNOWN: KnownEvent[] = [
  { name: 'Feature Used', volume: 1520 },
  { name: 'Dashboard Viewed', volume: 840 },
  { name: 'Signed Up', volume: 60 },
]

/** An in-memory features API with the server's rules that the screen relies on (the real one runs in the browser tests). */
function featuresServer(initial: FeatureDetail[] = []) {
  const server = fakeServer()
  let features = [...initial]
  let next = 1
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api-v2/orgs/acme/events', (call) => {
    const q = (call.query.get('search') ?? '').toLowerCase()
    return { body: { events: KNOWN.filter((e) => e.name.toLowerCase().includes(q)) } }
  })
  server.on('GET', '/api-v2/orgs/acme/features', () => ({ body: { features: features.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)) } }))
  server.on('GET', /^\/api-v2\/orgs\/acme\/features\/[^/]+$/, (call) => {
    const f = features.find((x) => x.id === call.path.split('/').pop())
    return f ? { body: f } : { status: 404, body: { success: false, message: 'Feature not found', errors: [] } }
  })
  const save = (id: string, body: { name: string; events: string[] }) => {
    if (features.some((f) => f.id !== id && f.name.toLowerCase() === body.name.toLowerCase())) {
      return { status: 409, body: { success: false, message: 'A feature with this name already exists', errors: [{ name: 'name', message: 'A feature with this name already exists' }] } }
    }
    const f: FeatureDetail = { id, name: body.name, events: body.events.map((event_name) => ({ event_name })) }
    features = [...features.filter((x) => x.id !== id), f]
    return { status: 201, body: f }
  }
  server.on('POST', '/api-v2/orgs/acme/features', (call) => save(`f${next++}`, call.body as { name: string; events: string[] }))
  server.on('PATCH', /^\/api-v2\/orgs\/acme\/features\//, (call) => save(call.path.split('/').pop()!, call.body as { name: string; events: string[] }))
  server.on('DELETE', /^\/api-v2\/orgs\/acme\/features\//, (call) => {
    features = features.filter((f) => f.id !== call.path.split('/').pop())
    return { status: 204 }
  })
  return server
}

const CHECKOUT: FeatureDetail = { id: 'f-checkout', name: 'Checkout', events: [{ event_name: 'Cart Viewed' }, { event_name: 'Order Completed' }] }
const rowNames = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((r) => r.textContent)
const drawer = () => within(screen.getByRole('dialog'))
const chips = () => within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem').map((li) => li.textContent?.replace('✕', ''))

describe('features', () => {
  it("shows 'Your features', 'Add feature...', a search box and 'No features found' when there are none", async () => {
    renderRoutes(routes, '/organizations/acme/features', { server: featuresServer() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Your features' })).toBeTruthy()
    expect(await screen.findByText('No features found')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add feature...' })).toBeTruthy()
    expect(screen.getByRole('searchbox', { name: 'Search features' })).toBeTruthy()
    expect(screen.getByRole('columnheader').textContent).toBe('Name')
  })

  it("searches by name, with 'No features found' when nothing matches", async () => {
    renderRoutes(routes, '/organizations/acme/features', { server: featuresServer([CHECKOUT, { id: 'f2', name: 'Search', events: [] }]) })
    await waitFor(() => expect(rowNames()).toEqual(['Checkout', 'Search']))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search features' }), { target: { value: 'CHECK' } })
    expect(rowNames()).toEqual(['Checkout'])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search features' }), { target: { value: 'zzz' } })
    expect(screen.getByText('No features found')).toBeTruthy()
  })

  it("'Add feature...' opens 'Track new feature' at ?modal=feature-modal; the name rules show before anything is sent", async () => {
    const server = featuresServer()
    const { router } = renderRoutes(routes, '/organizations/acme/features', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'Add feature...' }))
    expect(await screen.findByRole('dialog', { name: 'Track new feature' })).toBeTruthy()
    expect(screen.getByRole('dialog').dataset.side).toBe('right')
    expect(router.state.location.search).toBe('?modal=feature-modal')
    const error = () => document.getElementById('field-name-error')?.textContent
    fireEvent.click(drawer().getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(error()).toBe('Name must be provided'))
    fireEvent.change(drawer().getByLabelText('Name'), { target: { value: 'x'.repeat(50) } })
    expect(error()).toBeUndefined()
    fireEvent.click(drawer().getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(error()).toBe('Name must have less than 50 characters'))
    expect(server.callsTo('POST', '/api-v2/orgs/acme/features')).toHaveLength(0)
  })

  it('creates a feature from a known event and a custom one; the list is refetched and the drawer closes', async () => {
    const server = featuresServer()
    const { router } = renderRoutes(routes, '/organizations/acme/features?modal=feature-modal', { server })
    await screen.findByRole('dialog', { name: 'Track new feature' })
    fireEvent.change(drawer().getByLabelText('Name'), { target: { value: '  Onboarding ' } })
    fireEvent.click(drawer().getByRole('button', { name: 'Add event' }))
    fireEvent.click(await drawer().findByRole('button', { name: 'Signed Up' }))
    expect(chips()).toEqual(['Signed Up'])
    // The chosen event is not offered again; a custom one needs search text.
    fireEvent.click(drawer().getByRole('button', { name: 'Add event' }))
    await drawer().findByRole('button', { name: 'Feature Used' })
    expect(drawer().queryByRole('button', { name: 'Signed Up' })).toBeNull()
    expect((drawer().getByRole('button', { name: 'Add custom event' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(drawer().getByRole('searchbox', { name: 'Search events' }), { target: { value: '   ' } })
    expect((drawer().getByRole('button', { name: 'Add custom event' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(drawer().getByRole('searchbox', { name: 'Search events' }), { target: { value: ' Tour Finished ' } })
    fireEvent.click(drawer().getByRole('button', { name: 'Add custom event "Tour Finished"' }))
    expect(chips()).toEqual(['Signed Up', 'Tour Finished'])
    fireEvent.click(drawer().getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(server.callsTo('POST', '/api-v2/orgs/acme/features')[0]!.body).toEqual({ name: 'Onboarding', events: ['Signed Up', 'Tour Finished'] })
    await waitFor(() => expect(rowNames()).toEqual(['Onboarding']))
    expect(router.state.location.search).toBe('')
    expect(server.callsTo('GET', '/api-v2/orgs/acme/features')).toHaveLength(2)
  })

  it("a row opens 'Feature' with its id; chips can be removed; a taken name is shown beside the field", async () => {
    const server = featuresServer([CHECKOUT, { id: 'f-search', name: 'Search', events: [] }])
    const { router } = renderRoutes(routes, '/organizations/acme/features', { server })
    fireEvent.click(await screen.findByText('Checkout'))
    expect(await screen.findByRole('dialog', { name: 'Feature' })).toBeTruthy()
    expect(router.state.location.search).toBe('?modal=feature-modal&id=f-checkout')
    await waitFor(() => expect(chips()).toEqual(['Cart Viewed', 'Order Completed']))
    expect((drawer().getByLabelText('Name') as HTMLInputElement).value).toBe('Checkout')
    fireEvent.click(drawer().getByRole('button', { name: 'Remove Cart Viewed' }))
    expect(chips()).toEqual(['Order Completed'])
    fireEvent.change(drawer().getByLabelText('Name'), { target: { value: 'search' } })
    fireEvent.click(drawer().getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(document.getElementById('field-name-error')?.textContent).toBe('A feature with this name already exists'))
    expect(document.activeElement).toBe(drawer().getByLabelText('Name'))
    fireEvent.change(drawer().getByLabelText('Name'), { target: { value: 'Purchase' } })
    fireEvent.click(drawer().getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(server.callsTo('PATCH', '/api-v2/orgs/acme/features/f-checkout').at(-1)!.body).toEqual({ name: 'Purchase', events: ['Order Completed'] })
    await waitFor(() => expect(rowNames()).toEqual(['Purchase', 'Search']))
  })

  it("deletes after the confirmation: '{name} has been deleted', the list refetched, the drawer closed", async () => {
    const server = featuresServer([CHECKOUT])
    renderRoutes(routes, '/organizations/acme/features?modal=feature-modal&id=f-checkout', { server })
    await screen.findByRole('dialog', { name: 'Feature' })
    fireEvent.click(await drawer().findByRole('button', { name: 'Delete' }))
    const confirm = within(screen.getByRole('dialog', { name: 'Delete feature' }))
    expect(confirm.getByText('Are you sure you want to delete the feature "Checkout"?')).toBeTruthy()
    fireEvent.click(confirm.getByRole('button', { name: 'Delete' }))
    expect((await screen.findByText('Checkout has been deleted')).dataset.kind).toBe('ok')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(await screen.findByText('No features found')).toBeTruthy()
    expect(server.callsTo('DELETE', '/api-v2/orgs/acme/features/f-checkout')).toHaveLength(1)
  })

  it('Escape on the confirmation closes the confirmation only; then the drawer', async () => {
    const { router } = renderRoutes(routes, '/organizations/acme/features?modal=feature-modal&id=f-checkout', { server: featuresServer([CHECKOUT]) })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    expect(screen.getByRole('dialog', { name: 'Delete feature' })).toBeTruthy()
    fireEvent.keyDown(window, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete feature' })).toBeNull())
    expect(screen.getByRole('dialog', { name: 'Feature' })).toBeTruthy()
    fireEvent.keyDown(window, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.search).toBe('')
  })

  it('a new feature has no Delete; an unknown id says so in the drawer', async () => {
    renderRoutes(routes, '/organizations/acme/features?modal=feature-modal&id=gone', { server: featuresServer() })
    expect(await screen.findByRole('dialog', { name: 'Feature' })).toBeTruthy()
    expect((await drawer().findByRole('alert')).textContent).toBe('Feature not found')
  })
})
