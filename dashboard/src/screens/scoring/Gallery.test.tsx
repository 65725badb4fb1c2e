import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ratingsOf } from '@fl0/contracts/scoring'
import { routes } from '../../routes.tsx'
import { renderRoutes } from '../../test/render.tsx'
import { BASE, COMPLETED, scoringServer } from './testServer.ts'

const GALLERY = '/organizations/acme/scoring'
const card = (name: string) => within(screen.getByRole('article', { name }))
const dialog = () => within(screen.getByRole('dialog', { name: 'Run new scoring model' }))
const errorOf = (id: string) => document.getElementById(`field-${id}-error`)?.textContent
const snackbars = () => [...document.querySelectorAll('[data-kind]')].map((e) => e.textContent)

afterEach(() => {
  vi.useRealTimers()
})

describe('scoring gallery', () => {
  it("shows 'AI Scoring Models', 'New model' and 'No scoring models found' when there are none", async () => {
    renderRoutes(routes, GALLERY, { server: scoringServer().server })
    // The first render of the file loads the area's chunk: given longer.
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Scoring Models' }, { timeout: 5000 })).toBeTruthy()
    expect(await screen.findByText('No scoring models found')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'New model' })).toBeTruthy()
  })

  it('shows each card by status: a loading indicator, the error, or the ratings donut with the user count and percentages', async () => {
    const models = [
      { ...COMPLETED, analysisId: 'p', name: 'Queued', status: 'pending' as const, totalUsers: 0, ratings: [] },
      { ...COMPLETED, analysisId: 'r', name: 'Training', status: 'running' as const, totalUsers: 0, ratings: [] },
      { ...COMPLETED, analysisId: 'f', name: 'Broken', status: 'failed' as const, error: 'Nobody reached the metric in the date range' },
      COMPLETED,
    ]
    renderRoutes(routes, GALLERY, { server: scoringServer({ models }).server })
    await screen.findByRole('article', { name: 'Who upgrades' })
    expect(card('Queued').getByRole('status')).toBeTruthy()
    expect(card('Training').getByRole('status')).toBeTruthy()
    expect(card('Broken').getByRole('alert').textContent).toBe('Nobody reached the metric in the date range')
    const done = card('Who upgrades')
    expect(done.getByRole('img', { name: 'Ratings of 200 users' })).toBeTruthy()
    expect(done.getByRole('img').textContent).toContain('200')
    expect(within(done.getByRole('list', { name: 'Ratings' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Poor50%', 'Fair25%', 'Good15%', 'Excellent10%'])
    // The arcs in the spec's colours, each as long as its share.
    const arcs = [...done.getByRole('img').querySelectorAll('circle[data-rating]')]
    expect(arcs.map((a) => [a.getAttribute('data-rating'), a.getAttribute('stroke')])).toEqual([
      ['poor', '#dc2626'],
      ['fair', '#ea580c'],
      ['good', '#9333ea'],
      ['excellent', '#16a34a'],
    ])
    const lengths = arcs.map((a) => Number(a.getAttribute('stroke-dasharray')!.split(' ')[0]))
    expect(lengths[0]! / lengths[3]!).toBeCloseTo(5)
    expect(done.getByRole('link', { name: 'Who upgrades' }).getAttribute('href')).toBe('/organizations/acme/scoring/a1')
  })

  it('says beside the ratings when they fall short of the bar, or too few reached the metric to judge, with the way to Correlation', async () => {
    const models = [
      { ...COMPLETED, analysisId: 'n', name: 'Short', verdict: 'notMet' as const },
      { ...COMPLETED, analysisId: 't', name: 'Thin', verdict: 'tooFew' as const },
      { ...COMPLETED, analysisId: 'm', name: 'Good', verdict: 'met' as const },
      { ...COMPLETED, analysisId: 'o', name: 'Old', verdict: null },
    ]
    renderRoutes(routes, GALLERY, { server: scoringServer({ models }).server })
    await screen.findByRole('article', { name: 'Old' })
    const line = (name: string) => screen.getByRole('article', { name }).querySelector('[data-verdict]')
    expect(line('Short')!.textContent).toBe('Ratings fall short of the bar for a good model\u00a0— see Correlation')
    expect(card('Short').getByRole('link', { name: 'see Correlation' }).getAttribute('href')).toBe('/organizations/acme/scoring/n')
    expect(line('Thin')!.textContent).toBe('Too few users reached the metric to judge these ratings\u00a0— see Correlation')
    expect(line('Short')!.className).toContain('amber')
    expect(line('Good')!.textContent).toBe('✓ Ratings meet the bar for a good model')
    // A model trained before verdicts says nothing either way.
    expect(line('Old')).toBeNull()
  })

  it("draws a completed card's donut from the model's own call (GET …/scoring-models/{analysisId} -> ratings, totalUsers); other cards do not ask", async () => {
    const models = [{ ...COMPLETED, analysisId: 'p', name: 'Queued', status: 'pending' as const, totalUsers: 0, ratings: [] }, { ...COMPLETED, analysisId: 'f', name: 'Broken', status: 'failed' as const, error: 'x' }, COMPLETED]
    const s = scoringServer({ models })
    s.server.on('GET', `${BASE}/scoring-models/a1`, { body: { status: 'completed', totalUsers: 400, ratings: ratingsOf({ poor: 100, fair: 100, good: 100, excellent: 100 }) } })
    renderRoutes(routes, GALLERY, { server: s.server })
    await waitFor(() => expect(card('Who upgrades').getByRole('img', { name: 'Ratings of 400 users' })).toBeTruthy())
    expect(within(card('Who upgrades').getByRole('list', { name: 'Ratings' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Poor25%', 'Fair25%', 'Good25%', 'Excellent25%'])
    expect(s.server.callsTo('GET', `${BASE}/scoring-models/a1`)).toHaveLength(1)
    expect(s.server.calls.filter((c) => /\/scoring-models\/(p|f)$/.test(c.path))).toEqual([])
  })

  it('asks for the list again while a model trains, until its card shows the donut; then no more', async () => {
    // Fake timers that move with the clock, so the test can also jump ahead.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const s = scoringServer({ models: [{ ...COMPLETED, status: 'running', totalUsers: 0, ratings: [] }] })
    renderRoutes(routes, GALLERY, { server: s.server })
    await waitFor(() => expect(card('Who upgrades').getByRole('status')).toBeTruthy())
    s.setStatus('a1', 'completed')
    await waitFor(() => expect(card('Who upgrades').getByRole('img', { name: 'Ratings of 200 users' })).toBeTruthy(), { timeout: 6000 })
    const polls = s.server.callsTo('GET', `${BASE}/scoring-models`).length
    await act(() => vi.advanceTimersByTimeAsync(20_000))
    expect(s.server.callsTo('GET', `${BASE}/scoring-models`).length).toBe(polls)
  })
})

describe("'Run new scoring model'", () => {
  async function open() {
    const s = scoringServer()
    renderRoutes(routes, GALLERY, { server: s.server })
    fireEvent.click(await screen.findByRole('button', { name: 'New model' }))
    await dialog().findByLabelText('Metric')
    return s
  }
  const run = () => fireEvent.click(dialog().getByRole('button', { name: 'Run model' }))

  it('asks for Name, Metric, Date range and Excluded audience; the rules and messages of part 3 §5 before anything is sent', async () => {
    const s = await open()
    expect(dialog().getByLabelText('Name')).toBeTruthy()
    expect(dialog().getByRole('radiogroup', { name: 'Date range' })).toBeTruthy()
    expect(dialog().getByRole('group', { name: 'Excluded audience' })).toBeTruthy()
    run()
    await waitFor(() => expect(errorOf('name')).toBe('Analysis name must be provided'))
    expect(errorOf('metricId')).toBe('Metric must be given')
    fireEvent.change(dialog().getByLabelText('Name'), { target: { value: '   ' } })
    run()
    await waitFor(() => expect(errorOf('name')).toBe('Analysis name must be provided'))
    fireEvent.change(dialog().getByLabelText('Name'), { target: { value: 'x'.repeat(51) } })
    run()
    await waitFor(() => expect(errorOf('name')).toBe('Analysis name must have at most 50 characters'))
    expect(s.server.callsTo('POST', `${BASE}/scoring-models/create-new-model`)).toHaveLength(0)
  })

  it('offers the metrics, those not enabled disabled; choosing one fills an empty name, and only an empty one', async () => {
    await open()
    const options = within(dialog().getByLabelText('Metric')).getAllByRole('option') as HTMLOptionElement[]
    expect(options.map((o) => [o.textContent, o.disabled])).toEqual([
      ['Choose a metric', true],
      ['Upgrades', false],
      ['Active users (counts no events)', true],
      ['Sign-ups', false],
    ])
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    expect((dialog().getByLabelText('Name') as HTMLInputElement).value).toBe('Upgrades')
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-signups' } })
    expect((dialog().getByLabelText('Name') as HTMLInputElement).value).toBe('Upgrades')
    fireEvent.change(dialog().getByLabelText('Name'), { target: { value: '' } })
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    expect((dialog().getByLabelText('Name') as HTMLInputElement).value).toBe('Upgrades')
  })

  it('sends only the excluded-audience filters with trait, operation and value; the new model shows as a loading card', async () => {
    const s = await open()
    fireEvent.change(dialog().getByLabelText('Name'), { target: { value: '  Upgraders  ' } })
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    fireEvent.click(within(dialog().getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { name: '3M' }))
    const add = () => fireEvent.click(dialog().getByRole('button', { name: 'Add filter' }))
    // 1: finished. 2: no value. 3: no operation. 4: a value-less operation. 5: a range with one end.
    add(); add(); add(); add(); add() // prettier-ignore
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 1 trait' }), { target: { value: 'plan' } })
    await waitFor(() => expect((within(dialog().getByLabelText('Exclusion 1 operation')).getAllByRole('option') as HTMLOptionElement[]).map((o) => o.value)).toContain('contains'))
    fireEvent.change(dialog().getByLabelText('Exclusion 1 operation'), { target: { value: 'is' } })
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 1 value' }), { target: { value: 'enterprise' } })
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 2 trait' }), { target: { value: 'plan' } })
    fireEvent.change(dialog().getByLabelText('Exclusion 2 operation'), { target: { value: 'contains' } })
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 3 trait' }), { target: { value: 'plan' } })
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 4 trait' }), { target: { value: 'plan' } })
    fireEvent.change(dialog().getByLabelText('Exclusion 4 operation'), { target: { value: 'is_set' } })
    expect(dialog().queryByRole('combobox', { name: 'Exclusion 4 value' })).toBeNull()
    fireEvent.change(dialog().getByRole('combobox', { name: 'Exclusion 5 trait' }), { target: { value: 'seats' } })
    fireEvent.change(dialog().getByLabelText('Exclusion 5 operation'), { target: { value: 'between' } })
    fireEvent.change(dialog().getByLabelText('Exclusion 5 value'), { target: { value: '5' } })
    fireEvent.click(within(dialog().getByRole('radiogroup', { name: 'Aggregate' })).getByRole('radio', { name: 'Any (or)' }))
    run()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(s.server.callsTo('POST', `${BASE}/scoring-models/create-new-model`)[0]!.body).toEqual({
      name: 'Upgraders',
      metricId: 'm-upgrades',
      dateRange: 'last3Months',
      excludedAudience: {
        filters: [
          { trait: 'plan', operation: 'is', value: 'enterprise' },
          { trait: 'plan', operation: 'is_set', value: true },
        ],
        aggregate: 'or',
        audienceType: 'user',
      },
      refresh: 'daily',
    })
    await waitFor(() => expect(card('Upgraders').getByRole('status')).toBeTruthy())
  })

  it("a server's refusal shows beside the field it names", async () => {
    const s = await open()
    s.server.on('POST', `${BASE}/scoring-models/create-new-model`, {
      status: 400,
      body: { success: false, message: 'This metric cannot be used for scoring: it counts no events', errors: [{ name: 'metricId', message: 'This metric cannot be used for scoring: it counts no events' }] },
    })
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-signups' } })
    run()
    await waitFor(() => expect(errorOf('metricId')).toBe('This metric cannot be used for scoring: it counts no events'))
    expect(screen.getByRole('dialog')).toBeTruthy()
    expect(snackbars()).toEqual([])
  })
})
