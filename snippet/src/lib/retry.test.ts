import { describe, expect, it } from 'vitest'
import { retryDelay, settled } from './retry.ts'

describe('settled', () => {
  it('settles on success and on refusals that a retry cannot fix', () => {
    expect([200, 204, 400, 401, 413].map(settled)).toEqual([true, true, true, true, true])
  })
  it('keeps the batch on network failures, 429 and 5xx', () => {
    expect([0, 429, 500, 502, 503].map(settled)).toEqual([false, false, false, false, false])
  })
})

describe('retryDelay', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  it('follows Retry-After in seconds', () => {
    expect(retryDelay(1, '3', now, 0.5)).toBe(3000)
  })
  it('follows Retry-After as an HTTP date', () => {
    expect(retryDelay(1, 'Thu, 01 Jan 2026 00:00:10 GMT', now, 0.5)).toBe(10_000)
  })
  it('caps Retry-After at an hour', () => {
    expect(retryDelay(1, '999999', now, 0)).toBe(3_600_000)
  })
  it('retries at once when Retry-After has passed', () => {
    expect(retryDelay(1, 'Wed, 31 Dec 2025 23:59:00 GMT', now, 0)).toBeLessThanOrEqual(0)
  })
  it('backs off exponentially with jitter without Retry-After', () => {
    expect(retryDelay(1, null, now, 0)).toBe(1000)
    expect(retryDelay(2, null, now, 0)).toBe(2000)
    expect(retryDelay(2, null, now, 0.999)).toBeCloseTo(3998)
    expect(retryDelay(3, 'garbage', now, 0)).toBe(4000)
  })
  it('never waits more than two minutes between tries', () => {
    expect(retryDelay(30, null, now, 0.999)).toBeLessThan(120_000)
  })
})
