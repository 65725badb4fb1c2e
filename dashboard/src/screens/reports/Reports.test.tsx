import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { METRIC_DEFAULTS } from '@fl0/contracts/metrics'
import { routes } from '../../routes.tsx'
import type { MetricGraph, Report, StoredMetric } from '../../api/types.ts'
import { fakeServer, type Call } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const METRICS: StoredMetric[] = [
  { id: 'm-signups', name: 'Sign-ups', description: 'New accounts', category: 'growth', definition: { ...METRIC_DEFAULTS, events: [{ name: 'Signed Up' }] } },
  { id: 'm-active', name: 'Active users', description: '', category: 'growth', definition: { ...METRIC_DEFAULTS, isAnyEvent: true, graphType: 'metric' } },
  { id: 'm-churn', name: 'Churn', description: '', category: 'other', definition: { ...METRIC_DEFAULTS, events: [{ name: 'Account Closed' }] } },
]
const GRAPH: MetricGraph = { type: 'line', layout: 'stacked', header: { name: 'Unique users' }, data: { labels: ['2026-03-01', '2026-03-02'], datasets: [{ label: 'Unique users', data: [3, 4] }] } }

type Body = { report_id?: string | null; name: string; description: string; metric_ids?: string[] }

/** An in-memory reports API with the server's rules the screens rely on (the real one runs in the browser tests). */
function reportsServer(options: { reports?: Report[]; metrics?: StoredMetric[]; failSaves?: boolean } = {}) {
  const server = fakeServer()
  let reports = [...(options.reports ?? [])]
  const metrics = options.metrics ?? METRICS
  let next = 1
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [{ id: 'f-search', name: 'Search' }] } })
  server.on('GET', '/api/orgs/acme/reports', () => ({ body: reports.map(({ metrics: _m, ...r }) => r) }))
  server.on('GET', /^\/api\/orgs\/acme\/reports\/[^/]+$/, (call) => {
    const r = reports.find((x) => x.id === call.path.split('/').pop())
    return r ? { body: r } : { status: 404, body: { success: false, message: 'Report not found', errors: [] } }
  })
  server.on('POST', '/api/orgs/acme/reports', (call) => {
    if (options.failSaves) return { status: 500, body: { success: false, message: 'An error has occurred', errors: [] } }
    const b = call.body as Body
    const old = reports.find((r) => r.id === b.report_id)
    const ids = b.metric_ids ?? old?.metrics ?? []
    const r: Report = { id: b.report_id ?? `r${next++}`, name: b.name, description: b.description, metrics: ids, metric_count: ids.length, updated_date: '2026-03-02T09:00:00.000Z' }
    reports = [r, ...reports.filter((x) => x.id !== r.id)]
    return { status: b.report_id ? 200 : 201, body: { report_id: r.id } }
  })
  server.on('DELETE', /^\/api\/orgs\/acme\/reports\//, (call) => {
    reports = reports.filter((r) => r.id !== call.path.split('/').pop())
    return { status: 204 }
  })
  server.on('GET', '/api/orgs/acme/metrics/category', () => {
    const categories = [...new Set(metrics.map((m) => m.category))].map((category) => ({
      category,
      metrics: metrics.filter((m) => m.category === category).map((m) => ({ id: m.id, name: m.name, valid: true })),
    }))
    return { body: { categories } }
  })
  server.on('GET', /^\/api\/orgs\/acme\/metrics\/m-/, (call) => ({ body: metrics.find((m) => m.id === call.path.split('/').pop()) }))
  server.on('POST', '/api-v2/orgs/acme/metrics/graph', { body: GRAPH })
  return { server, reports: () => reports }
}

const saves = (server: ReturnType<typeof fakeServer>) => server.callsTo('POST', '/api/orgs/acme/reports').map((c: Call) => c.body as Body)
const section = (name: string) => within(screen.getByRole('region', { name }))

afterEach(() => {
  vi.useRealTimers()
})

describe('the reports list', () => {
  it("shows 'Create report...', the custom reports with '{n} metric(s)' and a feature report per feature", async () => {
    const { server } = reportsServer({
      reports: [{ id: 'r-growth', name: 'Growth', description: 'Weekly numbers', metrics: ['m-signups', 'm-churn'], metric_count: 2, updated_date: new Date().toISOString() }],
    })
    renderRoutes(routes, '/organizations/acme/reports', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create report...' }).getAttribute('href')).toBe('/organizations/acme/reports/new')
    await screen.findByRole('region', { name: 'Custom reports' })
    const growth = section('Custom reports').getByRole('link', { name: /Growth/ })
    expect(growth.getAttribute('href')).toBe('/organizations/acme/reports/r-growth')
    expect(growth.textContent).toContain('2 metric(s)')
    expect(growth.textContent).toContain('Weekly numbers')
    expect(section('Feature reports').getByRole('link', { name: /Search/ }).getAttribute('href')).toBe('/organizations/acme/reports/features/f-search')
  })

  it("says 'No reports found' where there are none", async () => {
    const { server } = reportsServer()
    server.on('GET', '/api-v2/orgs/acme/features', { body: { features: [] } })
    renderRoutes(routes, '/organizations/acme/reports', { server })
    await screen.findByRole('region', { name: 'Custom reports' })
    expect(section('Custom reports').getByText('No reports found')).toBeTruthy()
    expect(section('Feature reports').getByText('No reports found')).toBeTruthy()
  })
})

describe('the custom report editor', () => {
  it('creates the report on the first save once named, then replaces the address with its id and goes on editing it', async () => {
    const { server } = reportsServer()
    const { router } = renderRoutes(routes, '/organizations/acme/reports/new', { server })
    const name = await screen.findByLabelText('Name')
    expect(name.getAttribute('maxlength')).toBe('50')
    expect(screen.getByLabelText('Description').getAttribute('maxlength')).toBe('500')
    vi.useFakeTimers()

    // A description alone cannot be saved: the report needs its name first.
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Weekly numbers' } })
    await act(() => vi.advanceTimersByTimeAsync(500))
    expect(saves(server)).toEqual([])
    expect(screen.getByText('Report name must be given')).toBeTruthy()

    fireEvent.change(name, { target: { value: 'G' } })
    expect(screen.queryByText('Report name must be given')).toBeNull()
    expect(screen.getByText('Saving...')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(300))
    fireEvent.change(name, { target: { value: 'Growth' } })
    await act(() => vi.advanceTimersByTimeAsync(499))
    expect(saves(server)).toEqual([])
    await act(() => vi.advanceTimersByTimeAsync(1))
    vi.useRealTimers()
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/reports/r1'))
    expect(router.state.historyAction).toBe('REPLACE')
    expect(saves(server)).toEqual([{ report_id: null, name: 'Growth', description: 'Weekly numbers', metric_ids: [] }])
    expect(screen.getByRole('heading', { level: 1, name: 'Growth' })).toBeTruthy()
    expect(await screen.findByText('All changes saved')).toBeTruthy()

    // The same editor goes on: nothing reloaded, what is typed stays, and the next save changes r1.
    expect(server.callsTo('GET', '/api/orgs/acme/reports/r1')).toEqual([])
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Growth board' } })
    await waitFor(() => expect(saves(server)).toHaveLength(2))
    expect(saves(server)[1]).toEqual({ report_id: 'r1', name: 'Growth board', description: 'Weekly numbers', metric_ids: [] })
  })

  it('adds metrics from the modal (category sidebar with counts, a grid) and saves the list at once; cards have Edit and Remove', async () => {
    const { server, reports } = reportsServer({
      reports: [{ id: 'r-growth', name: 'Growth', description: '', metrics: [], metric_count: 0, updated_date: '2026-03-01T00:00:00.000Z' }],
    })
    renderRoutes(routes, '/organizations/acme/reports/r-growth', { server })
    await screen.findByDisplayValue('Growth')
    fireEvent.click(screen.getAllByRole('button', { name: 'Add metric...' })[0]!)
    const modal = within(await screen.findByRole('dialog', { name: 'Add metric' }))
    const sidebar = within(await modal.findByRole('navigation', { name: 'Categories' }))
    expect(sidebar.getAllByRole('button').map((b) => b.textContent)).toEqual(['All3', 'growth2', 'other1'])
    const grid = () => modal.getByRole('list', { name: 'Metrics to add' })
    expect(within(grid()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Sign-upsgrowth', 'Active usersgrowth', 'Churnother'])
    fireEvent.click(sidebar.getByRole('button', { name: /other/ }))
    expect(within(grid()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Churnother'])

    // Picked: saved at once (no waiting), the modal closes, the card draws the metric's graph from its stored definition.
    fireEvent.click(within(grid()).getByRole('button', { name: /Churn/ }))
    await waitFor(() => expect(saves(server)).toEqual([{ report_id: 'r-growth', name: 'Growth', description: '', metric_ids: ['m-churn'] }]))
    expect(screen.queryByRole('dialog')).toBeNull()
    const card = within(await screen.findByRole('article', { name: 'Churn' }))
    expect(card.getByRole('link', { name: 'Edit Churn' }).getAttribute('href')).toBe('/organizations/acme/metrics/m-churn')
    await waitFor(() => expect(server.callsTo('POST', '/api-v2/orgs/acme/metrics/graph').map((c) => c.body)).toEqual([METRICS[2]!.definition]))
    expect(await card.findByRole('img', { name: 'Unique users' })).toBeTruthy()

    // A metric already in the report is marked and cannot be picked again.
    fireEvent.click(screen.getAllByRole('button', { name: 'Add metric...' })[0]!)
    const again = within(await screen.findByRole('dialog', { name: 'Add metric' }))
    const churn = within(await again.findByRole('list', { name: 'Metrics to add' })).getByRole('button', { name: /Churn/ })
    expect((churn as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(within(again.getByRole('list', { name: 'Metrics to add' })).getByRole('button', { name: /Sign-ups/ }))
    await waitFor(() => expect(saves(server)).toHaveLength(2))
    expect(saves(server)[1]!.metric_ids).toEqual(['m-churn', 'm-signups'])
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Churn', 'Sign-ups'])

    fireEvent.click(within(screen.getByRole('article', { name: 'Churn' })).getByRole('button', { name: 'Remove Churn' }))
    await waitFor(() => expect(saves(server)).toHaveLength(3))
    expect(saves(server)[2]!.metric_ids).toEqual(['m-signups'])
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Sign-ups'])
    expect(reports()[0]!.metrics).toEqual(['m-signups'])
  })

  it("says 'No metrics found' in the modal when the organisation has none", async () => {
    const { server } = reportsServer({ metrics: [] })
    renderRoutes(routes, '/organizations/acme/reports/new', { server })
    fireEvent.click((await screen.findAllByRole('button', { name: 'Add metric...' }))[0]!)
    const modal = within(await screen.findByRole('dialog', { name: 'Add metric' }))
    expect(await modal.findByText('No metrics found')).toBeTruthy()
    expect(modal.getByRole('button', { name: /All/ }).textContent).toBe('All0')
  })

  it("reports a failed save with 'An error has occurred saving the report' and reloads the page after it", async () => {
    const { server } = reportsServer({ failSaves: true })
    const reload = vi.fn()
    renderRoutes(routes, '/organizations/acme/reports/new', { server, reload })
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Growth' } })
    expect(await screen.findByText('An error has occurred saving the report', undefined, { timeout: 2000 })).toBeTruthy()
    expect(screen.getByTestId('input-blocker')).toBeTruthy()
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 5000 })
  })

  it('deletes a report after its confirmation, with its message, back to the list', async () => {
    const { server, reports } = reportsServer({
      reports: [{ id: 'r-growth', name: 'Growth', description: 'Weekly', metrics: ['m-signups'], metric_count: 1, updated_date: '2026-03-01T00:00:00.000Z' }],
    })
    const { router } = renderRoutes(routes, '/organizations/acme/reports/r-growth', { server })
    expect(await screen.findByDisplayValue('Weekly')).toBeTruthy()
    expect(await screen.findByRole('article', { name: 'Sign-ups' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Delete...' }))
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete report' }))
    expect(confirm.getByText('Are you sure you want to delete the report "Growth"?')).toBeTruthy()
    fireEvent.click(confirm.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Deleted report Growth successfully')).toBeTruthy()
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/reports'))
    expect(reports()).toEqual([])
    expect(saves(server)).toEqual([])
  })
})

describe('the Feature Analysis report', () => {
  const feature = { id: 'f-search', name: 'Search', events: [{ event_name: 'Search Performed' }] }
  const answer = (call: Call) => {
    const q = call.body as { audienceType: string; measureBy: string; dateRange: string; graphType: string }
    const base = (q.audienceType === 'company' ? 100 : 0) + (q.measureBy === 'total' ? 10 : 0) + ['lastDay', 'last7Days', 'last30Days', 'lastYear'].indexOf(q.dateRange) + 1
    if (q.graphType === 'metric') return { body: { currentValue: { value: base, outOf: base * 4 } } }
    return { body: { graph: { ...GRAPH, header: { name: 'x' }, data: { labels: ['2026-02-01', '2026-03-01'], datasets: [{ label: 'x', data: [base, base + 1] }] } } } }
  }

  function featureServer() {
    const { server } = reportsServer()
    server.on('GET', '/api-v2/orgs/acme/features/f-search', { body: feature })
    server.on('POST', '/api-v2/orgs/acme/features/f-search/data/query', answer)
    return server
  }
  const queries = (server: ReturnType<typeof fakeServer>) => server.callsTo('POST', '/api-v2/orgs/acme/features/f-search/data/query')

  it('asks its ten questions at once, shows them by template, and asks again for companies', async () => {
    const server = featureServer()
    renderRoutes(routes, '/organizations/acme/reports/features/f-search', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeTruthy()
    const active = within(await screen.findByRole('region', { name: 'Active users' }))
    expect(queries(server)).toHaveLength(10)
    expect(queries(server).every((c) => (c.body as { audienceType: string }).audienceType === 'user')).toBe(true)
    expect(['Today: 1', 'Last 7 days: 2', 'Last 30 days: 3', 'Last year: 4'].map((l) => active.getByLabelText(l).textContent)).toEqual(['1', '2', '3', '4'])
    expect(screen.getByLabelText('Uses today: 11')).toBeTruthy()
    expect(screen.getByLabelText('Uses, last 7 days: 12')).toBeTruthy()
    expect(screen.getByLabelText('Uses per user, last 7 days: 6.0')).toBeTruthy()
    expect(screen.getByLabelText('Adoption, last 7 days: 25%')).toBeTruthy()
    expect(screen.getByRole('img', { name: 'Daily active users, last 30 days' }).getAttribute('data-points')).toBe('2')
    const months = within(screen.getByRole('table', { name: 'Uses by month, last year' })).getAllByRole('row').slice(1)
    expect(months.map((r) => r.textContent)).toEqual(['March 202615', 'February 202614'])

    // The switcher lists every report and says which one this is.
    const switcher = screen.getByRole('combobox', { name: 'Switch report' }) as HTMLSelectElement
    expect(switcher.value).toBe('/organizations/acme/reports/features/f-search')

    fireEvent.click(screen.getByRole('radio', { name: 'Companies' }))
    expect(await screen.findByRole('region', { name: 'Active companies' })).toBeTruthy()
    expect(queries(server)).toHaveLength(20)
    expect(queries(server).slice(10).every((c) => (c.body as { audienceType: string }).audienceType === 'company')).toBe(true)
    expect(screen.getByLabelText('Today: 101')).toBeTruthy()
    expect(screen.getByLabelText('Uses per company, last 7 days: 1.1')).toBeTruthy()
  })

  it('sends the ten in parallel: all are out before any answers', async () => {
    const server = featureServer()
    const held: Array<() => void> = []
    server.on('POST', '/api-v2/orgs/acme/features/f-search/data/query', (call) => new Promise((resolve) => held.push(() => resolve(answer(call)))))
    renderRoutes(routes, '/organizations/acme/reports/features/f-search', { server })
    await waitFor(() => expect(held).toHaveLength(10))
    held.forEach((release) => release())
    expect(await screen.findByRole('region', { name: 'Active users' })).toBeTruthy()
  })

  it('shows the generic error view when any of the ten fails, and cancels the rest', async () => {
    const server = featureServer()
    // Uses by month fails; the other nine never answer, and are cancelled.
    server.on('POST', '/api-v2/orgs/acme/features/f-search/data/query', (call) =>
      JSON.stringify(call.body) === JSON.stringify({ audienceType: 'user', measureBy: 'total', dateRange: 'lastYear', occurring: 'monthly', graphType: 'line' })
        ? { status: 503, body: { success: false, message: 'This metric took too long to compute; try a shorter date range', errors: [] } }
        : new Promise(() => {}),
    )
    renderRoutes(routes, '/organizations/acme/reports/features/f-search', { server })
    expect((await screen.findByRole('alert')).textContent).toBe('An error has occurred')
    expect(queries(server)).toHaveLength(10)
    expect(queries(server).every((c) => c.signal?.aborted)).toBe(true)
    expect(screen.queryByRole('region', { name: 'Active users' })).toBeNull()
  })
})
