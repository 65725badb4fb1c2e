import { describe, expect, it } from 'vitest'
import { createCallbackLimiter, limiterKey } from './limiter.ts'

/** The per-address limit: its allowance, given back, per /64 for IPv6, and none at 0. */
describe('callback limiter', () => {
  it('lets an address through `points` times in its window, others beside it', async () => {
    const limiter = createCallbackLimiter({ points: 3, durationS: 60 })
    const takes = []
    for (let i = 0; i < 5; i++) takes.push(await limiter.take('203.0.113.1'))
    expect(takes).toEqual([true, true, true, false, false])
    expect(await limiter.take('203.0.113.2')).toBe(true)
  })

  it('gives one back', async () => {
    const limiter = createCallbackLimiter({ points: 1, durationS: 60 })
    expect(await limiter.take('203.0.113.1')).toBe(true)
    await limiter.giveBack('203.0.113.1')
    expect(await limiter.take('203.0.113.1')).toBe(true)
    expect(await limiter.take('203.0.113.1')).toBe(false)
  })

  it('counts an IPv6 address as its /64, and IPv4-mapped as IPv4', async () => {
    expect(limiterKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(limiterKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(limiterKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(limiterKey('')).toBe('unknown')
    const limiter = createCallbackLimiter({ points: 1, durationS: 60 })
    expect(await limiter.take('2001:db8:1:2::1')).toBe(true)
    expect(await limiter.take('2001:db8:1:2::2')).toBe(false)
    expect(await limiter.take('2001:db8:1:3::1')).toBe(true)
  })

  it('has no limit at 0 points', async () => {
    const limiter = createCallbackLimiter({ points: 0, durationS: 60 })
    for (let i = 0; i < 100; i++) expect(await limiter.take('203.0.113.1')).toBe(true)
  })
})
