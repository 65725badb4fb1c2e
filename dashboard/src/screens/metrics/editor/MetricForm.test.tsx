import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { BETWEEN_MESSAGE, METRIC_DEFAULTS, type MetricDefinition, type StoredMetric } from '@fl0/contracts/metrics'
import { routes } from '../../../routes.tsx'
import { metricsServer, type MetricsServer } from '../../../test/metricsServer.ts'
import { renderRoutes } from '../../../test/render.tsx'

const NEW = '/organizations/acme/metrics/new'
const choose = (groupName: string, option: string) => fireEvent.click(within(screen.getByRole('radiogroup', { name: groupName })).getByRole('radio', { name: option }))
const events = () => within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))
const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement).value
const type = (label: string, text: string) => fireEvent.change(screen.getByLabelText(label), { target: { value: text } })
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save metric' }))
const postsTo = (server: MetricsServer, path = '/api/orgs/acme/metrics') => server.callsTo('POST', path)

async function addEvent(name: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Add event' }))
  fireEvent.click(await within(await screen.findByRole('list', { name: 'Known events' })).findByRole('button', { name }))
}

async function openNew(server: MetricsServer = metricsServer()) {
  const rendered = renderRoutes(routes, NEW, { server })
  await screen.findByRole('heading', { level: 1, name: 'New metric' }, { timeout: 5000 })
  return { ...rendered, server }
}

const FUNNEL: StoredMetric = {
  id: 'm-funnel',
  name: 'Activation funnel',
  description: 'From sign-up to upgrade',
  category: 'growth',
  definition: { ...METRIC_DEFAULTS, operation: 'ordered', graphType: 'funnel', events: [{ name: 'Signed Up' }, { name: 'Invite Sent' }, { name: 'Plan Upgraded' }] },
}

describe('metric editor: event filters', () => {
  it("adding a filter sets the property operation 'is' and occurring 'equals'; removing clears both", async () => {
    await openNew()
    await addEvent('Plan Upgraded')
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Plan Upgraded' }))
    expect(value('Property operation of Plan Upgraded (1)')).toBe('is')
    expect(value('Occurring operation of Plan Upgraded (1)')).toBe('equals')
    expect([...(screen.getByLabelText('Property operation of Plan Upgraded (1)') as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      'is', 'isNot', 'startsWith', 'endsWith', 'contains', 'doesNotContain', 'greaterThan', 'lessThan',
    ]) // prettier-ignore
    expect([...(screen.getByLabelText('Occurring operation of Plan Upgraded (1)') as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      'equals', 'not', 'moreThan', 'atLeast', 'lessThan', 'atMost', 'between', 'notBetween',
    ]) // prettier-ignore
    expect((screen.getByLabelText('Occurring count of Plan Upgraded (1)') as HTMLInputElement).min).toBe('1')
    fireEvent.click(screen.getByRole('button', { name: 'Remove filter of Plan Upgraded' }))
    expect(screen.queryByLabelText('Property operation of Plan Upgraded (1)')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Plan Upgraded' }))
    // Back to the defaults, not what was there before.
    expect(value('Property operation of Plan Upgraded (1)')).toBe('is')
  })

  it('property paths and values come from the look-ups; a filter with an empty value is left out of what is sent', async () => {
    const { server } = await openNew()
    await addEvent('Plan Upgraded')
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Plan Upgraded' }))
    fireEvent.focus(screen.getByRole('combobox', { name: 'Property of Plan Upgraded (1)' }))
    const paths = await screen.findByRole('listbox', { name: 'Property of Plan Upgraded (1)' })
    expect(within(paths).getAllByRole('option').map((o) => o.textContent)).toEqual(['plan', 'mrr'])
    fireEvent.mouseDown(within(paths).getByRole('option', { name: 'plan' }))
    expect(value('Property of Plan Upgraded (1)')).toBe('plan')
    fireEvent.focus(screen.getByRole('combobox', { name: 'Property value of Plan Upgraded (1)' }))
    const values = await screen.findByRole('listbox', { name: 'Property value of Plan Upgraded (1)' })
    expect(within(values).getAllByRole('option').map((o) => o.textContent)).toEqual(['pro', 'enterprise'])

    // The value is still empty, and so is the count: neither filter is sent.
    type('Name', 'Upgrades')
    save()
    await waitFor(() => expect(postsTo(server)).toHaveLength(1))
    expect((postsTo(server)[0]!.body as { definition: MetricDefinition }).definition.events).toEqual([{ name: 'Plan Upgraded' }])
  })

  it('between: the first count must not pass the last, said at once and on save, and nothing is sent', async () => {
    const { server } = await openNew()
    await addEvent('Invite Sent')
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Invite Sent' }))
    fireEvent.change(screen.getByLabelText('Occurring operation of Invite Sent (1)'), { target: { value: 'between' } })
    type('Occurring count of Invite Sent (1)', '5')
    type('Last occurring count of Invite Sent (1)', '2')
    expect(within(screen.getByRole('form', { name: 'Metric' })).getByText(BETWEEN_MESSAGE)).toBeTruthy()
    // The preview does not ask for what the contract refuses.
    const preview = within(screen.getByRole('region', { name: 'Preview' }))
    expect(await preview.findByRole('alert')).toBeTruthy()
    expect(preview.getByRole('alert').textContent).toBe(BETWEEN_MESSAGE)
    type('Name', 'Inviters')
    save()
    await waitFor(() => expect(screen.getByLabelText('Last occurring count of Invite Sent (1)').getAttribute('aria-invalid')).toBe('true'))
    expect(postsTo(server)).toHaveLength(0)

    type('Last occurring count of Invite Sent (1)', '5')
    expect(screen.queryAllByText(BETWEEN_MESSAGE)).toHaveLength(0)
    save()
    await waitFor(() => expect(postsTo(server)).toHaveLength(1))
    expect((postsTo(server)[0]!.body as { definition: MetricDefinition }).definition.events).toEqual([{ name: 'Invite Sent', occurring: { operation: 'between', value: 5, value2: 5 } }])
  })

  it('measured by Total, occurring filters are ignored: neither checked nor sent, so they do not stop a save', async () => {
    const { server } = await openNew()
    await addEvent('Invite Sent')
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Invite Sent' }))
    fireEvent.change(screen.getByLabelText('Occurring operation of Invite Sent (1)'), { target: { value: 'between' } })
    type('Occurring count of Invite Sent (1)', '5')
    type('Last occurring count of Invite Sent (1)', '2')
    expect(screen.getAllByText(BETWEEN_MESSAGE)).not.toHaveLength(0)
    choose('Measure', 'Total')
    // The counts are disabled: a rule about them would be one the user cannot act on.
    expect((screen.getByLabelText('Last occurring count of Invite Sent (1)') as HTMLInputElement).disabled).toBe(true)
    expect(screen.queryAllByText(BETWEEN_MESSAGE)).toHaveLength(0)
    await waitFor(() => expect((server.graphCalls().at(-1)?.body as MetricDefinition | undefined)?.measureBy).toBe('total'))
    expect((server.graphCalls().at(-1)!.body as MetricDefinition).events).toEqual([{ name: 'Invite Sent' }])
    // Kept in the form: back to Unique, the filter counts, and is checked, again.
    choose('Measure', 'Unique users')
    expect(value('Last occurring count of Invite Sent (1)')).toBe('2')
    expect(screen.getAllByText(BETWEEN_MESSAGE)).not.toHaveLength(0)
    choose('Measure', 'Total')
    type('Name', 'Invites')
    save()
    await waitFor(() => expect(postsTo(server)).toHaveLength(1))
    expect((postsTo(server)[0]!.body as { definition: MetricDefinition }).definition).toMatchObject({ measureBy: 'total', events: [{ name: 'Invite Sent' }] })
  })

  it("occurring counts start at 1: 'Occurring values have a minimum of 1' beside the count", async () => {
    const { server } = await openNew()
    await addEvent('Invite Sent')
    fireEvent.click(screen.getByRole('button', { name: 'Add filter to Invite Sent' }))
    type('Occurring count of Invite Sent (1)', '0')
    type('Name', 'Inviters')
    save()
    expect(await screen.findAllByText('Occurring values have a minimum of 1')).not.toHaveLength(0)
    expect(document.activeElement).toBe(screen.getByLabelText('Occurring count of Invite Sent (1)'))
    expect(postsTo(server)).toHaveLength(0)
  })

  it('in the ordered operation events move up and down, and are sent in that order', async () => {
    const { server } = await openNew()
    await addEvent('Signed Up')
    await addEvent('Invite Sent')
    await addEvent('Plan Upgraded')
    expect(screen.queryByRole('button', { name: 'Move Invite Sent up' })).toBeNull()
    choose('Operation', 'Ordered')
    expect((screen.getByRole('button', { name: 'Move Signed Up up' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Move Plan Upgraded down' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Move Plan Upgraded up' }))
    expect(events()).toEqual(['Signed Up', 'Plan Upgraded', 'Invite Sent'])
    fireEvent.click(screen.getByRole('button', { name: 'Move Signed Up down' }))
    expect(events()).toEqual(['Plan Upgraded', 'Signed Up', 'Invite Sent'])
    await waitFor(() => expect((server.graphCalls().at(-1)?.body as MetricDefinition).events.map((e) => e.name)).toEqual(['Plan Upgraded', 'Signed Up', 'Invite Sent']))
  })
})

describe('metric editor: audience traits', () => {
  it('trait names and values come from the look-ups, with and/or; a trait without a value is dropped on save', async () => {
    const { server } = await openNew()
    await addEvent('Signed Up')
    fireEvent.click(screen.getByRole('button', { name: 'Add trait' }))
    fireEvent.focus(screen.getByRole('combobox', { name: 'Trait 1' }))
    const names = await screen.findByRole('listbox', { name: 'Trait 1' })
    expect(within(names).getAllByRole('option').map((o) => o.textContent)).toEqual(['beta', 'employees', 'plan'])
    fireEvent.mouseDown(within(names).getByRole('option', { name: 'plan' }))
    fireEvent.focus(screen.getByRole('combobox', { name: 'Value of trait 1' }))
    const values = await screen.findByRole('listbox', { name: 'Value of trait 1' })
    fireEvent.mouseDown(within(values).getByRole('option', { name: 'pro' }))

    fireEvent.click(screen.getByRole('button', { name: 'Add trait' }))
    type('Trait 2', 'employees')
    expect([...(screen.getByLabelText('Operation of trait 2') as HTMLSelectElement).options].map((o) => o.value)).toContain('greater_than')
    fireEvent.change(screen.getByLabelText('Operation of trait 2'), { target: { value: 'greater_than' } })
    choose('Traits aggregate', 'Or')

    type('Name', 'Pro sign-ups')
    save()
    await waitFor(() => expect(postsTo(server)).toHaveLength(1))
    expect((postsTo(server)[0]!.body as { definition: MetricDefinition }).definition.audience).toEqual({ aggregate: 'or', traits: [{ name: 'plan', operation: 'is', value: 'pro' }] })
  })
})

describe('metric editor: saving and deleting', () => {
  it("the name rules show beside the field before anything is sent", async () => {
    const { server } = await openNew()
    save()
    expect(await screen.findByText('Metric name must be provided')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText('Name'))
    type('Name', 'x'.repeat(51))
    expect(screen.queryByText('Metric name must be provided')).toBeNull()
    type('Description', 'y'.repeat(201))
    save()
    expect(await screen.findByText('Metric name must have at most 50 characters')).toBeTruthy()
    expect(screen.getByText('Metric description must have at most 200 characters')).toBeTruthy()
    expect(postsTo(server)).toHaveLength(0)
  })

  it("saves a new metric: 'Metric \"{name}\" has been saved', and the editor moves to the saved metric's address", async () => {
    const { server, router } = await openNew()
    type('Name', '  Signups ')
    type('Category', 'growth')
    await addEvent('Signed Up')
    choose('Graph type', 'Bar')
    save()
    expect((await screen.findByText('Metric "Signups" has been saved')).dataset.kind).toBe('ok')
    expect(postsTo(server)[0]!.body).toEqual({ name: 'Signups', description: '', category: 'growth', definition: { ...METRIC_DEFAULTS, events: [{ name: 'Signed Up' }], graphType: 'bar' } })
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics/m1'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Signups' }, { timeout: 5000 })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Delete...' })).toBeTruthy()
    // Back goes to the list, not to an empty /new.
    router.navigate(-1)
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/organizations/acme/metrics/new'))
  })

  it('a server error naming a field shows beside it; Cancel returns to the list', async () => {
    const server = metricsServer()
    server.on('POST', '/api/orgs/acme/metrics', { status: 409, body: { success: false, message: 'Taken', errors: [{ name: 'name', message: 'A metric with this name already exists' }] } })
    const { router } = await openNew(server)
    type('Name', 'Signups')
    save()
    expect(await screen.findByText('A metric with this name already exists')).toBeTruthy()
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics'))
  })

  it("edits a saved metric (read through the rules), then deletes it after the confirmation: 'Metric has been deleted'", async () => {
    const server = metricsServer([FUNNEL])
    const { router } = renderRoutes(routes, '/organizations/acme/metrics/m-funnel', { server })
    expect(await screen.findByRole('heading', { level: 1, name: 'Activation funnel' }, { timeout: 5000 })).toBeTruthy()
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumbs' })).getByText('Activation funnel')).toBeTruthy()
    expect(value('Name')).toBe('Activation funnel')
    expect(value('Description')).toBe('From sign-up to upgrade')
    expect(events()).toEqual(['Signed Up', 'Invite Sent', 'Plan Upgraded'])
    type('Name', 'Activation')
    save()
    expect(await screen.findByText('Metric "Activation" has been saved')).toBeTruthy()
    expect(server.callsTo('POST', '/api/orgs/acme/metrics/m-funnel')).toHaveLength(1)
    expect(router.state.location.pathname).toBe('/organizations/acme/metrics/m-funnel')
    expect(await screen.findByRole('heading', { level: 1, name: 'Activation' })).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Delete...' }))
    const confirm = within(screen.getByRole('dialog', { name: 'Delete metric' }))
    expect(confirm.getByText('Are you sure you want to delete the metric "Activation"?')).toBeTruthy()
    fireEvent.click(confirm.getByRole('button', { name: 'Delete' }))
    expect((await screen.findByText('Metric has been deleted')).dataset.kind).toBe('ok')
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics'))
    expect(await screen.findByText('No metrics found')).toBeTruthy()
    expect(server.callsTo('DELETE', '/api/orgs/acme/metrics/m-funnel')).toHaveLength(1)
  })
})
