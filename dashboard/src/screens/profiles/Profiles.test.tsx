import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../routes.tsx'
import type { CompanyFeatureAdoption, CompanyProfile, ProfileEvents, ProfileTraitSetting, UserProfile } from '../../api/types.ts'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

// The screens are lazy chunks: their first load in a test run can take longer than the default second.
configure({ asyncUtilTimeout: 5000 })

const NOW = new Date('2026-03-02T09:00:00.000Z')
const days = (values: Record<string, number>) =>
  Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 1, 1 + i)).toISOString().slice(0, 10)
    return { date, value: values[date] ?? 0 }
  })

const ADA: UserProfile = {
  id: 'u-ada',
  anonymous: false,
  name: 'Ada Lovelace',
  email: 'ada@acme.com',
  company: 'Acme Inc',
  companyDomain: 'acme.com',
  firstSeen: '2026-02-20T08:00:00.000Z',
  lastSeen: '2026-03-02T08:30:00.000Z',
  location: 'Cupertino, United States',
  traits: [
    { key: 'email', value: 'ada@acme.com' },
    { key: 'plan', value: 'pro' },
    { key: 'seats', value: 12 },
  ],
  graph: days({ '2026-02-20': 3, '2026-03-01': 4 }),
  mostUsedFeatures: [
    { featureId: 'f1', featureName: 'Reporting', usage: 4 },
    { featureId: 'f3', featureName: 'Onboarding', usage: 1 },
  ],
  leastUsedFeatures: [
    { featureId: 'f4', featureName: 'Billing', usage: 0 },
    { featureId: 'f3', featureName: 'Onboarding', usage: 1 },
    { featureId: 'f1', featureName: 'Reporting', usage: 4 },
  ],
  mostTriggeredEvents: [
    { name: 'Report Created', total: 3 },
    { name: 'Signed Up', total: 1 },
  ],
  timezone: 'UTC',
}

const EVENTS: ProfileEvents = {
  events: [
    { timestamp: '2026-03-02T08:30:00.000Z', event: 'Report Created', type: 'track', messageId: 'm2', metricIds: ['k1', 'k2'] },
    { timestamp: '2026-03-01T10:00:00.000Z', event: 'Dashboard', type: 'page', messageId: 'm1', metricIds: [] },
  ],
  metrics: [
    { metricId: 'k1', name: 'Engagement' },
    { metricId: 'k2', name: 'Reports made' },
  ],
  totalEvents: 23,
  page: 1,
}

const ACME: CompanyProfile = {
  domain: 'acme.com',
  name: 'Acme Inc',
  logoUrl: null,
  firstSeen: '2026-01-10T12:00:00.000Z',
  lastSeen: '2026-03-02T08:30:00.000Z',
  email: 'carol@acme.com',
  metadata: [
    { key: 'industry', value: 'Software' },
    { key: 'employees', value: 120 },
    { key: 'revenue', value: 5_000_000 },
    { key: 'address.city', value: 'Berlin' },
  ],
  dailyActiveUsers: 2,
  weeklyActiveUsers: 3,
  monthlyActiveUsers: 4,
  monthlyActiveUsersGraph: days({ '2026-03-02': 4 }),
  topUsers: [
    { id: 'u-ada', email: 'ada@acme.com', name: 'Ada Lovelace', total: 8 },
    { id: 'u-bob', email: null, name: 'Bob Stone', total: 4 },
  ],
  topEvents: [{ name: 'Report Created', total: 4 }],
  timezone: 'UTC',
}

const ADOPTION: CompanyFeatureAdoption = {
  topFeatures: [{ featureId: 'f1', featureName: 'Reporting', usage: 5, users: 2, adoption: 50 }],
  lowestFeatures: [
    { featureId: 'f4', featureName: 'Billing', usage: 0, users: 0, adoption: 0 },
    { featureId: 'f2', featureName: 'Dashboards', usage: 1, users: 1, adoption: 33.3 },
  ],
  activeUsers: 4,
  windowDays: 30,
}

const COMPANY_TRAITS: ProfileTraitSetting[] = ['industry', 'employees', 'revenue', 'country', 'plan', 'website', 'createdAt'].map((name) => ({ name, hidden: false }))
const USER_TRAITS: ProfileTraitSetting[] = ['email', 'role', 'company', 'plan', 'createdAt'].map((name) => ({ name, hidden: false }))

function profileServer() {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api/orgs/acme/people/u-ada', { body: ADA })
  server.on('GET', '/api/orgs/acme/people/u-nobody', { status: 404, body: { success: false, message: 'User u-nobody not found', errors: [] } })
  server.on('GET', '/api-v2/orgs/acme/users/u-ada/profile/events', (call) => ({ body: { ...EVENTS, page: Number(call.query.get('page')) } }))
  server.on('GET', /^\/api-v2\/orgs\/acme\/users\/u-ada\/profile\/events\/m\d$/, (call) => ({ body: { message_id: call.path.split('/').at(-1), properties: { plan: 'pro' } } }))
  server.on('GET', '/api/orgs/acme/company/acme.com', { body: ACME })
  server.on('GET', '/api/orgs/acme/company/acme.com/feature-adoption', { body: ADOPTION })
  server.on('GET', '/api/orgs/acme/profile_traits/company', { body: COMPANY_TRAITS })
  server.on('GET', '/api/orgs/acme/profile_traits/user', { body: USER_TRAITS })
  return server
}

/** A top list's rows as text, cell by cell. */
function listRows(name: string): string[][] {
  const list = screen.getByRole('region', { name })
  return within(list)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell').map((c) => c.textContent ?? ''))
}

const pad = (rows: string[][], width: number) => [...rows, ...Array.from({ length: 10 - rows.length }, () => Array<string>(width).fill('-'))]

function traitRows() {
  const card = screen.getByRole('region', { name: 'Traits' })
  return within(card)
    .queryAllByRole('term')
    .map((dt) => [dt.textContent, dt.nextElementSibling!.textContent])
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => vi.useRealTimers())


/** Both feature lists say why they are empty and link to creating a feature, with no rows of dashes. */
async function expectNoFeaturesNotes() {
  for (const name of ['Most used features', 'Least used features']) {
    const list = within(await screen.findByRole('region', { name }))
    expect(await list.findByText(/No features yet: features group events into what your product offers\./)).toBeTruthy()
    expect(list.getByRole('link', { name: 'Create a feature' }).getAttribute('href')).toBe('/organizations/acme/features?modal=feature-modal')
    expect(list.queryAllByRole('row')).toEqual([])
  }
}
describe('the user profile', () => {
  it('Overview: the person, the way back, the graph, the top lists padded to 10 rows, the chosen traits', async () => {
    const server = profileServer()
    renderRoutes(routes, '/organizations/acme/people/users/u-ada', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy()
    expect(screen.getByRole('link', { name: '← Back to people' }).getAttribute('href')).toBe('/organizations/acme/people')
    expect(screen.getByRole('link', { name: 'Acme Inc' }).getAttribute('href')).toBe('/organizations/acme/people/companies/acme.com')
    expect(screen.getByText('Feb 20, 2026')).toBeTruthy()
    expect(screen.getByText('less than an hour ago')).toBeTruthy()
    expect(screen.getByText('Location').nextElementSibling!.textContent).toBe('Cupertino, United States')
    expect(screen.getByRole('link', { name: 'IP Geolocation by DB-IP' }).getAttribute('href')).toBe('https://db-ip.com/')
    expect(screen.getByRole('img', { name: 'Events per day' }).dataset.points).toBe('30')
    expect(within(screen.getByRole('navigation', { name: 'User profile' })).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('aria-current')])).toEqual([
      ['Overview', 'page'],
      ['Events', null],
    ])
    expect(listRows('Most used features')).toEqual(pad([['Reporting', '4'], ['Onboarding', '1']], 2))
    expect(listRows('Least used features')).toEqual(pad([['Billing', '0'], ['Onboarding', '1'], ['Reporting', '4']], 2))
    expect(listRows('Most triggered events')).toEqual(pad([['Report Created', '3'], ['Signed Up', '1']], 2))
    // Email and plan are chosen (defaults); seats is not.
    await waitFor(() => expect(traitRows()).toEqual([['Email', 'ada@acme.com'], ['Plan', 'pro']]))
  })

  it('says why the feature lists are empty when the organisation has no feature, and links to creating one', async () => {
    const server = profileServer()
    server.on('GET', '/api/orgs/acme/people/u-new', { body: { ...ADA, id: 'u-new', name: 'New Person', mostUsedFeatures: [], leastUsedFeatures: [] } })
    server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [] } })
    renderRoutes(routes, '/organizations/acme/people/users/u-new', { server })
    await expectNoFeaturesNotes()
    // The events list is no feature list: still padded.
    expect(listRows('Most triggered events')).toEqual(pad([['Report Created', '3'], ['Signed Up', '1']], 2))
  })

  it('keeps the padded feature lists for a person who used none of the features the organisation has', async () => {
    const server = profileServer()
    server.on('GET', '/api/orgs/acme/people/u-new', { body: { ...ADA, id: 'u-new', name: 'New Person', mostUsedFeatures: [], leastUsedFeatures: [] } })
    server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [{ id: 'f1', name: 'Reporting' }] } })
    renderRoutes(routes, '/organizations/acme/people/users/u-new', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'New Person' })).toBeTruthy()
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api-v2/orgs/acme/features')).toBe(true))
    expect(listRows('Most used features')).toEqual(pad([], 2))
    expect(screen.queryByText(/No features yet/)).toBeNull()
  })

  it('Events: Time, Event and Metrics, paged by the server; hovering shows the payload, a click keeps it', async () => {
    const server = profileServer()
    renderRoutes(routes, '/organizations/acme/people/users/u-ada/events', { server })
    const table = await screen.findByRole('region', { name: 'Events' })
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Event', 'Metrics'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['Mar 2, 2026, 8:30 AM', 'trackReport Created', 'EngagementReports made'],
      ['Mar 1, 2026, 10:00 AM', 'pageDashboard', '—'],
    ])
    expect(screen.getByText('1–20 of 23')).toBeTruthy()

    const payload = within(screen.getByRole('complementary', { name: 'Event payload' }))
    fireEvent.mouseEnter(rows[1]!)
    expect(JSON.parse((await payload.findByTestId('payload')).textContent!)).toEqual({ message_id: 'm1', properties: { plan: 'pro' } })
    expect((await payload.findByTestId('payload')).textContent).toContain('\n  "message_id": "m1"')
    fireEvent.click(rows[0]!)
    await waitFor(() => expect(JSON.parse(payload.getByTestId('payload').textContent!).message_id).toBe('m2'))
    // Pinned: hovering another row leaves it.
    fireEvent.mouseEnter(rows[1]!)
    expect(JSON.parse(payload.getByTestId('payload').textContent!).message_id).toBe('m2')
    expect(payload.getByRole('heading').textContent).toBe('Payload (pinned)')

    fireEvent.click(screen.getByLabelText('Next page'))
    await waitFor(() => expect(server.callsTo('GET', '/api-v2/orgs/acme/users/u-ada/profile/events').at(-1)!.query.get('page')).toBe('2'))
    expect(await screen.findByText('21–23 of 23')).toBeTruthy()
  })

  it("shows the server's message for an unknown user, with the way back", async () => {
    renderRoutes(routes, '/organizations/acme/people-ai/users/u-nobody', { server: profileServer() })
    expect((await screen.findByRole('alert')).textContent).toBe('User u-nobody not found')
    expect(screen.getByRole('link', { name: '← Back to people' }).getAttribute('href')).toBe('/organizations/acme/people-ai')
  })
})

describe('the company profile', () => {
  it('shows the name, joined date, e-mail chip and last seen, the active users and their graph', async () => {
    renderRoutes(routes, '/organizations/acme/people/companies/acme.com', { server: profileServer() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Inc' })).toBeTruthy()
    expect(screen.getByText('Jan 10, 2026')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Email carol@acme.com' }).getAttribute('href')).toBe('mailto:carol@acme.com')
    expect(screen.getByText('less than an hour ago')).toBeTruthy()
    expect(['DAU', 'WAU', 'MAU'].map((k) => screen.getByTestId(k).textContent)).toEqual(['2', '3', '4'])
    expect(screen.getByRole('img', { name: 'Monthly active users' }).dataset.points).toBe('30')
    expect(screen.getByRole('link', { name: 'Company page (acme.com) →' }).getAttribute('href')).toBe('/organizations/acme/companies/acme.com')
  })

  it('opens by the company id as by its domain, the server finding the domain; an unknown id says so', async () => {
    const server = profileServer()
    server.on('GET', '/api-v2/orgs/acme/companies/by-id/cmp_1a2b', { body: { id: 'cmp_1a2b', domain: 'acme.com', name: 'Acme Inc' } })
    server.on('GET', '/api-v2/orgs/acme/companies/by-id/cmp_gone', { status: 404, body: { success: false, message: 'Company cmp_gone not found', errors: [] } })
    const { router } = renderRoutes(routes, '/organizations/acme/people/companies/cmp_1a2b', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Inc' })).toBeTruthy()
    expect(server.callsTo('GET', '/api/orgs/acme/company/acme.com')).toHaveLength(1)
    await router.navigate('/organizations/acme/people/companies/cmp_gone')
    expect(await screen.findByText('Company cmp_gone not found')).toBeTruthy()
  })

  it("lists who used it most, the most triggered events and the features, each padded to 10 rows with '-'", async () => {
    renderRoutes(routes, '/organizations/acme/people/companies/acme.com', { server: profileServer() })
    await screen.findByRole('heading', { level: 1, name: 'Acme Inc' })
    expect(listRows('Who used it most')).toEqual(pad([['ada@acme.com', 'Ada Lovelace', '8'], ['—', 'Bob Stone', '4']], 3))
    expect(within(screen.getByRole('region', { name: 'Who used it most' })).getByRole('link', { name: 'Bob Stone' }).getAttribute('href')).toBe('/organizations/acme/people/users/u-bob')
    expect(listRows('Most triggered events')).toEqual(pad([['Report Created', '4']], 2))
    await screen.findByRole('region', { name: 'Most used features' })
    const headers = within(screen.getByRole('region', { name: 'Most used features' })).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toEqual(['Feature', 'Usage', 'Users', 'Adoption'])
    expect(listRows('Most used features')).toEqual(pad([['Reporting', '5', '2', '50%']], 4))
    expect(listRows('Least used features')).toEqual(pad([['Billing', '0', '0', '0%'], ['Dashboards', '1', '1', '33.3%']], 4))
  })

  it('says why the feature lists are empty when the organisation has no feature, rather than two tables of dashes', async () => {
    const server = profileServer()
    server.on('GET', '/api/orgs/acme/company/acme.com/feature-adoption', { body: { windowDays: 30, topFeatures: [], lowestFeatures: [] } })
    server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [] } })
    renderRoutes(routes, '/organizations/acme/people/companies/acme.com', { server })
    await expectNoFeaturesNotes()
    // The other lists are no feature lists: still padded.
    expect(listRows('Most triggered events')).toEqual(pad([['Report Created', '4']], 2))
  })

  it("shows the organisation's chosen traits, and the add button saves a choice for everyone", async () => {
    const server = profileServer()
    let chosen = COMPANY_TRAITS
    server.on('POST', '/api/orgs/acme/profile_traits/company', (call) => {
      const choice = call.body as ProfileTraitSetting
      chosen = [...chosen.filter((s) => s.name !== choice.name), choice]
      return { body: chosen }
    })
    renderRoutes(routes, '/organizations/acme/people/companies/acme.com', { server })
    await screen.findByRole('heading', { level: 1, name: 'Acme Inc' })
    await waitFor(() => expect(traitRows()).toEqual([['Industry', 'Software'], ['Employees', '120'], ['Revenue', '$5M']]))

    fireEvent.click(screen.getByRole('button', { name: 'Add trait' }))
    const menu = within(screen.getByRole('menu', { name: 'Add trait' }))
    expect(menu.getAllByRole('menuitemcheckbox').map((m) => [m.textContent, m.getAttribute('aria-checked')])).toEqual([
      ['Industry', 'true'],
      ['Employees', 'true'],
      ['Revenue', 'true'],
      ['Address city', 'false'],
    ])
    fireEvent.click(menu.getByRole('menuitemcheckbox', { name: 'Address city' }))
    await waitFor(() => expect(server.callsTo('POST', '/api/orgs/acme/profile_traits/company').map((c) => c.body)).toEqual([{ name: 'address.city', hidden: false }]))
    await waitFor(() => expect(traitRows().at(-1)).toEqual(['Address city', 'Berlin']))
    fireEvent.click(menu.getByRole('menuitemcheckbox', { name: 'Industry' }))
    await waitFor(() => expect(traitRows().map((r) => r[0])).toEqual(['Employees', 'Revenue', 'Address city']))
    expect(server.callsTo('POST', '/api/orgs/acme/profile_traits/company').at(-1)!.body).toEqual({ name: 'industry', hidden: true })
  })
})
