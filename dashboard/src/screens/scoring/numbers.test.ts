import { describe, expect, it } from 'vitest'
import { count, scorePercent, scoreRange, share, times } from './numbers.ts'

describe('scoring numbers', () => {
  it('counts with thousands separators, shares with one decimal, lifts as factors', () => {
    expect([count(1177), count(12), count(1_234_567)]).toEqual(['1,177', '12', '1,234,567'])
    expect([share(0.783), share(0.9), share(0), share(1)]).toEqual(['78.3%', '90.0%', '0.0%', '100.0%'])
    expect([times(4.2857), times(1), times(0.25), times(23.4), times(60)]).toEqual(['4.3×', '1.0×', '0.3×', '23×', '60×'])
    expect([scorePercent(0.754), scorePercent(0.005), scorePercent(1)]).toEqual(['75%', '1%', '100%'])
    expect([scoreRange(0, 0.1), scoreRange(0.3, 0.4), scoreRange(0.9, 1)]).toEqual(['0–10%', '30–40%', '90–100%'])
  })
})
