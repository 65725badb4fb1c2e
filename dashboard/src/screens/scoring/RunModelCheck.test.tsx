import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { deferred } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import { BASE, checkOf, scoringServer } from './testServer.ts'
import type { ScoringCheckRequest } from '../../api/types.ts'

const dialog = () => within(screen.getByRole('dialog', { name: 'Run new scoring model' }))
const guidance = () => dialog().getByRole('status', { name: 'Can this model learn?' })
const runButton = () => dialog().getByRole('button', { name: 'Run model' }) as HTMLButtonElement
const checks = (s: ReturnType<typeof scoringServer>) => s.server.callsTo('POST', `${BASE}/scoring-models/check`)
const range = (label: string) => fireEvent.click(within(dialog().getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { name: label }))

async function open(s = scoringServer()) {
  renderRoutes(routes, '/organizations/acme/scoring', { server: s.server })
  fireEvent.click(await screen.findByRole('button', { name: 'New model' }, { timeout: 5000 }))
  await dialog().findByLabelText('Metric')
  return s
}

describe("'Run new scoring model' asks whether the model can learn", () => {
  it('says nothing before a metric is chosen; then says in green what the model learns from, Run model offered', async () => {
    const s = await open()
    expect(dialog().queryByRole('status', { name: 'Can this model learn?' })).toBeNull()
    expect(checks(s)).toHaveLength(0)
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    expect(guidance().textContent).toBe('A model learns from the 1,600 users active before Feb 1, 2026: 200 of them (12.5%) reached "Upgrades" between Feb 1, 2026 and Mar 2, 2026.')
    expect(guidance().className).toContain('green')
    expect(runButton().disabled).toBe(false)
    expect(checks(s).map((c) => c.body)).toEqual([{ metricId: 'm-upgrades', dateRange: 'last30Days', excludedAudience: { filters: [], aggregate: 'and', audienceType: 'user' } }])
  })

  it('a metric that cannot be learned: the sentence in amber, Run model disabled and described by it, no range to point at', async () => {
    await open()
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-signups' } })
    await waitFor(() => expect(guidance().dataset.learnable).toBe('false'))
    expect(guidance().textContent).toContain('None of the 1,600 users active before Feb 1, 2026 reached "Sign-ups"')
    expect(guidance().textContent).toContain('No date range offered can be learned with this metric: choose another metric.')
    expect(guidance().className).toContain('amber')
    expect(runButton().disabled).toBe(true)
    expect(runButton().getAttribute('aria-describedby')).toBe(guidance().id)
  })

  it('a date range that cannot be learned points at those that can, by their labels; picking one asks again and frees Run model', async () => {
    const s = await open()
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    range('7D')
    await waitFor(() => expect(guidance().dataset.learnable).toBe('false'))
    expect(guidance().textContent).toContain('Only 3 of the 1,900 users active before Feb 23, 2026 reached "Upgrades"')
    expect(runButton().disabled).toBe(true)
    const others = within(within(guidance()).getByRole('group', { name: 'Date ranges that can be learned' }))
    expect(others.getAllByRole('button').map((b) => b.textContent)).toEqual(['30D', '3M', '6M', 'Year'])
    expect(others.getByRole('button', { name: '3M' }).getAttribute('title')).toBe('1,100 users active before it, 138 of whom reached the metric in it')
    fireEvent.click(others.getByRole('button', { name: '3M' }))
    expect(within(dialog().getByRole('radiogroup', { name: 'Date range' })).getByRole('radio', { checked: true }).textContent).toBe('3M')
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    expect(runButton().disabled).toBe(false)
    expect((checks(s).at(-1)!.body as ScoringCheckRequest).dateRange).toBe('last3Months')
  })

  it('asks once the fields settle, and aborts the question in flight when they change again; a stale answer never shows', async () => {
    const s = scoringServer()
    const first = deferred<{ body: unknown }>()
    let n = 0
    s.server.on('POST', `${BASE}/scoring-models/check`, (call) => (n++ === 0 ? first.promise : { body: checkOf(call.body as ScoringCheckRequest) }))
    await open(s)
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-signups' } })
    // Quick changes before the pause: one question for the last of them.
    range('3M')
    range('6M')
    await waitFor(() => expect(checks(s)).toHaveLength(1))
    expect((checks(s)[0]!.body as ScoringCheckRequest).dateRange).toBe('last6Months')
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-upgrades' } })
    await waitFor(() => expect(checks(s)).toHaveLength(2))
    expect(checks(s)[0]!.signal!.aborted).toBe(true)
    await waitFor(() => expect(guidance().dataset.learnable).toBe('true'))
    first.resolve({ body: checkOf({ metricId: 'm-signups', dateRange: 'last6Months' }) })
    await new Promise((r) => setTimeout(r, 0))
    expect(guidance().dataset.learnable).toBe('true')
  })

  it('a check that fails is said in grey and does not hold the run back', async () => {
    const s = scoringServer()
    s.server.on('POST', `${BASE}/scoring-models/check`, { status: 503, body: { success: false, message: 'Service unavailable', errors: [] } })
    await open(s)
    fireEvent.change(dialog().getByLabelText('Metric'), { target: { value: 'm-signups' } })
    await waitFor(() => expect(guidance().textContent).toBe('Could not check whether this model can learn: Service unavailable'))
    expect(guidance().dataset.learnable).toBeUndefined()
    expect(runButton().disabled).toBe(false)
  })
})
