import { describe, expect, it } from 'vitest'
import { labelStep, legendAt, thinned } from './legend.ts'

const series = [
  { label: 'enterprise', data: [3, 5, 2] },
  { label: 'pro', data: [1, 4, 0] },
  { label: 'Not set', data: [0, 2, 1] },
]
const labels = ['2026-11-09', '2026-11-16', '2026-11-23']

describe('legendAt', () => {
  it("reads each series' value at the cursor and their total", () => {
    expect(legendAt(labels, series, 1, { format: String })).toMatchObject({
      heading: 'Week of Nov 16',
      partial: false,
      rows: [
        { label: 'enterprise', value: '5' },
        { label: 'pro', value: '4' },
        { label: 'Not set', value: '2' },
      ],
      total: '11',
    })
  })

  it('reads the latest period without a cursor, marked when it is partial', () => {
    expect(legendAt(labels, series, null, { format: String, partial: [2] })).toMatchObject({ heading: 'Week of Nov 23', partial: true, total: '3' })
  })

  it('gives no total for one series, or for rates that do not add up', () => {
    expect(legendAt(labels, series.slice(0, 1), 0, { format: String }).total).toBeUndefined()
    expect(legendAt(labels, series, 0, { format: String, summable: false }).total).toBeUndefined()
  })
})

describe('label thinning', () => {
  it('names every label while they fit, then every second, third…', () => {
    expect(labelStep(80, 40)).toBe(1)
    expect(labelStep(30, 40)).toBe(2)
    expect(labelStep(12, 40)).toBe(5)
    expect(labelStep(0, 40)).toBe(1)
  })

  it('keeps every step-th index from the first', () => {
    expect(thinned(7, 3)).toEqual([0, 3, 6])
    expect(thinned(3, 1)).toEqual([0, 1, 2])
  })
})

describe('periodNames', () => {
  it('names months by their name, weeks by their Monday, days as they are', async () => {
    const { periodNames } = await import('./axis.ts')
    const months = periodNames(['2026-10-01', '2026-11-01'])
    expect([months.axis('2026-11-01'), months.heading('2026-11-01')]).toEqual(['Nov', 'Nov 2026'])
    expect(periodNames(['2026-11-16', '2026-11-23']).heading('2026-11-23')).toBe('Week of Nov 23')
    const days = periodNames(['2026-11-24', '2026-11-25'])
    expect([days.axis('2026-11-25'), days.heading('2026-11-25')]).toEqual(['Nov 25', 'Nov 25'])
  })
})
