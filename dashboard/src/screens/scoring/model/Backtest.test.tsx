import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ratingQualityText, SCORING_EXPLAIN } from '@fl0/contracts/scoring'
import { routes } from '../../../routes.tsx'
import { renderRoutes } from '../../../test/render.tsx'
import { BACKTEST, BASE, COMPLETED, scoringServer } from '../testServer.ts'

const BACKTEST_TAB = '/organizations/acme/scoring/a1/backtest-predictions'
/** The verdict's sentence (its mark beside it is decoration). */
const sentence = (note: HTMLElement) => note.querySelector('p')!.textContent
const fact = (label: string) => document.querySelector(`[data-fact="${label}"]`)!
const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent)

async function open() {
  const s = scoringServer({ models: [COMPLETED] })
  renderRoutes(routes, BACKTEST_TAB, { server: s.server })
  await screen.findByRole('region', { name: 'Backtest summary' }, { timeout: 5000 })
  return s
}

describe('Backtest predictions', () => {
  it('shows the periods, users, accuracy beside its baseline and AUC, explained', async () => {
    await open()
    const summary = within(screen.getByRole('region', { name: 'Backtest summary' }))
    expect(summary.getAllByRole('term').map((t) => [t.textContent, t.nextElementSibling!.firstElementChild!.textContent])).toEqual([
      ['Trained on', 'Jan 2, 2026 – Jan 31, 2026'],
      ['Predicted', 'Feb 1, 2026 – Mar 2, 2026'],
      ['Users', '2,400'],
      ['Reached the metric', '13.2%'],
      ['Accuracy', '91.1%'],
      ['AUC', '87.4%'],
    ])
    expect(fact('Accuracy').textContent).toContain('vs 86.8% always-no baseline')
    expect(fact('Accuracy').textContent).toContain('Share of backtest users the model labels right')
    expect(fact('AUC').textContent).toContain(SCORING_EXPLAIN.auc)
  })

  it("titles 'Prediction accuracy' once, draws it as a chart with the buckets' table, and offers the server's image as a download", async () => {
    await open()
    expect(screen.getAllByText('Prediction accuracy')).toHaveLength(1)
    expect(screen.getByRole('heading', { level: 2, name: 'Prediction accuracy' })).toBeTruthy()
    expect(screen.getByRole('img', { name: 'Prediction accuracy by score' }).dataset.buckets).toBe('10')
    // The server's picture is not shown beside the chart: a link to it.
    expect(screen.queryByRole('img', { name: 'Prediction accuracy' })).toBeNull()
    const download = screen.getByRole('link', { name: 'Download image' })
    expect([download.getAttribute('href'), download.hasAttribute('download')]).toEqual([`${BASE}/scoring-model/a1/backtest-image`, true])
    const table = screen.getByRole('table', { name: 'Users by score' })
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Score', 'Users', 'Mean predicted', 'Reached', 'Actual rate'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(10)
    // Highest scores first; an empty tenth has no mean or rate.
    expect(cells(rows[0]!)).toEqual(['90–100%', '0', '–', '0', '–'])
    expect(cells(rows[8]!)).toEqual(['10–20%', '400', '14.0%', '48', '12.0%'])
    expect(cells(rows[9]!)).toEqual(['0–10%', '1,200', '4.0%', '24', '2.0%'])
  })

  it("shows the backtest's lift by rating and its verdict on backtest users", async () => {
    await open()
    const lift = within(screen.getByRole('region', { name: 'Lift by rating' }))
    expect(lift.getByText(SCORING_EXPLAIN.lift.replace('held-out users', 'backtest users'))).toBeTruthy()
    expect(lift.getByRole('rowheader', { name: 'All backtest users' })).toBeTruthy()
    expect(sentence(lift.getByRole('note', { name: 'Verdict' }))).toBe(ratingQualityText(BACKTEST.quality, 'backtest users'))
  })

  it('lists the top predictions 20 a page, scores as whole percents as on Model output, each user linking to their events', async () => {
    await open()
    const top = within(screen.getByRole('region', { name: 'Top predictions' }))
    expect(top.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Rank', 'User', 'Score', 'Predicted to reach', 'Reached'])
    const rows = () => top.getAllByRole('row').slice(1)
    expect(rows()).toHaveLength(20)
    expect(cells(rows()[0]!)).toEqual(['1', 'user-1', '99%', 'Yes', 'Yes'])
    expect(cells(rows()[2]!)).toEqual(['3', 'user-3', '97%', 'Yes', 'No'])
    expect(top.getByRole('link', { name: 'user-1' }).getAttribute('href')).toBe('/organizations/acme/people-ai/users/user-1/events')
    expect(top.getByText('1–20 of 45')).toBeTruthy()
    fireEvent.click(top.getByRole('button', { name: 'Next page' }))
    fireEvent.click(top.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(top.getByText('41–45 of 45')).toBeTruthy())
    expect(cells(rows()[0]!)).toEqual(['41', 'user-41', '59%', 'No', 'Yes'])
  })

  it('keeps the raw JSON closed until asked for, and closes it again', async () => {
    await open()
    expect(screen.queryByLabelText('Predictions JSON')).toBeNull()
    const toggle = screen.getByRole('button', { name: 'Show JSON' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    expect(JSON.parse(screen.getByLabelText('Predictions JSON').textContent!)).toEqual(BACKTEST)
    expect(screen.getByRole('button', { name: 'Hide JSON' }).getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Hide JSON' }))
    expect(screen.queryByLabelText('Predictions JSON')).toBeNull()
  })

  it('a model without a backtest shows the server\'s reason, and no chart', async () => {
    const s = scoringServer({ models: [COMPLETED] })
    s.server.on('GET', /\/backtest-predictions$/, { status: 404, body: { success: false, message: 'This scoring model has no backtest', errors: [] } })
    renderRoutes(routes, BACKTEST_TAB, { server: s.server })
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe('This scoring model has no backtest')
    expect(screen.queryByRole('img', { name: 'Prediction accuracy by score' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Download image' })).toBeNull()
  })
})
