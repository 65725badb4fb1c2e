import { describe, expect, it } from 'vitest'
import { createWriteKeyCache } from './write-keys.ts'

describe('write key cache', () => {
  it('looks a key up once per TTL, and again after invalidate', async () => {
    let calls = 0
    let t = 0
    const cache = createWriteKeyCache(async (k) => (calls++, k === 'good' ? { orgId: 'o', sourceId: 's' } : undefined), { ttlMs: 1000, now: () => t })
    expect(await cache.resolve('good')).toEqual({ orgId: 'o', sourceId: 's' })
    await cache.resolve('good')
    expect(calls).toBe(1)
    t = 1500
    await cache.resolve('good')
    expect(calls).toBe(2)
    cache.invalidate('good')
    await cache.resolve('good')
    expect(calls).toBe(3)
    expect(await cache.resolve('bad')).toBeUndefined()
  })

  it('does not keep a failed look-up', async () => {
    let fail = true
    const cache = createWriteKeyCache(async () => {
      if (fail) throw new Error('db down')
      return { orgId: 'o', sourceId: 's' }
    })
    await expect(cache.resolve('k')).rejects.toThrow('db down')
    fail = false
    expect(await cache.resolve('k')).toEqual({ orgId: 'o', sourceId: 's' })
  })
})
