import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LEAK_TEXT, ratingQualityText, SCORING_EXPLAIN } from '@fl0/contracts/scoring'
import { routes } from '../../../routes.tsx'
import { renderRoutes } from '../../../test/render.tsx'
import { NOT_MEASURED } from './LiftByRating.tsx'
import { COMPLETED, CORRELATION, MET, NOT_MET, qualityOf, scoringServer } from '../testServer.ts'

const MODEL = '/organizations/acme/scoring/a1'
/** The verdict's sentence (its mark beside it is decoration). */
const sentence = (note: HTMLElement) => note.querySelector('p')!.textContent
const fact = (label: string) => document.querySelector(`[data-fact="${label}"]`)!
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent)

function withCorrelation(quality = MET, extra: Partial<typeof CORRELATION> = {}) {
  const s = scoringServer({ models: [COMPLETED] })
  s.server.on('GET', /\/scoring-model\/[^/]+\/correlation$/, { body: { ...CORRELATION, quality, ...extra } })
  return s
}

describe('Correlation: what a reader needs to judge the model', () => {
  it('shows accuracy beside the always-no baseline and AUC on the held-out users, each with its explanation in plain view', async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation().server })
    await screen.findByRole('region', { name: 'Summary' })
    expect(fact('Accuracy').textContent).toBe(`Accuracy87.3%vs 80.0% always-no baseline${SCORING_EXPLAIN.accuracy}Baseline: ${SCORING_EXPLAIN.baselineAccuracy}`)
    expect(fact('AUC').textContent).toBe(`AUC91.0%on 400 held-out users${SCORING_EXPLAIN.auc}`)
    // Visible text, not a tooltip.
    expect(screen.getByText(SCORING_EXPLAIN.auc).closest('[title]')).toBeNull()
  })

  it('says plainly when accuracy is no better than always answering the commoner outcome', async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation(MET, { accuracy: 0.844, baselineAccuracy: 0.844 }).server })
    await screen.findByRole('region', { name: 'Summary' })
    expect(fact('Accuracy').textContent).toContain('84.4%vs 84.4% always-no baselineno better than the baseline')
  })

  it('names the baseline by the commoner outcome: always-yes when most users reach the metric', async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation(MET, { positiveRate: 0.7, baselineAccuracy: 0.7 }).server })
    await screen.findByRole('region', { name: 'Summary' })
    expect(fact('Accuracy').textContent).toContain('vs 70.0% always-yes baseline')
  })

  it("shows 'Lift by rating' on held-out users, best first, with its explanation and the average, and the met verdict in green", async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation().server })
    const lift = within(await screen.findByRole('region', { name: 'Lift by rating' }))
    expect(lift.getByText(SCORING_EXPLAIN.lift)).toBeTruthy()
    const table = lift.getByRole('table', { name: 'Lift by rating' })
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Rating', 'Users', 'Share', 'Reached', 'Rate', 'Lift'])
    const body = within(table).getAllByRole('row').slice(1)
    expect(body.map((r) => [within(r).getAllByRole('rowheader')[0]!.textContent, ...cells(r)])).toEqual([
      ['Excellent', '40', '10.0%', '30', '75.0%', '4.3×'],
      ['Good', '80', '20.0%', '26', '32.5%', '1.9×'],
      ['Fair', '120', '30.0%', '12', '10.0%', '0.6×'],
      ['Poor', '160', '40.0%', '2', '1.3%', '0.1×'],
      ['All held-out users', '400', '100.0%', '70', '17.5%', '1.0×'],
    ])
    const verdict = lift.getByRole('note', { name: 'Verdict' })
    expect(sentence(verdict)).toBe(ratingQualityText(MET, 'held-out users'))
    expect(sentence(verdict)).toMatch(/^These ratings meet the bar of a good lead-scoring model/)
    expect(verdict.dataset.verdict).toBe('met')
    expect(verdict.className).toContain('green')
  })

  it('ratings that fall short say so in amber, in the sentence of the contract', async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation(NOT_MET).server })
    const verdict = await screen.findByRole('note', { name: 'Verdict' })
    expect(sentence(verdict)).toBe(ratingQualityText(NOT_MET, 'held-out users'))
    expect(sentence(verdict)).toMatch(/^These ratings fall short of the bar/)
    expect(verdict.className).toContain('amber')
    expect(verdict.className).not.toContain('green')
  })

  it('too few who reached the metric: amber, with the counts formatted', async () => {
    const few = qualityOf({ excellent: [400, 3], good: [800, 2], fair: [1200, 1], poor: [1600, 0] })
    renderRoutes(routes, MODEL, { server: withCorrelation(few).server })
    const verdict = await screen.findByRole('note', { name: 'Verdict' })
    expect(sentence(verdict)).toMatch(/^Only 6 of the 4,000 held-out users reached the metric: too few to tell/)
    expect(verdict.className).toContain('amber')
  })
})

describe('Correlation of a model trained before its ratings were measured', () => {
  it('says to rebuild it instead of showing a table of zeros', async () => {
    renderRoutes(routes, MODEL, { server: withCorrelation(qualityOf({ excellent: [0, 0], good: [0, 0], fair: [0, 0], poor: [0, 0] })).server })
    const lift = within(await screen.findByRole('region', { name: 'Lift by rating' }))
    expect(lift.getByRole('note', { name: 'Verdict' }).textContent).toBe(NOT_MEASURED)
    expect(lift.queryByRole('table')).toBeNull()
  })
})

describe('Activity: events left out as leaks of the answer', () => {
  it('badge the event with the reason, and its In model boxes are cleared, disabled and say why', async () => {
    renderRoutes(routes, MODEL, { server: scoringServer({ models: [COMPLETED] }).server })
    const events = within(await screen.findByRole('region', { name: 'Events' }))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'Event 4' } })
    await waitFor(() => expect(events.getByText(LEAK_TEXT.metric)).toBeTruthy())
    expect(events.getByText(LEAK_TEXT.companion)).toBeTruthy()
    const box = (name: string) => events.getByRole('checkbox', { name: `In model: ${name}` }) as HTMLInputElement
    expect([box('Event 44').disabled, box('Event 44').checked, box('Event 44').title, box('Event 44').getAttribute('aria-description')]).toEqual([true, false, LEAK_TEXT.metric, LEAK_TEXT.metric])
    expect([box('Event 45').disabled, box('Event 45').title]).toEqual([true, LEAK_TEXT.companion])
    // Events the model uses carry no badge and stay free to change.
    expect([box('Event 43').disabled, box('Event 43').checked, box('Event 43').title]).toEqual([false, true, ''])
    expect(within(box('Event 43').closest('tr')!).queryByText(/^Left out/)).toBeNull()
    fireEvent.click(events.getByRole('button', { name: 'Event 44' }))
    expect(box('Event 44 plan').disabled).toBe(true)
    expect(box('Event 44 plan').title).toBe(LEAK_TEXT.metric)
  })
})

describe('Model output: the ratings held to the bar', () => {
  it('falls short: the full sentence beside the rating shares', async () => {
    renderRoutes(routes, `${MODEL}/model-output`, { server: withCorrelation(NOT_MET).server })
    await screen.findByRole('list', { name: 'Rating shares' })
    const verdict = await screen.findByRole('note', { name: 'Verdict' })
    expect(sentence(verdict)).toBe(ratingQualityText(NOT_MET, 'held-out users'))
  })

  it('meets the bar: nothing added', async () => {
    const s = withCorrelation(MET)
    renderRoutes(routes, `${MODEL}/model-output`, { server: s.server })
    await screen.findByRole('list', { name: 'Rating shares' })
    await waitFor(() => expect(s.server.calls.some((c) => c.path.endsWith('/correlation'))).toBe(true))
    await screen.findAllByRole('meter', { name: 'Score' })
    expect(screen.queryByRole('note', { name: 'Verdict' })).toBeNull()
  })
})
