import { describe, expect, it } from 'vitest'
import { createWebhookSourceCache } from './webhook-sources.ts'

describe('webhook source cache', () => {
  const hook = { orgId: 'o', sourceId: 's', secret: 'x'.repeat(64) }

  it('looks a source up once per TTL, unknown ones too, and again after invalidate', async () => {
    const calls: string[] = []
    let t = 0
    const cache = createWebhookSourceCache(async (id) => (calls.push(id), id === 's' ? hook : undefined), { ttlMs: 1000, now: () => t })
    expect(await cache.resolve('s')).toEqual(hook)
    expect(await cache.resolve('s')).toEqual(hook)
    expect(await cache.resolve('gone')).toBeUndefined()
    expect(await cache.resolve('gone')).toBeUndefined()
    expect(calls).toEqual(['s', 'gone'])
    t = 1500
    await cache.resolve('s')
    cache.invalidate('s')
    await cache.resolve('s')
    expect(calls).toEqual(['s', 'gone', 's', 's'])
  })

  it('does not keep a failed look-up', async () => {
    let fail = true
    const cache = createWebhookSourceCache(async () => {
      if (fail) throw new Error('db down')
      return hook
    })
    await expect(cache.resolve('s')).rejects.toThrow('db down')
    fail = false
    expect(await cache.resolve('s')).toEqual(hook)
  })
})
