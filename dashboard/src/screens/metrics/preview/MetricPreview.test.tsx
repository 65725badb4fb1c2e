import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { METRIC_DEFAULTS, type MetricDefinition, type MetricGraph, type StoredMetric } from '@fl0/contracts/metrics'
import { routes } from '../../../routes.tsx'
import { deferred, json } from '../../../test/fakeServer.ts'
import { lineGraph, metricsServer, type MetricsServer } from '../../../test/metricsServer.ts'
import { renderRoutes } from '../../../test/render.tsx'

const GRAPH = '/api-v2/orgs/acme/metrics/graph'
const preview = () => within(screen.getByRole('region', { name: 'Preview' }))
const choose = (groupName: string, option: string) => fireEvent.click(within(screen.getByRole('radiogroup', { name: groupName })).getByRole('radio', { name: option }))

async function open(server: MetricsServer, definition: Partial<MetricDefinition>) {
  const metric: StoredMetric = { id: 'm1', name: 'Activation', description: '', category: 'other', definition: { ...METRIC_DEFAULTS, events: [{ name: 'Signed Up' }], ...definition } }
  server.on('GET', '/api/orgs/acme/metrics/m1', { body: metric })
  const rendered = renderRoutes(routes, '/organizations/acme/metrics/m1', { server })
  await screen.findByRole('region', { name: 'Preview' }, { timeout: 5000 })
  return rendered
}

describe('metric preview', () => {
  it('a new query aborts the one in flight, whose answer is never shown; a refreshing indicator shows while re-querying', async () => {
    const server = metricsServer()
    const answers = [deferred<Response>(), deferred<Response>(), deferred<Response>()]
    let n = 0
    server.on('POST', GRAPH, () => answers[n++]!.promise)
    await open(server, {})
    await waitFor(() => expect(server.graphCalls()).toHaveLength(1))
    expect(preview().getByRole('status', { name: 'Loading graph' })).toBeTruthy()
    answers[0]!.resolve(json(200, lineGraph('Unique users', [1, 2])))
    expect(await preview().findByRole('img', { name: 'Unique users' })).toBeTruthy()

    // A change: the old graph stays, marked as refreshing, while the next one loads.
    choose('Date range', '3M')
    await waitFor(() => expect(server.graphCalls()).toHaveLength(2))
    expect(preview().getByRole('status', { name: 'Refreshing' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Preview' }).getAttribute('aria-busy')).toBe('true')
    const second = server.graphCalls()[1]!
    expect(second.body).toMatchObject({ dateRange: 'last3Months' })

    // Another change before it answers: the second query is aborted when the third starts.
    choose('Date range', '6M')
    await waitFor(() => expect(server.graphCalls()).toHaveLength(3))
    expect(second.signal?.aborted).toBe(true)
    expect(server.graphCalls()[2]!.signal?.aborted).toBe(false)
    answers[1]!.resolve(json(200, lineGraph('Stale answer', [9])))
    answers[2]!.resolve(json(200, lineGraph('Total events', [4, 4, 4])))
    expect(await preview().findByRole('img', { name: 'Total events' })).toBeTruthy()
    expect(preview().queryByRole('img', { name: 'Stale answer' })).toBeNull()
    expect(preview().queryByRole('status', { name: 'Refreshing' })).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('the graph query is not queued behind a save still in flight', async () => {
    const server = metricsServer()
    const held = deferred<Response>()
    server.on('POST', '/api/orgs/acme/metrics/m1', () => held.promise)
    await open(server, {})
    await waitFor(() => expect(server.graphCalls()).toHaveLength(1))
    fireEvent.click(await screen.findByRole('button', { name: 'Save metric' }))
    await waitFor(() => expect(server.callsTo('POST', '/api/orgs/acme/metrics/m1')).toHaveLength(1))
    choose('Graph type', 'Bar')
    await waitFor(() => expect(server.graphCalls()).toHaveLength(2))
    expect(await preview().findByRole('img', { name: 'Unique users' })).toBeTruthy()
    held.resolve(json(200, { metricId: 'm1' }))
    expect(await screen.findByText('Metric "Activation" has been saved')).toBeTruthy()
  })

  it("a failed graph shows the response's first message, else 'An error has occurred'", async () => {
    const server = metricsServer()
    server.on('POST', GRAPH, (call) =>
      (call.body as MetricDefinition).dateRange === 'lastYear'
        ? { status: 502 }
        : { status: 503, body: { success: false, message: 'This metric took too long to compute; try a shorter date range', errors: [] } },
    )
    await open(server, {})
    expect(await preview().findByText('This metric took too long to compute; try a shorter date range')).toBeTruthy()
    choose('Date range', 'Year')
    expect(await preview().findByText('An error has occurred')).toBeTruthy()
  })

  const answer = (graph: MetricGraph) => {
    const server = metricsServer()
    server.on('POST', GRAPH, { body: graph })
    return server
  }

  it('draws a funnel: a column per step with its count and its conversion from the first step and from the step before', async () => {
    const graph: MetricGraph = {
      type: 'funnel',
      header: { name: 'Unique users', value: 10 },
      data: { labels: ['Signed Up', 'Invite Sent', 'Plan Upgraded'], datasets: [{ label: 'Unique users', data: [40, 20, 10] }] },
    }
    await open(answer(graph), { operation: 'ordered', graphType: 'funnel', events: [{ name: 'Signed Up' }, { name: 'Invite Sent' }, { name: 'Plan Upgraded' }] })
    const funnel = within(await preview().findByRole('list', { name: 'Unique users' }))
    const steps = funnel.getAllByRole('listitem')
    expect(steps.map((s) => s.getAttribute('aria-label'))).toEqual(['Step 1: Signed Up', 'Step 2: Invite Sent', 'Step 3: Plan Upgraded'])
    expect(steps.map((s) => within(s).getByTestId('step-value').textContent)).toEqual(['40100%', '2050%', '1025%'])
    expect(funnel.getAllByTestId('step-conversion').map((c) => c.textContent)).toEqual(['→ 50%', '→ 50%'])
    expect(preview().getByText('10 completed')).toBeTruthy()
  })

  it("draws a table (a row per series, a column per period) and a single big number for 'metric'", async () => {
    const table: MetricGraph = {
      type: 'table',
      header: { name: 'Unique users' },
      data: { labels: ['2026-11-01', '2026-11-02'], datasets: [{ label: 'pro', data: [3, 1250] }, { label: 'free', data: [7, 0] }] },
    }
    const first = await open(answer(table), { graphType: 'table' })
    const rows = within(await preview().findByRole('table', { name: 'Unique users' })).getAllByRole('row')
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['', 'Nov 1', 'Nov 2'],
      ['pro', '3', '1.3K'],
      ['free', '7', '0'],
    ])
    first.unmount()

    const metric: MetricGraph = { type: 'metric', header: { name: 'Conversion rate', value: 42.5 }, data: { labels: ['2026-10-01/2026-11-01'], datasets: [{ label: 'Conversion rate', data: [42.5] }] } }
    await open(answer(metric), { graphType: 'metric', measureBy: 'conversionRate', operation: 'ordered', events: [{ name: 'Signed Up' }, { name: 'Plan Upgraded' }] })
    expect((await preview().findByRole('img', { name: 'Conversion rate: 42.5' })).textContent).toBe('42.5%')
    expect(preview().getByText('Oct 1 – Nov 1')).toBeTruthy()
  })

  it('draws bars of several series, stacked or side by side as the graph says', async () => {
    const bars: MetricGraph = {
      type: 'bar',
      layout: 'side',
      header: { name: 'Unique users' },
      data: { labels: ['2026-11-01', '2026-11-02'], datasets: [{ label: 'pro', data: [3, 4] }, { label: 'free', data: [7, 1] }] },
    }
    await open(answer(bars), { graphType: 'bar' })
    const chart = await preview().findByRole('img', { name: 'Unique users' })
    expect(chart.dataset).toMatchObject({ kind: 'bar', layout: 'side', series: '2', points: '2' })
  })
})
