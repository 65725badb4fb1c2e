import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { METRIC_DEFAULTS, type MetricDefinition, type StoredMetric } from '@fl0/contracts/metrics'
import { routes } from '../../../routes.tsx'
import { metricsServer, type MetricsServer } from '../../../test/metricsServer.ts'
import { renderRoutes } from '../../../test/render.tsx'
import { RULE_NOTES } from './draft.ts'

const NEW = '/organizations/acme/metrics/new'
const group = (name: string) => within(screen.getByRole('radiogroup', { name }))
const choose = (groupName: string, option: string) => fireEvent.click(group(groupName).getByRole('radio', { name: option }))
const chosen = (groupName: string) => group(groupName).getByRole('radio', { checked: true }).textContent
const isDisabled = (groupName: string, option: string) => (group(groupName).getByRole('radio', { name: option }) as HTMLButtonElement).disabled
const notes = () => [...screen.getByRole('status', { name: 'Rules applied' }).querySelectorAll('p')].map((p) => p.textContent)
const events = () => within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))

async function addEvent(name: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
  fireEvent.click(await within(await screen.findByRole('list', { name: 'Known events' })).findByRole('button', { name }))
}

async function openNew(server: MetricsServer = metricsServer()) {
  const rendered = renderRoutes(routes, NEW, { server })
  await screen.findByRole('heading', { level: 1, name: 'New metric' }, { timeout: 5000 })
  return rendered
}

/** The last definition the preview asked for. */
const lastGraphBody = (server: MetricsServer) => server.graphCalls().at(-1)?.body as MetricDefinition | undefined

const saved = (definition: Partial<MetricDefinition>, extra: Partial<StoredMetric> = {}): StoredMetric => ({
  id: 'm-funnel',
  name: 'Activation funnel',
  description: 'From sign-up to upgrade',
  category: 'growth',
  definition: { ...METRIC_DEFAULTS, ...definition },
  ...extra,
})

describe('metric editor: the page', () => {
  it("a new metric: breadcrumbs and the back link to Metrics, no 'Delete...', 'Select metric options' over an empty line graph without any call", async () => {
    const server = metricsServer()
    const { router } = await openNew(server)
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumbs' }))
    expect(crumbs.getByRole('link', { name: 'Metrics' }).getAttribute('href')).toBe('/organizations/acme/metrics')
    expect(crumbs.getByText('New metric').getAttribute('aria-current')).toBe('page')
    expect(screen.queryByRole('button', { name: 'Delete...' })).toBeNull()
    const preview = within(screen.getByRole('region', { name: 'Preview' }))
    expect(preview.getByText('Select metric options')).toBeTruthy()
    expect(await preview.findByRole('img', { name: 'Empty graph' })).toBeTruthy()
    // Longer than the debounce: still no call for an empty metric.
    await new Promise((r) => setTimeout(r, 500))
    expect(server.graphCalls()).toHaveLength(0)

    fireEvent.click(screen.getByRole('link', { name: '← Back to Metrics' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics'))
  })

  it('adding an event makes the metric known: the graph is queried once changes pause and drawn', async () => {
    const server = await openNew().then((r) => r.server as MetricsServer)
    await addEvent('Signed Up')
    expect(events()).toEqual(['Signed Up'])
    const preview = within(screen.getByRole('region', { name: 'Preview' }))
    expect(await preview.findByRole('img', { name: 'Unique users' })).toBeTruthy()
    expect(preview.queryByText('Select metric options')).toBeNull()
    expect(server.graphCalls()).toHaveLength(1)
    expect(lastGraphBody(server)).toEqual({ ...METRIC_DEFAULTS, events: [{ name: 'Signed Up' }] })

    // 'Any event' alone is a metric too.
    fireEvent.click(screen.getByRole('button', { name: 'Remove Signed Up' }))
    expect(await preview.findByText('Select metric options')).toBeTruthy()
    fireEvent.click(screen.getByRole('checkbox', { name: 'Any event' }))
    await waitFor(() => expect(server.graphCalls()).toHaveLength(2))
    expect(lastGraphBody(server)).toMatchObject({ isAnyEvent: true, events: [] })
  })

  it('the Breakdown section shows only with the fl0-metrics-breakdown cookie', async () => {
    const first = await openNew()
    expect(screen.getByRole('group', { name: 'Graph layout' })).toBeTruthy()
    expect(screen.queryByRole('group', { name: 'Breakdown' })).toBeNull()
    first.unmount()
    document.cookie = 'fl0-metrics-breakdown=true; path=/'
    await openNew()
    expect(screen.getByRole('group', { name: 'Breakdown' })).toBeTruthy()
    expect(screen.getByRole('combobox', { name: 'Breakdown trait' })).toBeTruthy()
  })
})

describe('metric editor: the seven rules, acting on every change', () => {
  it('rule 1: removing the last event while measuring Total turns the measure to Unique', async () => {
    await openNew()
    expect(isDisabled('Measure', 'Total')).toBe(true)
    await addEvent('Signed Up')
    choose('Measure', 'Total')
    expect(chosen('Measure')).toBe('Total')
    fireEvent.click(screen.getByRole('button', { name: 'Remove Signed Up' }))
    expect(chosen('Measure')).toBe('Unique users')
    expect(notes()).toEqual([RULE_NOTES.totalNeedsEvents])
  })

  it('rule 2: conversion rate only with Ordered, total not with Ordered: the measure becomes Unique', async () => {
    await openNew()
    await addEvent('Signed Up')
    await addEvent('Plan Upgraded')
    expect(isDisabled('Measure', 'Conversion rate')).toBe(true)
    choose('Operation', 'Ordered')
    choose('Measure', 'Conversion rate')
    expect(chosen('Measure')).toBe('Conversion rate')
    choose('Operation', 'Any')
    expect(chosen('Measure')).toBe('Unique users')
    expect(notes()).toEqual([RULE_NOTES.conversionNeedsOrdered])

    // Total, then the operation Ordered: the operation just chosen stands, the measure gives way.
    choose('Measure', 'Total')
    choose('Operation', 'Ordered')
    expect(chosen('Operation')).toBe('Ordered')
    expect(chosen('Measure')).toBe('Unique users')
    expect(notes()).toEqual([RULE_NOTES.totalNotOrdered])
  })

  it('rule 3: choosing Total in an ordered metric turns the operation to Any', async () => {
    await openNew()
    await addEvent('Signed Up')
    await addEvent('Plan Upgraded')
    choose('Operation', 'Ordered')
    choose('Measure', 'Total')
    expect(chosen('Measure')).toBe('Total')
    expect(chosen('Operation')).toBe('Any')
    expect(notes()).toEqual([RULE_NOTES.orderedNotTotal])
  })

  it("rule 4: operation All with no events and not any event becomes Any (All is offered only with something to count)", async () => {
    await openNew()
    expect(isDisabled('Operation', 'All')).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Any event' }))
    choose('Operation', 'All')
    expect(chosen('Operation')).toBe('All')
    fireEvent.click(screen.getByRole('checkbox', { name: 'Any event' }))
    expect(chosen('Operation')).toBe('Any')
    expect(notes()).toEqual([RULE_NOTES.allNeedsEvents])
  })

  it('rule 5: an ordered metric that loses its events becomes Any', async () => {
    await openNew()
    expect(isDisabled('Operation', 'Ordered')).toBe(true)
    await addEvent('Signed Up')
    choose('Operation', 'Ordered')
    fireEvent.click(screen.getByRole('button', { name: 'Remove Signed Up' }))
    expect(chosen('Operation')).toBe('Any')
    expect(notes()).toEqual([RULE_NOTES.orderedNeedsEvents])
  })

  it('rule 6: the funnel graph only with Ordered; leaving Ordered turns it into a line', async () => {
    await openNew()
    await addEvent('Signed Up')
    await addEvent('Plan Upgraded')
    expect(isDisabled('Graph type', 'Funnel')).toBe(true)
    choose('Operation', 'Ordered')
    choose('Graph type', 'Funnel')
    expect(chosen('Graph type')).toBe('Funnel')
    choose('Operation', 'All')
    expect(chosen('Graph type')).toBe('Line')
    expect(notes()).toEqual([RULE_NOTES.funnelNeedsOrdered])
  })

  it('rule 7: weekly or monthly with the last 7 days becomes daily; both are disabled for 7 days', async () => {
    await openNew()
    choose('Occurring', 'Weekly')
    choose('Date range', '7D')
    expect(chosen('Occurring')).toBe('Daily')
    expect(notes()).toEqual([RULE_NOTES.periodNeeds7Days])
    expect(isDisabled('Occurring', 'Weekly')).toBe(true)
    expect(isDisabled('Occurring', 'Monthly')).toBe(true)
    choose('Date range', '3M')
    expect(isDisabled('Occurring', 'Monthly')).toBe(false)
    // A change that moves nothing clears the notes.
    expect(notes()).toEqual([])
  })

  it('the date range is disabled for the metric and funnel graph types', async () => {
    await openNew()
    await addEvent('Signed Up')
    choose('Graph type', 'Metric')
    expect(isDisabled('Date range', '7D')).toBe(true)
    choose('Graph type', 'Bar')
    expect(isDisabled('Date range', '7D')).toBe(false)
    choose('Operation', 'Ordered')
    choose('Graph type', 'Funnel')
    expect(isDisabled('Date range', '3M')).toBe(true)
  })
})
