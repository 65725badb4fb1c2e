import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { barSlots, SeriesChart, stackOf } from './SeriesChart.tsx'
import { percent } from './FunnelChart.tsx'

describe('SeriesChart', () => {
  it('stacks series: each bar starts where the one below ends', () => {
    expect(stackOf([{ label: 'a', data: [1, 2] }, { label: 'b', data: [3, 0] }])).toEqual({ below: [[0, 0], [1, 2]], top: [[1, 2], [4, 2]], max: 4 })
  })

  it('places side-by-side bars next to each other inside their group, stacked ones on the same spot', () => {
    const side = barSlots(2, 'side')
    expect(side.offset(0)).toBeCloseTo(-0.38)
    expect(side.offset(1)).toBeCloseTo(0.02)
    expect(side.width).toBeCloseTo(0.36)
    expect(barSlots(3, 'stacked').offset(2)).toBe(-0.3)
  })

  it('is an image named by its label, carrying its shape (drawn by uPlot where a canvas exists)', () => {
    render(<SeriesChart kind="bar" layout="side" label="Unique users" labels={['2026-11-01']} series={[{ label: 'a', data: [1] }, { label: 'b', data: [2] }]} />)
    expect(screen.getByRole('img', { name: 'Unique users' }).dataset).toMatchObject({ kind: 'bar', layout: 'side', series: '2', points: '1' })
  })

  it('percent: whole percents, one decimal under 10%, nothing of nothing is 0%', () => {
    expect([percent(1, 3), percent(1, 40), percent(0, 0), percent(5, 5)]).toEqual(['33%', '2.5%', '0%', '100%'])
  })
})
