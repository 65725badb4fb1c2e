import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../routes.tsx'
import type { CompanyAnalytics, CompanyDetail, CompanyDetails, CompanyEvent, CompanyVisitors } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import { formatDuration, formatTraitValue, initials } from './format.ts'

const NOW = new Date('2026-03-02T09:00:00.000Z')
const BASE = '/organizations/acme/companies/acme.com'
const API = '/api-v2/orgs/acme/companies/acme.com'

const graph = Array.from({ length: 30 }, (_, i) => ({ date: new Date(Date.UTC(2026, 1, 1 + i)).toISOString().slice(0, 10), value: i === 28 ? 4 : i === 19 ? 2 : 0 }))

function ev(time: string, type: CompanyEvent['type'], name: string, timeSpent: number): CompanyEvent {
  return { time, type, name, timeSpent }
}

const COMPANY: CompanyDetail = {
  name: 'Acme Inc',
  domain: 'acme.com',
  logoUrl: 'https://logos.example/acme.com.png',
  website: 'https://www.acme.com',
  visitors: 4,
  lastSeen: '2026-03-01T11:20:00.000Z',
  pageViews: 6,
  graph,
  traits: [
    { key: 'industry', icon: 'string', label: 'Industry', value: 'Software' },
    { key: 'employees', icon: 'number', label: 'Employees', value: 1200 },
    { key: 'revenue', icon: 'number', label: 'Revenue', value: 5_000_000 },
    { key: 'country', icon: 'string', label: 'Country', value: 'DE' },
    { key: 'createdAt', icon: 'date', label: 'Created', value: '2025-06-01T10:00:00.000Z' },
  ],
  timezone: 'Europe/Berlin',
  truncated: false,
  intents: [
    { topic: 'Data warehouse', score: 40, date: '2026-03-01' },
    { topic: 'Visitor identification', score: 87, date: '2026-02-27' },
    { topic: 'Product analytics', score: 64.5, date: '2026-02-27' },
    // An older score of a topic already listed: the card shows each topic at its latest.
    { topic: 'Data warehouse', score: 90, date: '2026-02-20' },
  ],
  dates: [
    {
      date: '2026-03-01',
      users: [
        {
          id: 'u-ada',
          name: 'Ada Lovelace',
          email: 'ada@acme.com',
          timeSpentOnSite: 720,
          role: 'CTO',
          location: 'Berlin',
          lastSeen: '2026-03-01T11:20:00.000Z',
          pageCount: 4,
          events: [
            ev('2026-03-01T10:00:00.000Z', 'page', 'Dashboard', 30),
            ev('2026-03-01T10:00:30.000Z', 'track', 'Report Created', 90),
            ev('2026-03-01T10:02:00.000Z', 'page', 'Reports', 0),
            ev('2026-03-01T11:00:00.000Z', 'page', 'App home', 600),
            ev('2026-03-01T11:20:00.000Z', 'page', 'Settings', 0),
          ],
        },
        {
          id: 'anon:anon-1',
          name: 'Anonymous visitor',
          email: null,
          timeSpentOnSite: 0,
          role: null,
          location: null,
          lastSeen: '2026-03-01T08:00:00.000Z',
          pageCount: 1,
          events: [ev('2026-03-01T08:00:00.000Z', 'page', 'Pricing', 0)],
        },
      ],
    },
    {
      date: '2026-02-20',
      users: [
        {
          id: 'u-bob',
          name: 'Bob Stone',
          email: 'bob@acme.com',
          timeSpentOnSite: 125,
          role: 'Engineer',
          location: 'Lyon, France',
          lastSeen: '2026-02-20T08:02:00.000Z',
          pageCount: 2,
          events: [ev('2026-02-20T08:00:00.000Z', 'page', 'Pricing', 60), ev('2026-02-20T08:01:00.000Z', 'page', 'Sign up', 65), ev('2026-02-20T08:02:05.000Z', 'track', 'Signed Up', 0)],
        },
      ],
    },
  ],
}

const VISITORS: CompanyVisitors = {
  visitors: [
    { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@acme.com', role: 'CTO', location: 'Berlin', anonymous: false, firstSeen: '2026-02-20T08:00:00.000Z', lastSeen: '2026-03-01T11:20:00.000Z', sessions: 3, pageViews: 6, events: 2, timeSpentOnSite: 840, topPages: [{ path: '/app', views: 2 }, { path: '/app/reports', views: 1 }] },
    { id: 'anon:anon-1', name: 'Anonymous visitor', email: null, role: null, location: null, anonymous: true, firstSeen: '2026-03-01T08:00:00.000Z', lastSeen: '2026-03-01T08:00:00.000Z', sessions: 1, pageViews: 1, events: 0, timeSpentOnSite: 0, topPages: [] },
  ],
}

const ANALYTICS: CompanyAnalytics = {
  pageViews: graph,
  visitors: graph.map((p) => ({ ...p, value: p.value ? 1 : 0 })),
  events: graph.map((p) => ({ ...p, value: 0 })),
  topPages: [{ path: '/app', title: 'Dashboard', views: 2, visitors: 1 }],
  topEvents: [{ name: 'Report Created', count: 1, visitors: 1 }],
}

const DETAILS: CompanyDetails = {
  name: 'Acme Inc',
  domain: 'acme.com',
  website: 'https://www.acme.com',
  groupIds: ['g-acme'],
  identifiedBy: ['group', 'email'],
  knownPeople: 5,
  firstSeen: '2026-01-10T12:00:00.000Z',
  lastSeen: '2026-03-01T11:20:00.000Z',
  traits: [...COMPANY.traits, { key: 'website', icon: 'string', label: 'Website', value: 'https://www.acme.com' }, { key: 'address.city', icon: 'string', label: 'Address city', value: 'Berlin' }],
}

function companyServer(detail: Partial<CompanyDetail> = {}) {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', API, { body: { ...COMPANY, ...detail } })
  server.on('GET', `${API}/visitors`, { body: VISITORS })
  server.on('GET', `${API}/analytics`, { body: ANALYTICS })
  server.on('GET', `${API}/details`, { body: DETAILS })
  return server
}

const panel = () => within(screen.getByRole('complementary', { name: 'Company' }))
const tab = (name: RegExp) => screen.getByRole('tab', { name })

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => vi.useRealTimers())

describe('the company page: left panel', () => {
  it('shows the name, the domain, the logo, the cards, the activity and the traits', async () => {
    renderRoutes(routes, BASE, { server: companyServer() })
    expect(await screen.findByRole('heading', { name: 'Acme Inc' })).toBeTruthy()
    expect(screen.getByRole('link', { name: '← People' }).getAttribute('href')).toBe('/organizations/acme/people')
    expect(panel().getByRole('link', { name: 'acme.com' }).getAttribute('href')).toBe('https://www.acme.com')
    expect((panel().getByRole('img', { name: 'Acme Inc logo' }) as HTMLImageElement).src).toBe('https://logos.example/acme.com.png')
    expect(panel().getByText('Visitors (30d)').nextElementSibling!.textContent).toBe('4')
    expect(panel().getByText('Last seen').nextElementSibling!.textContent).toBe('21 hours ago')
    const activity = within(panel().getByRole('region', { name: 'Activity' }))
    expect(activity.getByText('Past 30 days')).toBeTruthy()
    expect(activity.getByTestId('page-views').textContent).toBe('6')
    expect(activity.getByRole('img', { name: 'Page views per day' }).dataset.points).toBe('30')
    const traits = within(panel().getByRole('region', { name: 'Traits' }))
    const rows = traits.getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling!.textContent, dt.previousElementSibling!.getAttribute('data-icon')])
    expect(rows).toEqual([
      ['Industry', 'Software', 'string'],
      ['Employees', '1,200', 'number'],
      ['Revenue', '$5M', 'number'],
      ['Country', 'Germany', 'string'],
      ['Created', 'Jun 1, 2025', 'date'],
    ])
  })

  it('shows the business intents, each topic at its latest with its score and date, and credits the IP data', async () => {
    renderRoutes(routes, BASE, { server: companyServer() })
    await screen.findByRole('heading', { name: 'Acme Inc' })
    const card = within(panel().getByRole('region', { name: 'Business intent' }))
    expect(card.getByText('Past 30 days')).toBeTruthy()
    const topics = card.getAllByRole('listitem').map((li) => [li.getAttribute('aria-label'), within(li).getByTestId('intent-score').textContent, within(li).getByRole('meter').getAttribute('aria-valuenow'), li.querySelector('time')!.textContent])
    expect(topics).toEqual([
      ['Data warehouse', '40', '40', 'Mar 1, 2026'],
      ['Visitor identification', '87', '87', 'Feb 27, 2026'],
      ['Product analytics', '64.5', '64.5', 'Feb 27, 2026'],
    ])
    expect((card.getByRole('meter', { name: 'Visitor identification score' }).firstElementChild as HTMLElement).style.width).toBe('87%')
    const credit = screen.getByTestId('ip-data-attribution')
    expect(credit.textContent).toBe('IP data: IP Geolocation by DB-IP, RouteViews, NRO')
    expect(within(credit).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['https://db-ip.com/', 'https://www.routeviews.org/', 'https://www.nro.net/'])
  })

  it('lists five topics until asked for all', async () => {
    const intents = Array.from({ length: 7 }, (_, i) => ({ topic: `Topic ${i + 1}`, score: 90 - i, date: '2026-03-01' }))
    renderRoutes(routes, BASE, { server: companyServer({ intents }) })
    await screen.findByRole('heading', { name: 'Acme Inc' })
    const card = within(panel().getByRole('region', { name: 'Business intent' }))
    expect(card.getAllByRole('listitem')).toHaveLength(5)
    fireEvent.click(card.getByRole('button', { name: 'Show all 7 topics' }))
    expect(card.getAllByRole('listitem')).toHaveLength(7)
  })

  it('shows no Business intent card for a domain without intents', async () => {
    renderRoutes(routes, BASE, { server: companyServer({ intents: [] }) })
    await screen.findByRole('heading', { name: 'Acme Inc' })
    expect(panel().queryByRole('region', { name: 'Business intent' })).toBeNull()
  })

  it("shows the company's initials when there is no logo service", async () => {
    renderRoutes(routes, BASE, { server: companyServer({ logoUrl: null }) })
    const logo = await screen.findByRole('img', { name: 'Acme Inc logo' })
    expect(logo.tagName).toBe('SPAN')
    expect(logo.textContent).toBe('AI')
  })

  it('falls back to the initials when the logo fails to load', async () => {
    renderRoutes(routes, BASE, { server: companyServer() })
    const img = await screen.findByRole('img', { name: 'Acme Inc logo' })
    expect(img.tagName).toBe('IMG')
    act(() => void fireEvent.error(img))
    expect(screen.getByRole('img', { name: 'Acme Inc logo' }).tagName).toBe('SPAN')
  })

  it('never asks the logo service while third-party content is off', async () => {
    document.cookie = 'fl0-disable-3rd-party=true; path=/'
    renderRoutes(routes, BASE, { server: companyServer() })
    expect((await screen.findByRole('img', { name: 'Acme Inc logo' })).tagName).toBe('SPAN')
    expect(document.querySelector('img')).toBeNull()
  })

  it('shows the server’s message for an unknown company, with the way back', async () => {
    const server = fakeServer()
    server.on('PATCH', '/api/users/me/preferences', { body: {} })
    server.on('GET', '/api-v2/orgs/acme/companies/nope.com', { status: 404, body: { success: false, message: 'Company nope.com not found', errors: [] } })
    renderRoutes(routes, '/organizations/acme/companies/nope.com', { server })
    expect((await screen.findByRole('alert')).textContent).toBe('Company nope.com not found')
    expect(screen.getByRole('link', { name: '← People' })).toBeTruthy()
  })
})

describe('the company page: tabs', () => {
  it('opens on Intent, with the real visitor count on the Visitors tab', async () => {
    renderRoutes(routes, BASE, { server: companyServer() })
    await screen.findByRole('heading', { name: 'Acme Inc' })
    expect(screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['Intent', 'true'],
      ['Visitors4', 'false'],
      ['Analytics', 'false'],
      ['Company details', 'false'],
    ])
    expect(tab(/Visitors/).getAttribute('href')).toBe(`${BASE}/visitors`)
  })

  it('Intent: dates, then people with their facts, then their timeline in the organisation’s time zone', async () => {
    renderRoutes(routes, BASE, { server: companyServer() })
    const days = await screen.findAllByRole('region', { name: /, 2026$/ })
    expect(days.map((d) => d.getAttribute('aria-label'))).toEqual(['Sunday, Mar 1, 2026', 'Friday, Feb 20, 2026'])
    const people = within(days[0]!).getAllByRole('listitem', { name: /./ })
    expect(people.map((p) => p.getAttribute('aria-label'))).toEqual(['Ada Lovelace', 'Anonymous visitor'])
    const ada = within(people[0]!)
    expect(ada.getByText('AL')).toBeTruthy()
    const facts = Object.fromEntries(ada.getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]))
    expect(facts).toEqual({ 'Time on site': '12m', Role: 'CTO', Location: 'Berlin', 'Last seen': '21 hours ago', Pages: '4' })
    const timeline = ada.getByRole('list', { name: 'Events of Ada Lovelace' })
    expect(within(timeline).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '11:00 AMpageDashboard30s',
      '11:00 AMtrackReport Created1m 30s',
      '11:02 AMpageReports0s',
      '12:00 PMpageApp home10m',
      '12:20 PMpageSettings0s',
    ])
    // Someone not signed up: a question mark, and only the facts there are.
    const anon = within(people[1]!)
    expect(anon.getByText('?')).toBeTruthy()
    expect(anon.getAllByRole('term').map((dt) => dt.textContent)).toEqual(['Time on site', 'Last seen', 'Pages'])
  })

  it('Intent: a long timeline shows 20 events until asked for all', async () => {
    const events = Array.from({ length: 25 }, (_, i) => ev(new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString(), 'page', `Page ${i + 1}`, 60))
    const day = { date: '2026-03-01', users: [{ ...COMPANY.dates[0]!.users[0]!, events }] }
    renderRoutes(routes, BASE, { server: companyServer({ dates: [day] }) })
    const timeline = await screen.findByRole('list', { name: 'Events of Ada Lovelace' })
    expect(within(timeline).getAllByRole('listitem')).toHaveLength(20)
    fireEvent.click(screen.getByRole('button', { name: 'Show all 25 events' }))
    expect(within(timeline).getAllByRole('listitem')).toHaveLength(25)
  })

  it("Intent: 'No events found' for a company quiet for 30 days", async () => {
    renderRoutes(routes, BASE, { server: companyServer({ dates: [], visitors: 0, pageViews: 0, lastSeen: null }) })
    expect(await screen.findByText('No events found')).toBeTruthy()
    expect(panel().getByText('Last seen').nextElementSibling!.textContent).toBe('—')
  })

  it('Visitors: a linkable tab listing the people with their activity', async () => {
    const { router, server } = renderRoutes(routes, `${BASE}/visitors`, { server: companyServer() })
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3))
    expect(tab(/Visitors/).getAttribute('aria-selected')).toBe('true')
    const cells = (i: number) => within(screen.getAllByRole('row')[i]!).getAllByRole('cell').map((c) => c.textContent)
    expect(cells(1)).toEqual(['ALAda Lovelaceada@acme.com', 'CTOBerlin', '3', '6', '2', '14m', '21 hours ago'])
    expect(cells(2)).toEqual(['?Anonymous visitor', '—', '1', '1', '0', '0s', '1 day ago'])
    expect(within(screen.getAllByRole('row')[1]!).getByTitle('Most viewed: /app (2), /app/reports (1)').textContent).toBe('6')
    expect(screen.getByText('1–2 of 2')).toBeTruthy()
    expect(server.callsTo('GET', `${API}/visitors`)).toHaveLength(1)
    expect(router.state.location.pathname).toBe(`${BASE}/visitors`)
  })

  it('Analytics: page views, events and visitors per day, top pages and top events', async () => {
    const { router } = renderRoutes(routes, BASE, { server: companyServer() })
    fireEvent.click(await screen.findByRole('tab', { name: 'Analytics' }))
    expect(router.state.location.pathname).toBe(`${BASE}/analytics`)
    const pageViews = await screen.findByRole('region', { name: 'Page views per day' })
    expect(within(pageViews).getByText('6')).toBeTruthy()
    expect(within(screen.getByRole('region', { name: 'Visitors per day' })).getByText('Peak 1')).toBeTruthy()
    const topPages = screen.getByRole('region', { name: 'Top pages' })
    expect(within(topPages).getAllByRole('cell').map((c) => c.textContent)).toEqual(['/app', 'Dashboard', '2', '1'])
    const topEvents = screen.getByRole('region', { name: 'Top events' })
    expect(within(topEvents).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Report Created', '1', '1'])
  })

  it('Company details: every trait and how fl0 knows the company', async () => {
    renderRoutes(routes, `${BASE}/details`, { server: companyServer() })
    const firmographics = await screen.findByRole('region', { name: 'Firmographics' })
    const pairs = within(firmographics)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling!.textContent])
    expect(pairs).toEqual([
      ['Name', 'Acme Inc'],
      ['Domain', 'acme.com'],
      ['Website', 'https://www.acme.com'],
      ['Industry', 'Software'],
      ['Employees', '1,200'],
      ['Revenue', '$5M'],
      ['Country', 'Germany'],
      ['Created', 'Jun 1, 2025'],
      ['Address city', 'Berlin'],
    ])
    const identification = within(screen.getByRole('region', { name: 'Identification' }))
    expect(identification.getAllByRole('definition').map((dd) => dd.textContent)).toEqual([
      'Segment group call naming the domain; Business e-mail addresses at the domain',
      'g-acme',
      '5 people',
      'Jan 10, 2026, 1:00 PM',
      'Mar 1, 2026, 12:20 PM',
    ])
  })

  it('an unknown tab path says so', async () => {
    renderRoutes(routes, `${BASE}/nope`, { server: companyServer() })
    expect((await screen.findByRole('alert')).textContent).toBe('Not found')
  })
})

describe('formats', () => {
  it('revenue in K, M and B dollars', () => {
    const revenue = (value: number) => formatTraitValue({ key: 'revenue', icon: 'number', label: 'Revenue', value })
    expect([950, 42_000, 5_000_000, 1_300_000_000].map(revenue)).toEqual(['$950', '$42K', '$5M', '$1.3B'])
  })

  it('durations and initials', () => {
    expect([0, 45, 90, 600, 720, 3900, 7200].map(formatDuration)).toEqual(['0s', '45s', '1m 30s', '10m', '12m', '1h 5m', '2h'])
    expect(['Acme Inc', 'ada lovelace', 'acme.com', '  '].map(initials)).toEqual(['AI', 'AL', 'A', '?'])
  })
})
