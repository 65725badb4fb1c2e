import { describe, expect, it } from 'vitest'
import { countTicks } from './axis.ts'

describe('countTicks', () => {
  it('ends on a tick at or above the largest value, in round steps', () => {
    expect(countTicks(38, 2)).toEqual([0, 20, 40])
    expect(countTicks(73, 4)).toEqual([0, 20, 40, 60, 80])
    expect(countTicks(1200, 3)).toEqual([0, 500, 1000, 1500])
    expect(countTicks(20, 2)).toEqual([0, 10, 20])
  })

  it('keeps whole steps for small counts, and an axis for nothing at all', () => {
    expect(countTicks(3, 5)).toEqual([0, 1, 2, 3])
    expect(countTicks(0, 3)).toEqual([0, 1])
    // Never 2.5 people: 13 in at most six steps goes by 5s, in seven by 2s.
    expect(countTicks(13, 6)).toEqual([0, 5, 10, 15])
    expect(countTicks(13, 7)).toEqual([0, 2, 4, 6, 8, 10, 12, 14])
  })

  it('gives a short chart at least its top besides 0', () => {
    expect(countTicks(438, 0).length).toBeGreaterThanOrEqual(2)
    expect(countTicks(438, 1)).toEqual([0, 500])
  })
})
