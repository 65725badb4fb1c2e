import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeServer } from '../test/fakeServer.ts'
import { renderWithApp } from '../test/render.tsx'
import { EventPicker } from './EventPicker.tsx'
import { Drawer } from './modal/Modal.tsx'

function eventsServer() {
  const server = fakeServer()
  const known = [
    { name: 'Feature Used', volume: 15_230 },
    { name: 'Dashboard Viewed', volume: 840 },
    { name: 'Signed Up', volume: 60 },
  ]
  server.on('GET', '/api-v2/orgs/acme/events', (call) => {
    const q = (call.query.get('search') ?? '').toLowerCase()
    return { body: { events: known.filter((e) => e.name.toLowerCase().includes(q)) } }
  })
  return server
}

const listed = () => within(screen.getByRole('list', { name: 'Known events' })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))

describe('event picker', () => {
  it('lists the known events, most frequent first, with their volume; picking one hands it over and closes', async () => {
    const onPick = vi.fn()
    renderWithApp(<EventPicker org="acme" onPick={onPick} chosen={['Dashboard Viewed']} />, { server: eventsServer() })
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    await waitFor(() => expect(listed()).toEqual(['Feature Used', 'Signed Up']))
    expect(screen.getByRole('button', { name: 'Feature Used' }).textContent).toBe('Feature Used15.2K')
    fireEvent.click(screen.getByRole('button', { name: 'Signed Up' }))
    expect(onPick).toHaveBeenCalledWith('Signed Up')
    expect(screen.queryByRole('searchbox')).toBeNull()
  })

  it('searches on the server once typing pauses, narrowing at once on screen', async () => {
    const server = eventsServer()
    renderWithApp(<EventPicker org="acme" onPick={() => {}} />, { server })
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    await waitFor(() => expect(listed()).toHaveLength(3))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'd' } })
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'da' } })
    expect(listed()).toEqual(['Dashboard Viewed'])
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api-v2/orgs/acme/events').map((c) => c.query.get('search'))).toEqual([null, 'da']))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'nothing like it' } })
    expect(await screen.findByText('No events found')).toBeTruthy()
  })

  it('adds a custom event from non-blank search text, by its button or Enter; an exact known name is picked as it is', async () => {
    const onPick = vi.fn()
    renderWithApp(<EventPicker org="acme" onPick={onPick} />, { server: eventsServer() })
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    const search = await screen.findByRole('searchbox', { name: 'Search events' })
    fireEvent.keyDown(search, { key: 'Enter' })
    expect(onPick).not.toHaveBeenCalled()
    fireEvent.change(search, { target: { value: '  Plan Upgraded  ' } })
    fireEvent.keyDown(search, { key: 'Enter' })
    expect(onPick).toHaveBeenLastCalledWith('Plan Upgraded')
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search events' }), { target: { value: 'Signed Up' } })
    await waitFor(() => expect(listed()).toEqual(['Signed Up']))
    expect((screen.getByRole('button', { name: 'Add custom event' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Enter' })
    expect(onPick).toHaveBeenLastCalledWith('Signed Up')
    expect(onPick).toHaveBeenCalledTimes(2)
  })

  it('offers no custom event when told not to', async () => {
    renderWithApp(<EventPicker org="acme" onPick={() => {}} allowCustom={false} />, { server: eventsServer() })
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    fireEvent.change(await screen.findByRole('searchbox'), { target: { value: 'Anything' } })
    expect(screen.queryByRole('button', { name: /Add custom event/ })).toBeNull()
  })

  it('Escape closes the picker and leaves the drawer around it open', async () => {
    const onClose = vi.fn()
    renderWithApp(
      <Drawer title="Feature" onClose={onClose}>
        <EventPicker org="acme" onPick={() => {}} />
      </Drawer>,
      { server: eventsServer() },
    )
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    fireEvent.keyDown(await screen.findByRole('searchbox'), { key: 'Escape' })
    expect(screen.queryByRole('searchbox')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.keyDown(window, { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it("shows the server's message when the events cannot be read", async () => {
    const server = fakeServer()
    server.on('GET', '/api-v2/orgs/acme/events', { status: 500, body: { success: false, message: 'The events store is unavailable', errors: [] } })
    renderWithApp(<EventPicker org="acme" onPick={() => {}} />, { server })
    fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
    expect((await screen.findByRole('alert')).textContent).toBe('The events store is unavailable')
  })
})
