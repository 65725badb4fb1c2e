import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { LineChart } from './LineChart.tsx'

describe('LineChart', () => {
  it('is an image named by its label, carrying its points (drawn by uPlot where a canvas exists)', () => {
    render(<LineChart label="Events (last 30 days)" points={[{ date: '2026-11-01', value: 3 }, { date: '2026-11-02', value: 5 }]} />)
    const chart = screen.getByRole('img', { name: 'Events (last 30 days)' })
    expect(chart.dataset.points).toBe('2')
  })
})
