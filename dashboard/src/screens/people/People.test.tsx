import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../routes.tsx'
import type { PeopleList, PersonRow } from '../../api/types.ts'
import { fakeServer, type Call } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

// The screens are lazy chunks: their first load in a test run can take longer than the default second.
configure({ asyncUtilTimeout: 5000 })

const NOW = new Date('2026-03-02T09:00:00.000Z')
const API = '/api-v2/orgs/acme/people'

const person = (p: Partial<PersonRow> & Pick<PersonRow, 'id' | 'visitor'>): PersonRow => ({
  anonymous: false,
  email: null,
  company: null,
  companyDomain: null,
  visits: 0,
  role: null,
  lastSeen: null,
  employees: null,
  revenue: null,
  linkedInUrl: null,
  hasBusinessEmail: false,
  hasPersonalEmail: false,
  hasHEM: false,
  ...p,
})

const ADA = person({
  id: 'u-ada',
  visitor: 'Ada Lovelace',
  email: 'ada@acme.com',
  company: 'Acme Inc',
  companyDomain: 'acme.com',
  visits: 4,
  role: 'CTO',
  lastSeen: '2026-03-02T06:30:00.000Z',
  employees: 1200,
  revenue: 5_000_000,
  linkedInUrl: 'https://www.linkedin.com/in/ada',
  hasBusinessEmail: true,
  hasHEM: true,
})
const DAN = person({ id: 'u-dan', visitor: 'Dan', email: 'dan@gmail.com', company: 'Freelance', visits: 1, lastSeen: '2026-02-27T10:00:00.000Z', hasPersonalEmail: true })
const LENA = person({ id: 'anon:anon-lena', anonymous: true, visitor: 'Anonymous visitor', visits: 1, lastSeen: '2026-03-01T09:00:00.000Z', company: 'Globex', companyDomain: 'globex.com' })

function peopleServer(answer: (call: Call) => PeopleList) {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', API, (call) => ({ body: answer(call) }))
  return server
}

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => vi.useRealTimers())

describe('the People table', () => {
  it('shows the people of the page with their columns, icons and flags, under the People and Audiences tabs', async () => {
    renderRoutes(routes, '/organizations/acme/people', { server: peopleServer(() => ({ totalUsers: 2, users: [ADA, DAN] })) })
    await screen.findByRole('link', { name: 'Ada Lovelace' })
    expect(screen.getByRole('heading', { level: 1, name: 'People' })).toBeTruthy()
    const tabs = within(screen.getByRole('navigation', { name: 'People area' })).getAllByRole('link')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-current')])).toEqual([
      ['People', 'page'],
      ['Audiences', null],
    ])
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Visitor', 'Company', 'Activity', 'Role', 'Last seen', 'Employees', 'Revenue'])
    expect(cells(rowOf('Ada Lovelace'))).toEqual([expect.stringMatching(/Ada Lovelace.*ada@acme\.com/), 'Acme Incacme.com', '4 visits', 'CTO', '2 hours ago', '1,200', '$5M'])
    expect(cells(rowOf('Dan'))).toEqual([expect.stringContaining('dan@gmail.com'), 'Freelance', '1 visit', '—', '2 days ago', '—', '—'])

    const ada = within(rowOf('Ada Lovelace'))
    expect(ada.getByRole('link', { name: 'LinkedIn profile of Ada Lovelace' }).getAttribute('href')).toBe('https://www.linkedin.com/in/ada')
    expect(ada.getByRole('img', { name: 'Business email' })).toBeTruthy()
    expect(ada.getByRole('img', { name: 'Hashed email' })).toBeTruthy()
    expect(ada.queryByRole('img', { name: 'Personal email' })).toBeNull()
    const dan = within(rowOf('Dan'))
    expect(dan.getByRole('img', { name: 'Personal email' })).toBeTruthy()
    expect(dan.queryByRole('link', { name: /LinkedIn/ })).toBeNull()
    // Cut to their column's width, the name, e-mail, company and domain show whole on hover.
    expect(ada.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('title')).toBe('Ada Lovelace')
    expect(['ada@acme.com', 'Acme Inc', 'acme.com'].map((text) => ada.getByText(text).getAttribute('title'))).toEqual(['ada@acme.com', 'Acme Inc', 'acme.com'])
    expect(screen.getByText('1–2 of 2')).toBeTruthy()
  })

  it("asks for anonymous visitors with 'Show anonymous users', back on page 1", async () => {
    const server = peopleServer((call) => (call.query.get('ip2company') === 'true' ? { totalUsers: 41, users: [ADA, LENA] } : { totalUsers: 40, users: [ADA, DAN] }))
    renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('link', { name: 'Ada Lovelace' })
    expect([...server.callsTo('GET', API).at(-1)!.query]).toEqual([
      ['page', '1'],
      ['ip2company', 'false'],
    ])
    fireEvent.click(screen.getByLabelText('Next page'))
    await waitFor(() => expect(server.callsTo('GET', API).at(-1)!.query.get('page')).toBe('2'))
    await screen.findByText('21–40 of 40')

    const toggle = screen.getByRole('switch', { name: 'Show anonymous users' })
    fireEvent.click(toggle)
    await screen.findByRole('link', { name: 'Anonymous visitor' })
    expect((toggle as HTMLInputElement).checked).toBe(true)
    const last = server.callsTo('GET', API).at(-1)!
    expect([last.query.get('page'), last.query.get('ip2company')]).toEqual(['1', 'true'])
    expect(screen.getByText('1–20 of 41')).toBeTruthy()
  })

  it('says whom the total counts, with and without anonymous users', async () => {
    renderRoutes(routes, '/organizations/acme/people', { server: peopleServer(() => ({ totalUsers: 2, users: [ADA, DAN] })) })
    await screen.findByRole('link', { name: 'Ada Lovelace' })
    const toggle = screen.getByRole('switch', { name: 'Show anonymous users' })
    expect(toggle.getAttribute('aria-describedby')).toBe('people-counted')
    expect(document.getElementById('people-counted')!.textContent).toBe("Signed-in people (a user id). Leads known only by an e-mail, and other visitors, show with 'Show anonymous users'.")
    fireEvent.click(toggle)
    await waitFor(() => expect(document.getElementById('people-counted')!.textContent).toBe('Everyone: signed-in people, leads known by an e-mail and anonymous visitors.'))
  })

  it('searches on the server once typing settles, back on page 1, and exports what the search and toggle show', async () => {
    const server = peopleServer((call) => (call.query.get('search') === 'acme' ? { totalUsers: 1, users: [ADA] } : call.query.get('search') ? { totalUsers: 0, users: [] } : { totalUsers: 13678, users: [ADA, DAN] }))
    renderRoutes(routes, '/organizations/acme/people', { server })
    await screen.findByRole('link', { name: 'Dan' })
    expect(screen.getByText('1–20 of 13,678')).toBeTruthy()
    const exportLink = () => screen.getByRole('link', { name: 'Export CSV' })
    expect(exportLink().getAttribute('href')).toBe('/api-v2/orgs/acme/people/export.csv?ip2company=false')
    fireEvent.click(screen.getByLabelText('Next page'))
    await waitFor(() => expect(server.callsTo('GET', API).at(-1)!.query.get('page')).toBe('2'))

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search people' }), { target: { value: '  acme ' } })
    expect(await screen.findByText('1–1 of 1')).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Dan' })).toBeNull()
    const last = server.callsTo('GET', API).at(-1)!
    expect([last.query.get('page'), last.query.get('search')]).toEqual(['1', 'acme'])
    expect(exportLink().getAttribute('href')).toBe('/api-v2/orgs/acme/people/export.csv?ip2company=false&search=acme')

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search people' }), { target: { value: 'zzz' } })
    expect(await screen.findByText('No people match "zzz"')).toBeTruthy()
  })

  it("opens the company page from a row with a company domain, the person's profile from their name", async () => {
    const { router } = renderRoutes(routes, '/organizations/acme/people', { server: peopleServer(() => ({ totalUsers: 2, users: [ADA, DAN] })) })
    await screen.findByRole('link', { name: 'Ada Lovelace' })
    // Dan has a company name but no domain: his row opens nothing.
    fireEvent.click(within(rowOf('Dan')).getByText('Freelance'))
    expect(router.state.location.pathname).toBe('/organizations/acme/people')
    fireEvent.click(within(rowOf('Ada Lovelace')).getByText('CTO'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/companies/acme.com'))
    await router.navigate('/organizations/acme/people')
    expect((await screen.findByRole('link', { name: 'Ada Lovelace' })).getAttribute('href')).toBe('/organizations/acme/people/users/u-ada')
  })

  it('keeps people-ai links in people-ai (the same screens, mounted twice)', async () => {
    renderRoutes(routes, '/organizations/acme/people-ai', { server: peopleServer(() => ({ totalUsers: 1, users: [LENA] })) })
    const link = await screen.findByRole('link', { name: 'Anonymous visitor' })
    expect(link.getAttribute('href')).toBe('/organizations/acme/people-ai/users/anon%3Aanon-lena')
    expect(within(screen.getByRole('navigation', { name: 'People area' })).getByRole('link', { name: 'Audiences' }).getAttribute('href')).toBe('/organizations/acme/people-ai/audiences')
  })

  it("says 'Waiting for event traffic' while nobody is identified", async () => {
    renderRoutes(routes, '/organizations/acme/people', { server: peopleServer(() => ({ totalUsers: 0, users: [] })) })
    expect(await screen.findByText('Waiting for event traffic')).toBeTruthy()
    expect(screen.getByText('Your customers will show here once we identify them')).toBeTruthy()
  })

  it("shows the server's message when the list fails", async () => {
    const server = fakeServer()
    server.on('PATCH', '/api/users/me/preferences', { body: {} })
    server.on('GET', API, { status: 500, body: { success: false, message: 'An error has occurred', errors: [] } })
    renderRoutes(routes, '/organizations/acme/people', { server })
    // The message, in the table's place (other screens of the tab may say their own).
    const table = await screen.findByRole('region', { name: 'People' })
    expect((await within(table).findByRole('alert')).textContent).toBe('An error has occurred')
  })
})
