import { describe, expect, it } from 'vitest'
import { hashSeed, Rng } from './random.ts'

describe('Rng', () => {
  it('repeats itself for the same key and differs for another', () => {
    const a = new Rng(42, 'person', 1)
    const b = new Rng(42, 'person', 1)
    const c = new Rng(42, 'person', 2)
    const draw = (r: Rng) => Array.from({ length: 5 }, () => r.next())
    const first = draw(a)
    expect(draw(b)).toEqual(first)
    expect(draw(c)).not.toEqual(first)
  })

  it('keeps key parts apart', () => {
    expect(hashSeed('ab', 'c')).not.toBe(hashSeed('a', 'bc'))
    expect(hashSeed(1, 2)).not.toBe(hashSeed(12))
    expect(hashSeed('1')).not.toBe(hashSeed(1))
  })

  it('draws uniformly in [0, 1) and within integer bounds', () => {
    const r = new Rng('uniform')
    let sum = 0
    let min = 1
    let max = 0
    const buckets = new Array(10).fill(0)
    for (let i = 0; i < 100_000; i++) {
      const x = r.next()
      min = Math.min(min, x)
      max = Math.max(max, x)
      sum += x
      buckets[Math.floor(x * 10)]++
    }
    expect(min).toBeGreaterThanOrEqual(0)
    expect(max).toBeLessThan(1)
    expect(sum / 100_000).toBeCloseTo(0.5, 2)
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(500)
    const ints = new Set(Array.from({ length: 1000 }, () => r.int(3, 6)))
    expect([...ints].sort()).toEqual([3, 4, 5, 6])
  })

  it('gives Poisson and geometric counts with the right means', () => {
    const r = new Rng('counts')
    const mean = (f: () => number) => Array.from({ length: 50_000 }, f).reduce((a, b) => a + b, 0) / 50_000
    expect(mean(() => r.poisson(0.3))).toBeCloseTo(0.3, 1)
    expect(mean(() => r.poisson(4))).toBeCloseTo(4, 1)
    expect(mean(() => r.poisson(120)) / 120).toBeCloseTo(1, 2)
    expect(mean(() => r.geometric(0.75))).toBeCloseTo(3, 1)
  })

  it('makes version-4-shaped UUIDs', () => {
    const r = new Rng('uuid')
    for (let i = 0; i < 100; i++) expect(r.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
