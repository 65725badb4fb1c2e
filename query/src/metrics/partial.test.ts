import { describe, expect, it } from 'vitest'
import { partialPeriods } from './partial.ts'

/** Which periods of a graph are not wholly counted: the one under way, and one cut by the range's start. */
describe('partialPeriods', () => {
  const data = (labels: string[]) => ({ labels, datasets: [] })

  it('marks the last period, which holds today, whatever the bucket', () => {
    expect(partialPeriods({ type: 'line', data: data(['2026-11-23', '2026-11-24', '2026-11-25']) }, '2026-11-23')).toEqual([2])
  })

  it('marks the first week or month too when the range starts after its first day', () => {
    // The last 30 days to 25 November start on 27 October, a Tuesday: the week of Monday 26 October is cut.
    expect(partialPeriods({ type: 'bar', data: data(['2026-10-26', '2026-11-02', '2026-11-23']) }, '2026-10-27')).toEqual([0, 2])
    expect(partialPeriods({ type: 'table', data: data(['2026-10-01', '2026-11-01']) }, '2026-10-27')).toEqual([0, 1])
  })

  it('marks one period once, and nothing in metric and funnel graphs or an empty series', () => {
    expect(partialPeriods({ type: 'line', data: data(['2026-11-01']) }, '2026-10-27')).toEqual([0])
    expect(partialPeriods({ type: 'metric', data: data(['2026-10-27/2026-11-25']) }, '2026-10-27')).toEqual([])
    expect(partialPeriods({ type: 'funnel', data: data(['Logged In', 'Invite Sent']) }, '2026-10-27')).toEqual([])
    expect(partialPeriods({ type: 'line', data: data([]) }, '2026-10-27')).toEqual([])
  })
})
