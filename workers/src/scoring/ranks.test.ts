import { describe, expect, it } from 'vitest'
import { scoreRating } from '@fl0/contracts'
import { rankThresholds } from './train.ts'

describe('ratings by rank', () => {
  it('rates the top tenth excellent, the next fifth good, the next three tenths fair', () => {
    const scores = Array.from({ length: 100 }, (_, i) => i / 100)
    const t = rankThresholds(scores)
    const counts = { poor: 0, fair: 0, good: 0, excellent: 0 }
    for (const s of scores) counts[scoreRating(s, t)]++
    expect(counts).toEqual({ excellent: 10, good: 20, fair: 30, poor: 40 })
  })

  it('puts users tied at a cut-off below it, so no rating holds more than its share', () => {
    // 25 users tie at the top: none can be excellent without making a quarter excellent.
    const scores = [...Array(25).fill(0.9), ...Array.from({ length: 75 }, (_, i) => i / 100)]
    const t = rankThresholds(scores)
    const counts = { poor: 0, fair: 0, good: 0, excellent: 0 }
    for (const s of scores) counts[scoreRating(s, t)]++
    expect(counts.excellent).toBe(0)
    expect(counts.excellent + counts.good).toBe(30)
    expect(counts.excellent + counts.good + counts.fair).toBe(60)
  })

  it('rates no one above poor when every score is the same', () => {
    const t = rankThresholds(Array(50).fill(0.3))
    expect(scoreRating(0.3, t)).toBe('poor')
  })
})
