import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import type { AudienceFilters, AudienceResults, AudienceSummary } from '../../api/types.ts'
import { fakeServer, type Call } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

// The screens are lazy chunks: their first load in a test run can take longer than the default second.
configure({ asyncUtilTimeout: 5000 })

const ORG = '/api/orgs/acme'
const TRAITS = { user_traits: { plan: 'string', seats: 'number', beta: 'boolean', signup: 'date', tags: 'stringArray' }, company_traits: { tier: 'string' } }
const RESULTS: AudienceResults = {
  totalUsers: 21,
  totalCompanies: 1,
  users: [{ userId: 'u1', name: 'Ada', email: 'ada@acme.test', company: 'Acme', companyId: 'g1', lastSeen: null, 'user.plan': 'pro' }],
  companies: [{ companyId: 'g1', name: 'Acme', domain: 'acme.test', users: 1 }],
  userColumns: [
    { key: 'name', displayName: 'Name' },
    { key: 'email', displayName: 'Email' },
    { key: 'company', displayName: 'Company' },
    { key: 'lastSeen', displayName: 'Last seen' },
    { key: 'user.plan', displayName: 'plan' },
  ],
  companyColumns: [
    { key: 'name', displayName: 'Name' },
    { key: 'domain', displayName: 'Domain' },
    { key: 'users', displayName: 'Users' },
  ],
}
const summary = (id: string, name: string, description = ''): AudienceSummary => ({ id, name, description, userCount: 3, companyCount: 1 })

/** The audience calls as the screens use them; the real api answers in the browser tests and the api's own tests. */
function audiencesServer(options: { audiences?: AudienceSummary[]; results?: (call: Call) => AudienceResults; saved?: Record<string, AudienceFilters> } = {}) {
  const server = fakeServer()
  let audiences = [...(options.audiences ?? [])]
  const saved: Record<string, { name: string; description: string; filters: AudienceFilters }> = {}
  for (const a of audiences) saved[a.id] = { name: a.name, description: a.description, filters: options.saved?.[a.id] ?? { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] } }
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api-v2/orgs/acme/people', { body: { totalUsers: 0, users: [] } })
  server.on('GET', '/api-v2/orgs/acme/events', { body: { events: [{ name: 'Report Created', volume: 9 }, { name: 'Signed Up', volume: 2 }] } })
  server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [{ id: 'f1', name: 'Reporting' }] } })
  server.on('POST', `${ORG}/audiences/filters`, (call) => ({ body: options.results?.(call) ?? RESULTS }))
  server.on('GET', `${ORG}/audiences`, () => ({ body: { audiences } }))
  server.on('POST', `${ORG}/audiences`, (call) => {
    const { name, description } = call.body as { name: string; description: string }
    const id = `a${audiences.length + 1}`
    audiences = [...audiences, summary(id, name, description)]
    saved[id] = { name, description, filters: { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] } }
    return { status: 201, body: { audience_id: id } }
  })
  server.on('GET', /^\/api\/orgs\/acme\/audiences\/[^/]+$/, (call) => {
    const id = call.path.split('/').pop()!
    return saved[id] ? { body: { audience: { id, ...saved[id] } } } : { status: 404, body: { success: false, message: 'Audience not found', errors: [] } }
  })
  server.on('PATCH', /^\/api\/orgs\/acme\/audiences\/[^/]+$/, (call) => {
    const id = call.path.split('/').pop()!
    saved[id] = { ...saved[id]!, ...(call.body as object) }
    audiences = audiences.map((a) => (a.id === id ? { ...a, name: saved[id]!.name, description: saved[id]!.description } : a))
    return { body: { audience: { id, ...saved[id] } } }
  })
  server.on('DELETE', /^\/api\/orgs\/acme\/audiences\/[^/]+$/, (call) => {
    const id = call.path.split('/').pop()!
    audiences = audiences.filter((a) => a.id !== id)
    return { status: 204 }
  })
  // Registered last, so they answer before the audience routes above (the last registered route that matches answers).
  server.on('GET', `${ORG}/audiences/traits`, { body: TRAITS })
  server.on('GET', /^\/api\/orgs\/acme\/audiences\/traits\/user\/[^/]+\/values$/, { body: { values: ['pro', 'free'] } })
  return server
}

const lastPreview = (server: ReturnType<typeof fakeServer>) => server.callsTo('POST', `${ORG}/audiences/filters`).at(-1)?.body as { filters: AudienceFilters; page: number } | undefined
const select = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const options = (label: string) => within(screen.getByLabelText(label)).getAllByRole('option').map((o) => o.textContent)

async function openBuilder(server = audiencesServer()) {
  const rendered = renderRoutes(routes, '/organizations/acme/people', { server })
  // The first load of the lazy chunks can be slow on a busy machine.
  await screen.findByRole('heading', { name: 'Audience builder' }, { timeout: 20_000 })
  return rendered
}

async function addUserFilter(trait: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Add filter' }))
  const n = within(screen.getByRole('list', { name: 'Trait filters' })).getAllByRole('listitem').length
  const input = screen.getByRole('combobox', { name: `Filter ${n} trait` })
  fireEvent.focus(input)
  fireEvent.mouseDown(await screen.findByRole('option', { name: trait }))
  return `Filter ${n}`
}

/** A finished filter, plan is pro: the preview shows. */
async function filterPlanPro() {
  const f = await addUserFilter('plan')
  fireEvent.change(screen.getByRole('combobox', { name: `${f} value` }), { target: { value: 'pro' } })
  await screen.findByRole('region', { name: 'Preview' })
}

describe('the audience builder (people/)', () => {
  it('comes first, above the People table, and previews nothing until a filter is set: no one is listed twice', async () => {
    const { server } = await openBuilder()
    const builder = screen.getByRole('region', { name: 'Audience builder' })
    const people = await screen.findByRole('region', { name: 'People' })
    // The builder, then the table: document order is the page's order.
    expect(builder.compareDocumentPosition(people) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(within(builder).getByRole('button', { name: 'Create audience...' })).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull()
    // An unfinished filter takes in everyone still: the table stays, nothing is asked.
    await addUserFilter('plan')
    await new Promise((r) => setTimeout(r, 400))
    expect(lastPreview(server)).toBeUndefined()
    expect(screen.getByRole('region', { name: 'People' })).toBeTruthy()
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter 1 value' }), { target: { value: 'pro' } })
    // A finished one: the preview in the table's place.
    await screen.findByRole('region', { name: 'Preview' })
    expect(screen.queryByRole('region', { name: 'People' })).toBeNull()
    await waitFor(() => expect(lastPreview(server)?.filters.matches).toEqual([{ kind: 'user', trait: 'plan', string_op: 'is', value: 'pro' }]))
    // 'Clear filters' brings the table back.
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }))
    await screen.findByRole('region', { name: 'People' })
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull()
    expect(screen.queryByRole('list', { name: 'Trait filters' })).toBeNull()
  })

  it('keeps its filters when one opens a member and comes back', async () => {
    const { router } = await openBuilder()
    await filterPlanPro()
    fireEvent.click(await within(await screen.findByRole('tabpanel', { name: 'Users' })).findByRole('link', { name: 'u1' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people/users/u1'))
    await router.navigate(-1)
    await screen.findByRole('region', { name: 'Preview' })
    expect((screen.getByRole('combobox', { name: 'Filter 1 value' }) as HTMLInputElement).value).toBe('pro')
  })

  it('previews a filter with the Users and Companies tabs, 20 a page', async () => {
    const { server } = await openBuilder()
    await filterPlanPro()
    const users = await screen.findByRole('tabpanel', { name: 'Users' })
    await within(users).findByRole('table')
    expect(within(users).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Name', 'Email', 'Company', 'Last seen', 'plan'])
    expect(within(users).getByRole('link', { name: 'u1' }).getAttribute('href')).toBe('/organizations/acme/people/users/u1')
    // The member's company by name, opening its profile by id.
    expect(within(users).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/organizations/acme/people/companies/g1')
    expect(within(users).getByText('1–20 of 21')).toBeTruthy()
    fireEvent.click(within(users).getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(lastPreview(server)?.page).toBe(2))
    fireEvent.click(screen.getByRole('tab', { name: /Companies/ }))
    const companies = screen.getByRole('tabpanel', { name: 'Companies' })
    // Each company named, opening its profile (by its domain).
    expect(within(companies).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Company', 'Domain', 'Users'])
    expect(within(companies).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/organizations/acme/people/companies/acme.test')
    expect(within(companies).getByText('acme.test')).toBeTruthy()
    expect(within(companies).queryByText('g1')).toBeNull()
  })

  it("says 'No users found' and 'No companies found'", async () => {
    await openBuilder(audiencesServer({ results: () => ({ ...RESULTS, totalUsers: 0, totalCompanies: 0, users: [], companies: [] }) }))
    await filterPlanPro()
    expect(await screen.findByText('No users found')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: /Companies/ }))
    expect(screen.getByText('No companies found')).toBeTruthy()
  })

  it('offers the operators of the trait type, clears the values when an operator needs another kind of value, and leaves unfinished filters out', async () => {
    const { server } = await openBuilder()
    const f = await addUserFilter('seats')
    expect(options(`${f} operator`)).toEqual(['equals', 'not equal', 'greater than', 'greater than or equal to', 'less than', 'less than or equal to', 'between', 'not between', 'is numeric', 'is not numeric'])
    // No value yet: unfinished, left out, so there is nothing to preview yet.
    await new Promise((r) => setTimeout(r, 400))
    expect(lastPreview(server)).toBeUndefined()
    type(`${f} value`, '5')
    await waitFor(() => expect(lastPreview(server)?.filters.matches).toEqual([{ kind: 'user', trait: 'seats', number_op: 'equals', value: 5 }]))
    select(`${f} operator`, 'greater_than')
    expect((screen.getByLabelText(`${f} value`) as HTMLInputElement).value).toBe('5')
    select(`${f} operator`, 'between')
    expect((screen.getByLabelText(`${f} first value`) as HTMLInputElement).value).toBe('')
    select(`${f} operator`, 'is_numeric')
    await waitFor(() => expect(lastPreview(server)?.filters.matches).toEqual([{ kind: 'user', trait: 'seats', number_op: 'is_numeric' }]))

    const g = await addUserFilter('signup')
    expect(options(`${g} operator`)).toEqual(['on', 'not on', 'before', 'since', 'between', 'not between', 'last', 'not in the last', 'before the last', 'in the next'])
    select(`${g} operator`, 'last')
    type(`${g} value`, '-3')
    expect((screen.getByLabelText(`${g} value`) as HTMLInputElement).value).toBe('0')
    type(`${g} value`, '3')
    select(`${g} unit`, 'week')
    expect(options(`${g} unit`)).toEqual(['hours', 'days', 'weeks', 'months'])
    await waitFor(() => expect(lastPreview(server)?.filters.matches.at(-1)).toEqual({ kind: 'user', trait: 'signup', date_op: 'last', value: 3, unit: 'week' }))

    const h = await addUserFilter('beta')
    expect(options(`${h} operator`)).toEqual(['is', 'is not'])
    select(`${h} value`, 'false')
    const i = await addUserFilter('tags')
    expect(options(`${i} operator`)).toEqual(['contains', 'does not contain'])
    fireEvent.click(screen.getAllByRole('radio', { name: 'Any (or)' })[0]!)
    await waitFor(() => expect(lastPreview(server)?.filters.match_aggregation).toBe('or'))
    expect(lastPreview(server)?.filters.matches.at(-1)).toEqual({ kind: 'user', trait: 'beta', boolean_op: 'is', value: false })
  })

  it('stores a between only when the second value is greater than the first, or one is empty (part 3 §5)', async () => {
    const { server } = await openBuilder()
    const f = await addUserFilter('seats')
    select(`${f} operator`, 'between')
    type(`${f} first value`, '10')
    type(`${f} second value`, '3')
    expect(screen.getByRole('alert').textContent).toBe('The second value must be greater than the first')
    type(`${f} second value`, '30')
    expect(screen.queryByRole('alert')).toBeNull()
    await waitFor(() => expect(lastPreview(server)?.filters.matches).toEqual([{ kind: 'user', trait: 'seats', number_op: 'between', value1: 10, value2: 30 }]))
    type(`${f} first value`, '40')
    expect(screen.getByRole('alert')).toBeTruthy()
    // The stored range is the last good one.
    await new Promise((r) => setTimeout(r, 400))
    expect(lastPreview(server)?.filters.matches).toEqual([{ kind: 'user', trait: 'seats', number_op: 'between', value1: 10, value2: 30 }])
  })

  it('picks trait values from the look-up, at most 100, then says how many there were', async () => {
    const server = audiencesServer()
    server.on('GET', /^\/api\/orgs\/acme\/audiences\/traits\/user\/plan\/values$/, { body: { values: Array.from({ length: 150 }, (_, i) => `plan-${i}`) } })
    await openBuilder(server)
    const f = await addUserFilter('plan')
    fireEvent.focus(screen.getByRole('combobox', { name: `${f} value` }))
    expect(await screen.findByText('100 of 150 results shown')).toBeTruthy()
    expect(within(screen.getByRole('listbox', { name: `${f} value` })).getAllByRole('option')).toHaveLength(100)
  })

  it('adds the default action, at least 1 in the last 7 days, on an event or a feature', async () => {
    const { server } = await openBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }))
    expect((screen.getByLabelText('Action 1 operator') as HTMLSelectElement).value).toBe('greater_than_or_equal_to')
    expect((screen.getByLabelText('Action 1 count') as HTMLInputElement).value).toBe('1')
    expect((screen.getByLabelText('Action 1 date range') as HTMLInputElement).value).toBe('7')
    expect((screen.getByLabelText('Action 1 unit') as HTMLSelectElement).value).toBe('day')
    fireEvent.focus(screen.getByRole('combobox', { name: 'Action 1 event' }))
    fireEvent.mouseDown(await screen.findByRole('option', { name: 'Report Created' }))
    await waitFor(() =>
      expect(lastPreview(server)?.filters.actions).toEqual([
        { kind: 'event', event_name: 'Report Created', measurement: 'total', occurrence_op: 'greater_than_or_equal_to', value: 1, date_range: { kind: 'last', value: 7, unit: 'day' } },
      ]),
    )
    select('Action 1 kind', 'feature')
    fireEvent.click(screen.getByRole('button', { name: 'Action 1 feature' }))
    fireEvent.mouseDown(await screen.findByRole('option', { name: 'Reporting' }))
    select('Action 1 operator', 'between')
    type('Action 1 count first value', '2')
    type('Action 1 count second value', '5')
    await waitFor(() =>
      expect(lastPreview(server)?.filters.actions).toEqual([
        { kind: 'feature', feature_id: 'f1', measurement: 'total', occurrence_op: 'between', value1: 2, value2: 5, date_range: { kind: 'last', value: 7, unit: 'day' } },
      ]),
    )
  })

  it("'Create audience...': the name and description rules and caps; on creation the audience is made, its filters saved, and its page opens", async () => {
    const { server, router } = await openBuilder()
    const f = await addUserFilter('plan')
    fireEvent.change(screen.getByRole('combobox', { name: `${f} value` }), { target: { value: 'pro' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create audience...' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create audience' }))
    expect(dialog.getByLabelText('Name').getAttribute('maxlength')).toBe('49')
    expect(dialog.getByLabelText('Description').getAttribute('maxlength')).toBe('399')
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: '   ' } })
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'd'.repeat(300) } })
    fireEvent.click(dialog.getByRole('button', { name: 'Create audience' }))
    expect(await dialog.findByText('Name must be provided')).toBeTruthy()
    expect(dialog.getByText('Description must have less than 300 characters')).toBeTruthy()
    expect(server.callsTo('POST', `${ORG}/audiences`)).toHaveLength(0)
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Pro users' } })
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'Paying' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Create audience' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people/audiences/a1'))
    expect(server.callsTo('POST', `${ORG}/audiences`).map((c) => c.body)).toEqual([{ name: 'Pro users', description: 'Paying' }])
    expect(server.callsTo('PATCH', `${ORG}/audiences/a1`).map((c) => c.body)).toEqual([
      { filters: { match_aggregation: 'and', matches: [{ kind: 'user', trait: 'plan', string_op: 'is', value: 'pro' }], action_aggregation: 'and', actions: [] } },
    ])
    expect(await screen.findByText('The audience "Pro users" has been saved')).toBeTruthy()
    expect(screen.queryByRole('dialog', { name: 'Create audience' })).toBeNull()
    expect(await screen.findByRole('heading', { level: 1, name: 'Pro users' })).toBeTruthy()
    // The builder let go of the filters, now the audience's: People opens on everyone again.
    await router.navigate('/organizations/acme/people')
    await screen.findByRole('region', { name: 'People' })
    expect(screen.queryByRole('list', { name: 'Trait filters' })).toBeNull()
  })
})

describe('the audiences list (people/audiences)', () => {
  it("lists Audience (name and description), Members and Companies; searches by name; 'No audiences found'; a row opens the editor", async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users', 'Paying'), summary('a2', 'Trials')] })
    const { router } = renderRoutes(routes, '/organizations/acme/people/audiences', { server })
    const table = await screen.findByRole('table')
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Audience', 'Members', 'Companies'])
    expect(within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['Pro usersPaying', '3', '1'],
      ['Trials', '3', '1'],
    ])
    expect(screen.getByRole('link', { name: 'Audiences' }).getAttribute('aria-current')).toBe('page')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search audience name...' }), { target: { value: 'TRI' } })
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search audience name...' }), { target: { value: 'zzz' } })
    expect(screen.getByText('No audiences found')).toBeTruthy()
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search audience name...' }), { target: { value: '' } })
    fireEvent.click(screen.getByText('Trials'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people/audiences/a2'))
  })

  it("'New audience' opens the create modal; on creation the audience, with no filters yet, opens", async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users')] })
    const { router } = renderRoutes(routes, '/organizations/acme/people/audiences', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'New audience' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create audience' }))
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Trials' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Create audience' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people/audiences/a2'))
    expect(server.callsTo('POST', `${ORG}/audiences`).map((c) => c.body)).toEqual([{ name: 'Trials', description: '' }])
    expect(await screen.findByText('The audience "Trials" has been saved')).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 1, name: 'Trials' })).toBeTruthy()
  })

  it('stays in the people-ai mount', async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users')] })
    const { router } = renderRoutes(routes, '/organizations/acme/people-ai/audiences', { server })
    fireEvent.click(await screen.findByText('Pro users'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people-ai/audiences/a1'))
  })
})

describe('the audience editor (people/audiences/{audienceId})', () => {
  const filters: AudienceFilters = {
    match_aggregation: 'and',
    matches: [{ kind: 'user', trait: 'plan', string_op: 'is', value: 'pro' }, { kind: 'audience', audience_op: 'is', audience_id: 'gone' }],
    action_aggregation: 'and',
    actions: [],
  }

  it("shows People > Audiences > name, the saved filters (an unknown audience as 'Unknown'), and saves name, description and filters with 'Save audience'", async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users', 'Paying'), summary('a2', 'Trials')], saved: { a1: filters } })
    renderRoutes(routes, '/organizations/acme/people/audiences/a1', { server })
    const crumbs = within(await screen.findByRole('navigation', { name: 'Breadcrumbs' }))
    expect(crumbs.getAllByRole('listitem').map((li) => li.textContent).filter((t) => t !== '›')).toEqual(['People', 'Audiences', 'Pro users'])
    expect(crumbs.getByRole('link', { name: 'People' }).getAttribute('href')).toBe('/organizations/acme/people')
    expect(crumbs.getByRole('link', { name: 'Audiences' }).getAttribute('href')).toBe('/organizations/acme/people/audiences')
    // The breadcrumb names the audience from the list; the form fills from the audience's own call, which may come later on a busy machine.
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Pro users'))
    expect(screen.getByLabelText('Name').getAttribute('maxlength')).toBe('49')
    expect(screen.getByLabelText('Description').getAttribute('maxlength')).toBe('399')
    expect((await screen.findByRole('button', { name: 'Filter 2 audience' })).textContent).toBe('Unknown')
    // The audience itself is not offered as a filter of itself.
    fireEvent.click(screen.getByRole('button', { name: 'Filter 2 audience' }))
    await waitFor(() => expect(within(screen.getByRole('listbox', { name: 'Filter 2 audience' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Trials']))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Paying users ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save audience' }))
    expect(await screen.findByText('Audience Paying users saved successfully')).toBeTruthy()
    expect(server.callsTo('PATCH', `${ORG}/audiences/a1`).map((c) => c.body)).toEqual([
      { name: 'Paying users', description: 'Paying', filters: { ...filters, matches: [filters.matches[0]!, filters.matches[1]!] } },
    ])
  })

  it('offers every member as CSV, users and companies, from the server', async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users')] })
    renderRoutes(routes, '/organizations/acme/people/audiences/a1', { server })
    const users = await screen.findByRole('link', { name: 'Download users CSV' })
    expect(users.getAttribute('href')).toBe('/api/orgs/acme/audiences/a1/members.csv?of=users')
    expect(users.hasAttribute('download')).toBe(true)
    expect(screen.getByRole('link', { name: 'Download companies CSV' }).getAttribute('href')).toBe('/api/orgs/acme/audiences/a1/members.csv?of=companies')
  })

  it("refuses a blank name beside the field, and a loop the server refuses is said", async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users')] })
    renderRoutes(routes, '/organizations/acme/people/audiences/a1', { server })
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: ' ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save audience' }))
    expect(await screen.findByText('Name must be provided')).toBeTruthy()
    server.on('PATCH', `${ORG}/audiences/a1`, {
      status: 400,
      body: { success: false, message: 'An audience cannot include itself, directly or through other audiences', errors: [{ name: 'filters', message: 'An audience cannot include itself, directly or through other audiences' }] },
    })
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Loop' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save audience' }))
    expect(await screen.findByText('An audience cannot include itself, directly or through other audiences')).toBeTruthy()
  })

  it("'Delete...' asks 'Are you sure you want to delete the audience \"{name}\"?', deletes, says so and goes back to the list", async () => {
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users')] })
    const { router } = renderRoutes(routes, '/organizations/acme/people/audiences/a1', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete...' }))
    const dialog = within(await screen.findByRole('dialog'))
    expect(dialog.getByText('Are you sure you want to delete the audience "Pro users"?')).toBeTruthy()
    fireEvent.click(dialog.getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/people/audiences'))
    expect(server.callsTo('DELETE', `${ORG}/audiences/a1`)).toHaveLength(1)
    expect(await screen.findByText('Deleted audience Pro users successfully')).toBeTruthy()
    expect(await screen.findByText('No audiences found')).toBeTruthy()
  })

  it("shows the audience picker's first 100, then '100 of N results shown'", async () => {
    const many = Array.from({ length: 130 }, (_, i) => summary(`x${i}`, `Audience ${String(i).padStart(3, '0')}`))
    const server = audiencesServer({ audiences: [summary('a1', 'Pro users'), ...many] })
    renderRoutes(routes, '/organizations/acme/people/audiences/a1', { server })
    fireEvent.click(await screen.findByRole('button', { name: 'Add filter' }))
    select('Filter 1 kind', 'audience')
    fireEvent.click(screen.getByRole('button', { name: 'Filter 1 audience' }))
    expect(await screen.findByText('100 of 130 results shown')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Search Filter 1 audience'), { target: { value: '12' } })
    expect(within(screen.getByRole('listbox', { name: 'Filter 1 audience' })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Audience 012',
      'Audience 112',
      'Audience 120',
      'Audience 121',
      'Audience 122',
      'Audience 123',
      'Audience 124',
      'Audience 125',
      'Audience 126',
      'Audience 127',
      'Audience 128',
      'Audience 129',
    ])
  })
})
