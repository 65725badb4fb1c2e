import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import type { FeatureSelections, LexiconEvent, LexiconTrait, MappingEvent } from '../../api/types.ts'
import { deferred, fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const EVENTS: LexiconEvent[] = [
  { tagId: 't1', name: 'Signed Up', volume: 60 },
  { tagId: 't2', name: 'Dashboard Viewed', volume: 1520 },
  { tagId: 't3', name: 'api call', volume: 840 },
  { tagId: 't4', name: 'Old Event', volume: 0 },
]
const TRAITS: LexiconTrait[] = [
  { name: 'email', traitType: 'string', eventType: 'SegmentIdentify' },
  { name: 'employees', traitType: 'number', eventType: 'SegmentGroup' },
  { name: 'plan', traitType: 'string', eventType: 'SegmentIdentify' },
  { name: 'plan', traitType: 'string', eventType: 'SegmentGroup' },
  { name: 'signed_up_at', traitType: 'date', eventType: 'SegmentIdentify' },
]
const MAPPING_EVENTS: MappingEvent[] = Array.from({ length: 23 }, (_, i) => ({
  name: `Event ${String(i + 1).padStart(2, '0')}`,
  properties: i === 0 ? [{ name: 'plan', propertyType: 'string' }, { name: 'seats', propertyType: 'number' }] : [],
}))

/** The lexicon's calls as the server answers them (the real one runs in the browser tests). */
function lexiconServer(initial: FeatureSelections = { excludedEvents: [], includedProperties: [] }) {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api/orgs/acme/lexicon/events', { body: { events: EVENTS } })
  // The last route that matches answers: the one event with properties after the rest.
  server.on('GET', /^\/api\/orgs\/acme\/lexicon\/events\/.+\/properties$/, { body: { properties: [] } })
  server.on('GET', '/api/orgs/acme/lexicon/events/Signed%20Up/properties', { body: { properties: [{ name: 'plan', propertyType: 'string' }, { name: 'seats', propertyType: 'number' }] } })
  server.on('GET', '/api/orgs/acme/lexicon/traits', { body: { traits: TRAITS } })
  let stored = initial
  server.on('GET', '/api-v2/orgs/acme/lexicon/mapping', () => ({ body: { featureSelections: stored } }))
  server.on('POST', '/api-v2/orgs/acme/lexicon/mapping', (call) => {
    stored = (call.body as { featureSelections: FeatureSelections }).featureSelections
    return { body: { featureSelections: stored } }
  })
  server.on('GET', '/api-v2/orgs/acme/lexicon/mapping/events', (call) => {
    const page = Number(call.query.get('page') ?? 1)
    const q = (call.query.get('search') ?? '').toLowerCase()
    const matching = MAPPING_EVENTS.filter((e) => e.name.toLowerCase().includes(q))
    return { body: { events: matching.slice((page - 1) * 20, page * 20), totalEvents: matching.length } }
  })
  return server
}

const names = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((r) => r.querySelector('td')?.textContent?.replace('›', ''))
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) })

describe('lexicon: events', () => {
  it("shows the tabs, Name and '30 day volume', sorted by volume, most first", async () => {
    renderRoutes(routes, '/organizations/acme/lexicon', { server: lexiconServer() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Lexicon' })).toBeTruthy()
    expect(screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['Events', 'true'],
      ['Traits', 'false'],
      ['Mapping', 'false'],
    ])
    await waitFor(() => expect(names()).toEqual(['Dashboard Viewed', 'api call', 'Signed Up', 'Old Event']))
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, ''))).toEqual(['Name', '30 day volume'])
    expect(header('30 day volume').getAttribute('aria-sort')).toBe('descending')
    expect(header('Name').getAttribute('aria-sort')).toBe('none')
    // Volumes in the product's short form, the exact count on hover.
    expect(screen.getByTitle('1,520').textContent).toBe('1.5K')
  })

  it('sorts by name either way and back to volume', async () => {
    renderRoutes(routes, '/organizations/acme/lexicon', { server: lexiconServer() })
    await waitFor(() => expect(names()).toHaveLength(4))
    fireEvent.click(within(header('Name')).getByRole('button'))
    expect(names()).toEqual(['api call', 'Dashboard Viewed', 'Old Event', 'Signed Up'])
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending')
    fireEvent.click(within(header('Name')).getByRole('button'))
    expect(names()).toEqual(['Signed Up', 'Old Event', 'Dashboard Viewed', 'api call'])
    fireEvent.click(within(header('30 day volume')).getByRole('button'))
    expect(names()).toEqual(['Dashboard Viewed', 'api call', 'Signed Up', 'Old Event'])
    fireEvent.click(within(header('30 day volume')).getByRole('button'))
    expect(names()).toEqual(['Old Event', 'Signed Up', 'api call', 'Dashboard Viewed'])
  })

  it("searches by name, with 'No events found' when nothing matches", async () => {
    renderRoutes(routes, '/organizations/acme/lexicon', { server: lexiconServer() })
    await waitFor(() => expect(names()).toHaveLength(4))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'VIEW' } })
    expect(names()).toEqual(['Dashboard Viewed'])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'nothing like it' } })
    expect(screen.getByText('No events found')).toBeTruthy()
  })

  it("expands a row into its properties and types, or 'No properties found'", async () => {
    renderRoutes(routes, '/organizations/acme/lexicon', { server: lexiconServer() })
    const signedUp = await screen.findByRole('button', { name: /Signed Up/ })
    expect(signedUp.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(signedUp)
    const list = await screen.findByRole('list', { name: 'Properties of Signed Up' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['planstring', 'seatsnumber'])
    expect(signedUp.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: /Old Event/ }))
    expect(await screen.findByText('No properties found')).toBeTruthy()
    fireEvent.click(signedUp)
    expect(screen.queryByRole('list', { name: 'Properties of Signed Up' })).toBeNull()
  })
})

describe('lexicon: traits', () => {
  it('lists traits with their type and entity, filtered by search, Entity and Type', async () => {
    renderRoutes(routes, '/organizations/acme/lexicon/traits', { server: lexiconServer() })
    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))
    await waitFor(() => expect(rows()).toHaveLength(5))
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Trait name', 'Type', 'Entity'])
    expect(rows()[1]).toEqual(['employees', 'number', 'Company'])
    expect(screen.getByRole('tab', { name: 'Traits' }).getAttribute('aria-selected')).toBe('true')

    const entity = screen.getByRole('combobox', { name: 'Entity' })
    expect([...entity.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['All', 'User', 'Company'])
    fireEvent.change(entity, { target: { value: 'company' } })
    expect(rows()).toEqual([
      ['employees', 'number', 'Company'],
      ['plan', 'string', 'Company'],
    ])
    fireEvent.change(entity, { target: { value: 'user' } })
    const type = screen.getByRole('combobox', { name: 'Type' })
    expect([...type.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['All', 'string', 'number', 'date'])
    fireEvent.change(type, { target: { value: 'date' } })
    expect(rows()).toEqual([['signed_up_at', 'date', 'User']])
    fireEvent.change(type, { target: { value: 'number' } })
    expect(screen.getByText('No traits found')).toBeTruthy()
    fireEvent.change(type, { target: { value: 'all' } })
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search traits' }), { target: { value: 'PLAN' } })
    expect(rows()).toEqual([['plan', 'string', 'User']])
  })
})

describe('lexicon: mapping', () => {
  it("saves every change at once, with no save button; switching an event off removes its properties", async () => {
    const server = lexiconServer()
    renderRoutes(routes, '/organizations/acme/lexicon/mapping', { server })
    const row = async (name: string) => within((await screen.findByRole('button', { name: new RegExp(name) })).closest('tr')!)
    const posted = () => server.callsTo('POST', '/api-v2/orgs/acme/lexicon/mapping').map((c) => c.body)
    const first = await row('Event 01')
    expect((first.getByRole('checkbox', { name: 'In model' }) as HTMLInputElement).checked).toBe(true)
    expect(screen.queryByRole('button', { name: /save/i })).toBeNull()

    fireEvent.click(first.getByRole('button', { name: /Event 01/ }))
    const props = await screen.findByRole('list', { name: 'Properties of Event 01' })
    fireEvent.click(within(props).getByRole('checkbox', { name: 'plan' }))
    await waitFor(() => expect(posted()).toEqual([{ featureSelections: { excludedEvents: [], includedProperties: [{ event: 'Event 01', property: 'plan' }] } }]))
    expect((within(props).getByRole('checkbox', { name: 'plan' }) as HTMLInputElement).checked).toBe(true)

    fireEvent.click(first.getByRole('checkbox', { name: 'In model' }))
    await waitFor(() => expect(posted()).toHaveLength(2))
    expect(posted()[1]).toEqual({ featureSelections: { excludedEvents: ['Event 01'], includedProperties: [] } })
    // Out of the model: its properties are cleared and cannot be ticked.
    const plan = within(props).getByRole('checkbox', { name: 'plan' }) as HTMLInputElement
    expect([plan.checked, plan.disabled]).toEqual([false, true])

    fireEvent.click(first.getByRole('checkbox', { name: 'In model' }))
    await waitFor(() => expect(posted()).toHaveLength(3))
    expect(posted()[2]).toEqual({ featureSelections: { excludedEvents: [], includedProperties: [] } })
    fireEvent.click(await (await row('Event 02')).findByRole('button', { name: /Event 02/ }))
    expect(await screen.findByText('No properties found')).toBeTruthy()
  })

  it('shows what was saved before, pages from 1, and goes back to page 1 on a search', async () => {
    const server = lexiconServer({ excludedEvents: ['Event 02'], includedProperties: [{ event: 'Event 01', property: 'seats' }] })
    renderRoutes(routes, '/organizations/acme/lexicon/mapping', { server })
    const inModel = (name: string) => (within(screen.getByRole('button', { name: new RegExp(name) }).closest('tr')!).getByRole('checkbox', { name: 'In model' }) as HTMLInputElement).checked
    await screen.findByRole('button', { name: /Event 01/ })
    expect([inModel('Event 01'), inModel('Event 02')]).toEqual([true, false])
    expect(screen.getByText('1–20 of 23')).toBeTruthy()
    const pages = () => server.callsTo('GET', '/api-v2/orgs/acme/lexicon/mapping/events').map((c) => [c.query.get('page'), c.query.get('search')])
    expect(pages()).toEqual([['1', null]])

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await screen.findByRole('button', { name: /Event 23/ })
    expect(screen.getByText('21–23 of 23')).toBeTruthy()
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'event 1' } })
    await screen.findByRole('button', { name: /Event 10/ })
    expect(pages()).toEqual([
      ['1', null],
      ['2', null],
      ['1', 'event 1'],
    ])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'zzz' } })
    expect(await screen.findByText('No events found')).toBeTruthy()
  })

  it('reads the choices behind a save still on its way: a tick made just before leaving the tab shows on coming back, and the next change keeps it', async () => {
    const server = lexiconServer()
    // The first save is held on its way, as on a busy server; the server applies it when released.
    let stored: FeatureSelections = { excludedEvents: [], includedProperties: [] }
    const held = deferred<void>()
    let saves = 0
    server.on('GET', '/api-v2/orgs/acme/lexicon/mapping', () => ({ body: { featureSelections: stored } }))
    server.on('POST', '/api-v2/orgs/acme/lexicon/mapping', async (call) => {
      if (saves++ === 0) await held.promise
      stored = (call.body as { featureSelections: FeatureSelections }).featureSelections
      return { body: { featureSelections: stored } }
    })
    renderRoutes(routes, '/organizations/acme/lexicon/mapping', { server })
    const expand = async () => {
      fireEvent.click(await screen.findByRole('button', { name: /Event 01/ }))
      return screen.findByRole('list', { name: 'Properties of Event 01' })
    }
    const box = (list: HTMLElement, property: string) => within(list).getByRole('checkbox', { name: property }) as HTMLInputElement
    fireEvent.click(box(await expand(), 'plan'))

    // Away and back while the save waits: the tab asks for the choices again.
    fireEvent.click(screen.getByRole('tab', { name: 'Events' }))
    await screen.findByRole('button', { name: /Dashboard Viewed/ })
    fireEvent.click(screen.getByRole('tab', { name: 'Mapping' }))
    await screen.findByRole('tabpanel', { name: 'Mapping' })
    held.resolve()

    const props = await expand()
    expect(box(props, 'plan').checked).toBe(true)
    fireEvent.click(box(props, 'seats'))
    await waitFor(() => expect(saves).toBe(2))
    await waitFor(() =>
      expect(stored).toEqual({ excludedEvents: [], includedProperties: [{ event: 'Event 01', property: 'plan' }, { event: 'Event 01', property: 'seats' }] }),
    )
  })
})
