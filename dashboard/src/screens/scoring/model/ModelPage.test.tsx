import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../../routes.tsx'
import { renderRoutes } from '../../../test/render.tsx'
import { BASE, COMPLETED, scoringServer, SETTINGS } from '../testServer.ts'

const MODEL = '/organizations/acme/scoring/a1'
const snackbarTexts = () => [...document.querySelectorAll('[data-kind]')].map((e) => e.textContent)
/** The grid's rows: Correlation's events (its other tables are the lift's), or the tab's only table. */
const grid = () => {
  const events = screen.queryByRole('region', { name: 'Events' })
  return events ? within(events).getByRole('table') : screen.getByRole('table')
}
const rows = () => within(grid()).getAllByRole('row').slice(1)
const text = (el: Element) => el.textContent!.replace('›', '')
const firstCells = () => rows().map((r) => text(within(r).getAllByRole('cell')[1]!))
const box = (name: string) => screen.getByRole('checkbox', { name: `In model: ${name}` }) as HTMLInputElement
const rebuilds = (s: ReturnType<typeof scoringServer>) => s.server.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/rebuild-model'))

afterEach(() => {
  vi.useRealTimers()
})

describe('the model page', () => {
  it('has the header (breadcrumb, name, metric name, Delete, Rebuild model) and the four tabs at their addresses', async () => {
    const { router } = renderRoutes(routes, MODEL, { server: scoringServer({ models: [COMPLETED] }).server })
    // The first render of the file loads the area's chunk: given longer.
    expect(await screen.findByRole('heading', { level: 1, name: 'Who upgrades' }, { timeout: 5000 })).toBeTruthy()
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumbs' }))
    expect(crumbs.getByRole('link', { name: 'AI Scoring Models' }).getAttribute('href')).toBe('/organizations/acme/scoring')
    expect(screen.getByTestId('metric-name').textContent).toBe('Upgrades')
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Rebuild model' })).toBeTruthy()
    const tabs = within(screen.getByRole('navigation', { name: 'Scoring model' })).getAllByRole('link')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('href')])).toEqual([
      ['Correlation', '/organizations/acme/scoring/a1'],
      ['Model output', '/organizations/acme/scoring/a1/model-output'],
      ['Settings', '/organizations/acme/scoring/a1/settings'],
      ['Backtest predictions', '/organizations/acme/scoring/a1/backtest-predictions'],
    ])
    fireEvent.click(tabs[1]!)
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/scoring/a1/model-output'))
    expect(await screen.findByRole('searchbox', { name: 'Search users' })).toBeTruthy()
  })

  it('gates on status: the loading view while pending or running, asked for again until done (through a failed call), then the content', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const s = scoringServer({ models: [{ ...COMPLETED, status: 'pending' }] })
    renderRoutes(routes, MODEL, { server: s.server })
    expect(await screen.findByRole('status', { name: 'Training model' })).toBeTruthy()
    expect(screen.queryByRole('navigation', { name: 'Scoring model' })).toBeNull()
    expect((screen.getByRole('button', { name: 'Rebuild model' }) as HTMLButtonElement).disabled).toBe(true)
    s.setStatus('a1', 'running')
    await waitFor(() => expect(screen.getByRole('status', { name: 'Training model' }).dataset.status).toBe('running'), { timeout: 6000 })
    // A call that fails while the model trains: the training view stays, and the page asks again.
    let failed = 0
    s.server.on('GET', `${BASE}/scoring-model/a1`, () => (failed++ === 0 ? { status: 503, body: { success: false, message: 'Service unavailable', errors: [] } } : { body: { ...COMPLETED, metricId: 'm-upgrades', dateRange: 'last30Days', featureSelections: { excludedEvents: [], includedProperties: [] }, trainedAt: null, status: 'completed' } }))
    await waitFor(() => expect(failed).toBe(1), { timeout: 6000 })
    expect(screen.getByRole('status', { name: 'Training model' })).toBeTruthy()
    expect(screen.queryByText('Service unavailable')).toBeNull()
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Scoring model' })).toBeTruthy(), { timeout: 6000 })
    expect(await screen.findByRole('region', { name: 'Summary' })).toBeTruthy()
    const polls = s.server.callsTo('GET', `${BASE}/scoring-model/a1`).length
    await act(() => vi.advanceTimersByTimeAsync(20_000))
    expect(s.server.callsTo('GET', `${BASE}/scoring-model/a1`).length).toBe(polls)
  })

  it('shows the error view with the reason when the model failed; Rebuild model stays offered', async () => {
    renderRoutes(routes, MODEL, { server: scoringServer({ models: [{ ...COMPLETED, status: 'failed', error: 'Nobody reached the metric in the date range' }] }).server })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Nobody reached the metric in the date range')
    expect(screen.queryByRole('navigation', { name: 'Scoring model' })).toBeNull()
    expect((screen.getByRole('button', { name: 'Rebuild model' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('an unknown model is said so under the heading, with the way back', async () => {
    renderRoutes(routes, '/organizations/acme/scoring/nope/settings', { server: scoringServer().server })
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Scoring Models' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('Scoring model not found')
    expect(screen.getByRole('link', { name: 'All scoring models' }).getAttribute('href')).toBe('/organizations/acme/scoring')
  })

  it("Delete asks 'Are you sure you want to delete the scoring model \"{name}\"?', deletes, says 'Scoring model has been deleted' and goes to the gallery", async () => {
    const s = scoringServer({ models: [COMPLETED] })
    const { router } = renderRoutes(routes, MODEL, { server: s.server })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete scoring model' }))
    expect(dialog.getByText('Are you sure you want to delete the scoring model "Who upgrades"?')).toBeTruthy()
    fireEvent.click(dialog.getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/scoring'))
    expect(s.server.callsTo('DELETE', `${BASE}/scoring-model/a1`)).toHaveLength(1)
    expect(snackbarTexts()).toContain('Scoring model has been deleted')
    expect(await screen.findByText('No scoring models found', {}, { timeout: 3000 })).toBeTruthy()
  })
})

describe('Correlation', () => {
  it('shows the summary, Fit disabled and Activity active, and the rating counts', async () => {
    renderRoutes(routes, MODEL, { server: scoringServer({ models: [COMPLETED] }).server })
    const summary = within(await screen.findByRole('region', { name: 'Summary' }))
    const facts = Object.fromEntries(summary.getAllByRole('term').map((t) => [t.textContent, t.nextElementSibling?.firstElementChild?.textContent]))
    expect(facts).toEqual({
      'Date range': 'Feb 1, 2026 – Mar 2, 2026',
      'Training data size': '1,600',
      'Audience size': '2,000',
      'Total factors': '57',
      Accuracy: '87.3%',
      AUC: '91.0%',
    })
    const mode = within(screen.getByRole('radiogroup', { name: 'Mode' }))
    expect((mode.getByRole('radio', { name: 'Fit' }) as HTMLButtonElement).disabled).toBe(true)
    expect(mode.getByRole('radio', { name: 'Activity' }).getAttribute('aria-checked')).toBe('true')
    expect(within(screen.getByRole('list', { name: 'Rating counts' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Poor30', 'Fair5', 'Good5', 'Excellent5'])
  })

  it('pages the events by 20 and searches them, back to page 1 on a new search', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    renderRoutes(routes, MODEL, { server: s.server })
    await waitFor(() => expect(rows()).toHaveLength(20))
    expect(within(grid()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['In model', 'Event name', 'Importance'])
    expect(firstCells()[0]).toBe('Event 01')
    expect(screen.getByText('1–20 of 45')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(firstCells().map((c) => c.replace(/Left out: .*/, ''))).toEqual(['Event 41', 'Event 42', 'Event 43', 'Event 44', 'Event 45']))
    expect(s.server.calls.at(-1)!.query.get('page')).toBe('3')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'Event 1' } })
    await waitFor(() => expect(firstCells()[0]).toBe('Event 10'))
    expect(screen.getByText('1–10 of 10')).toBeTruthy()
    const last = s.server.calls.filter((c) => c.path.endsWith('/activity/events')).at(-1)!
    expect([last.query.get('page'), last.query.get('search')]).toEqual(['1', 'Event 1'])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'zzz' } })
    expect(await screen.findByText('No events found')).toBeTruthy()
  })

  it('expands an event into its properties and a property into its values, each with its rating', async () => {
    renderRoutes(routes, MODEL, { server: scoringServer({ models: [COMPLETED] }).server })
    fireEvent.click(await screen.findByRole('button', { name: 'Event 01' }))
    const props = within(screen.getByRole('list', { name: 'Properties of Event 01' }))
    expect(props.getAllByRole('listitem').map(text)).toEqual(['planGood', 'sourcePoor'])
    fireEvent.click(props.getByRole('button', { name: 'plan' }))
    const values = within(screen.getByRole('list', { name: 'Values of Event 01 plan' }))
    expect(values.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['proExcellent', 'freePoor'])
    expect(values.getByText('Excellent').dataset.rating).toBe('excellent')
    fireEvent.click(props.getByRole('button', { name: 'plan' }))
    expect(screen.queryByRole('list', { name: 'Values of Event 01 plan' })).toBeNull()
  })

  it("edits the selections by part 3 §4's rules, sends nothing until 'Rebuild model', then sends them and says 'Rebuilding model...'", async () => {
    const s = scoringServer({ models: [COMPLETED], detail: { featureSelections: { excludedEvents: ['Event 02'], includedProperties: [{ event: 'Event 01', property: 'plan' }] } } })
    renderRoutes(routes, MODEL, { server: s.server })
    await waitFor(() => expect(box('Event 01').checked).toBe(true))
    expect(box('Event 02').checked).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Event 01' }))
    expect(box('Event 01 plan').checked).toBe(true)
    expect(box('Event 01 source').checked).toBe(false)
    // An event off: excluded, and its included properties removed.
    fireEvent.click(box('Event 01'))
    expect(box('Event 01').checked).toBe(false)
    expect(box('Event 01 plan').checked).toBe(false)
    // A property on: included, and its event back in.
    fireEvent.click(box('Event 01 source'))
    expect(box('Event 01').checked).toBe(true)
    expect(box('Event 01 source').checked).toBe(true)
    expect(box('Event 01 plan').checked).toBe(false)
    fireEvent.click(box('Event 02'))
    fireEvent.click(box('Event 03'))
    // The choices survive a change of tab; nothing was sent.
    fireEvent.click(screen.getByRole('link', { name: 'Settings' }))
    await screen.findByLabelText('Model name')
    fireEvent.click(screen.getByRole('link', { name: 'Correlation' }))
    await waitFor(() => expect(box('Event 03').checked).toBe(false))
    expect(rebuilds(s)).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: 'Rebuild model' }))
    await waitFor(() => expect(snackbarTexts()).toContain('Rebuilding model...'))
    expect(rebuilds(s).map((c) => c.body)).toEqual([{ featureSelections: { excludedEvents: ['Event 03'], includedProperties: [{ event: 'Event 01', property: 'source' }] } }])
    // The rebuild queued a run: the gate shows the loading view.
    expect(await screen.findByRole('status', { name: 'Training model' })).toBeTruthy()
  })

  it("a failed rebuild says 'An error has occurred' and keeps the choices", async () => {
    const s = scoringServer({ models: [COMPLETED] })
    s.server.on('POST', /\/rebuild-model$/, { status: 500, body: { success: false, message: 'boom', errors: [] } })
    renderRoutes(routes, MODEL, { server: s.server })
    await waitFor(() => expect(box('Event 01').checked).toBe(true))
    fireEvent.click(box('Event 01'))
    fireEvent.click(screen.getByRole('button', { name: 'Rebuild model' }))
    await waitFor(() => expect(snackbarTexts()).toContain('An error has occurred'))
    expect(box('Event 01').checked).toBe(false)
    expect(screen.getByRole('navigation', { name: 'Scoring model' })).toBeTruthy()
  })
})

describe('Model output', () => {
  it('shows the rating shares, the users by rank with score bars and links to their events, paged and searched', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    renderRoutes(routes, `${MODEL}/model-output`, { server: s.server })
    const shares = within(await screen.findByRole('list', { name: 'Rating shares' }))
    expect(shares.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Poor20%6 users', 'Fair27%8 users', 'Good27%8 users', 'Excellent27%8 users'])
    await waitFor(() => expect(rows()).toHaveLength(20))
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Rank', 'Score', 'User'])
    const first = within(rows()[0]!)
    expect(first.getByRole('meter', { name: 'Score' }).getAttribute('aria-valuenow')).toBe('100')
    expect(first.getByText('Excellent')).toBeTruthy()
    expect(first.getByText('100%')).toBeTruthy()
    expect(first.getByRole('link', { name: 'Person 1' }).getAttribute('href')).toBe('/organizations/acme/people-ai/users/user-1/events')
    // A user without a name shows their id.
    expect(within(rows()[2]!).getByRole('link', { name: 'user-3' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(screen.getByText('21–30 of 30')).toBeTruthy())
    expect(within(rows()[0]!).getByRole('link').textContent).toBe('Person 21')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'Person 2' } })
    await waitFor(() => expect(screen.getByText('1–11 of 11')).toBeTruthy())
    const last = s.server.calls.filter((c) => c.path.endsWith('/model-output')).at(-1)!
    expect([last.query.get('page'), last.query.get('search')]).toEqual(['1', 'Person 2'])
    // The shares stay on screen while a page loads.
    expect(screen.getByRole('list', { name: 'Rating shares' })).toBeTruthy()
  })

  it("expands a row into the user's images", async () => {
    renderRoutes(routes, `${MODEL}/model-output`, { server: scoringServer({ models: [COMPLETED] }).server })
    fireEvent.click(await screen.findByRole('button', { name: '1' }))
    const images = await screen.findAllByRole('img', { name: /^Person 1: / })
    expect(images.map((i) => i.getAttribute('src'))).toEqual([`${BASE}/scoring-model/a1/model-output/user-1/images/factors.png`, `${BASE}/scoring-model/a1/model-output/user-1/images/score.png`])
    fireEvent.click(screen.getByRole('button', { name: '1' }))
    expect(screen.queryAllByRole('img', { name: /^Person 1: / })).toHaveLength(0)
  })
})

describe('Settings', () => {
  it('shows Model name, Metric, Date range and Excluded audience as saved, and saves changes with saveSettings', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    renderRoutes(routes, `${MODEL}/settings`, { server: s.server })
    const name = (await screen.findByLabelText('Model name')) as HTMLInputElement
    expect(name.value).toBe('Who upgrades')
    expect((screen.getByLabelText('Metric') as HTMLSelectElement).value).toBe('m-upgrades')
    expect(within(screen.getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { checked: true }).textContent).toBe('30D')
    expect((screen.getByRole('combobox', { name: 'Exclusion 1 trait' }) as HTMLInputElement).value).toBe('plan')
    expect((screen.getByRole('combobox', { name: 'Exclusion 1 value' }) as HTMLInputElement).value).toBe('enterprise')
    fireEvent.change(name, { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(document.getElementById('field-name-error')?.textContent).toBe('Analysis name must be provided'))
    fireEvent.change(name, { target: { value: 'Upgraders' } })
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { name: '6M' }))
    fireEvent.click(screen.getByRole('button', { name: 'Remove exclusion 1' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(s.server.calls.filter((c) => c.path.endsWith('/settings/saveSettings'))).toHaveLength(1))
    expect(s.server.calls.find((c) => c.path.endsWith('/settings/saveSettings'))!.body).toEqual({
      name: 'Upgraders',
      metricId: 'm-upgrades',
      dateRange: 'last6Months',
      excludedAudience: { filters: [], aggregate: 'and', audienceType: 'user' },
      refresh: 'daily',
    })
  })

  it("offers 'Refresh ratings' with the model's schedule, says when the ratings were last refreshed, and saves the choice with the rest", async () => {
    const s = scoringServer({ models: [COMPLETED], detail: { scoredAt: '2026-11-24T03:04:00.000Z', trainedAt: '2026-11-20T10:00:00.000Z' } })
    s.server.on('GET', /\/scoring-model\/[^/]+\/settings$/, { body: { ...SETTINGS, refresh: 'weekly' } })
    renderRoutes(routes, `${MODEL}/settings`, { server: s.server })
    const refresh = (await screen.findByLabelText('Refresh ratings')) as HTMLSelectElement
    expect(refresh.value).toBe('weekly')
    expect(within(refresh).getAllByRole('option').map((o) => o.textContent)).toEqual(['Every day', 'Every week', 'Only when the model is rebuilt'])
    // When the users were last scored: in the header, and under the choice.
    expect(screen.getAllByTestId('ratings-refreshed').map((e) => e.textContent)).toEqual(['Ratings refreshed Nov 24, 2026', 'Ratings refreshed Nov 24, 2026'])
    expect(screen.getAllByTestId('ratings-refreshed')[0]!.querySelector('time')!.getAttribute('dateTime')).toBe('2026-11-24T03:04:00.000Z')
    fireEvent.change(refresh, { target: { value: 'off' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(s.server.calls.filter((c) => c.path.endsWith('/settings/saveSettings'))).toHaveLength(1))
    expect(s.server.calls.find((c) => c.path.endsWith('/settings/saveSettings'))!.body).toMatchObject({ name: 'Who upgrades', metricId: 'm-upgrades', refresh: 'off' })
  })

  it('says under the fields whether the model as set can learn, and holds back a change the check says cannot be learned', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    renderRoutes(routes, `${MODEL}/settings`, { server: s.server })
    await screen.findByLabelText('Model name')
    const guidance = () => screen.getByRole('status', { name: 'Can this model learn?' })
    const save = () => screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement
    const saves = () => s.server.calls.filter((c) => c.path.endsWith('/settings/saveSettings'))
    // The setting as saved: the same question as the run dialog asks, the same green sentence.
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    expect(s.server.callsTo('POST', `${BASE}/scoring-models/check`).at(-1)!.body).toEqual({ metricId: 'm-upgrades', dateRange: 'last30Days', excludedAudience: SETTINGS.excludedAudience })
    // 7 days: too few reach it. The sentence in amber, the ranges that would work, Save held back and described by it.
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { name: '7D' }))
    await waitFor(() => expect(guidance().dataset.learnable).toBe('false'))
    expect(guidance().textContent).toContain('Only 3 of the 1,900 users active before Feb 23, 2026 reached "Upgrades"')
    expect(save().disabled).toBe(true)
    expect(save().getAttribute('aria-describedby')).toBe(guidance().id)
    fireEvent.submit(screen.getByRole('form', { name: 'Model settings' }))
    await new Promise((r) => setTimeout(r, 50))
    expect(saves()).toHaveLength(0)
    // Picking a range it offers frees Save, and that range is saved.
    fireEvent.click(within(within(guidance()).getByRole('group', { name: 'Date ranges that can be learned' })).getByRole('button', { name: '3M' }))
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    expect(save().disabled).toBe(false)
    fireEvent.click(save())
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]!.body).toMatchObject({ metricId: 'm-upgrades', dateRange: 'last3Months' })
  })

  it('a model whose saved setting cannot be learned now is warned about, but a new name still saves (it does not train again)', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    s.server.on('GET', /\/scoring-model\/[^/]+\/settings$/, { body: { ...SETTINGS, metric: { metricId: 'm-signups', name: 'Sign-ups' } } })
    renderRoutes(routes, `${MODEL}/settings`, { server: s.server })
    fireEvent.change(await screen.findByLabelText('Model name'), { target: { value: 'Renamed' } })
    await waitFor(() => expect(screen.getByRole('status', { name: 'Can this model learn?' }).dataset.learnable).toBe('false'))
    const save = screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement
    expect(save.disabled).toBe(false)
    fireEvent.click(save)
    await waitFor(() => expect(s.server.calls.filter((c) => c.path.endsWith('/settings/saveSettings'))).toHaveLength(1))
    expect(s.server.calls.find((c) => c.path.endsWith('/settings/saveSettings'))!.body).toMatchObject({ name: 'Renamed', metricId: 'm-signups' })
  })

  it('a model never scored yet says so under the choice, and nothing in the header', async () => {
    renderRoutes(routes, `${MODEL}/settings`, { server: scoringServer({ models: [COMPLETED] }).server })
    await screen.findByLabelText('Refresh ratings')
    expect(screen.queryByTestId('ratings-refreshed')).toBeNull()
    expect(document.getElementById('refresh-hint')!.textContent).toContain('Not scored yet.')
  })
})
