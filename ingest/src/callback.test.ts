import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskBus, type Bus, type DeliveredMessage } from '@fl0/stores'
import { createCallbackRoutes, LINKS_TOPIC, PIXEL } from './callback.ts'

/** GET /i/callback on a real disk bus: a pixel always, a link only for a puid with a valid hem or upid. */
const UPID = '5x5-12345678901234567890123456789012'
const HEM = 'fb98d44ad7501a959f3f4f4a3f004fe2d9e581ea6207e218c4b02c08a4d75adf'
let bus: Bus
const delivered: DeliveredMessage[] = []
let stop: () => Promise<void>
beforeAll(async () => {
  bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-callback-')) })
  const consumer = await bus.consume({ topic: LINKS_TOPIC, group: 'test', maxWaitMs: 5, onBatch: async (m) => void delivered.push(...m) })
  stop = () => consumer.stop()
})
afterAll(async () => {
  await stop?.()
  await bus?.close()
})

const app = () => createCallbackRoutes({ publish: (r) => bus.publish(LINKS_TOPIC, r), now: () => new Date('2026-03-02T09:00:00.000Z') })

async function call(query: string, a = app()) {
  const before = delivered.length
  const res = await a.request(`http://fl0.test/i/callback${query}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/gif')
  expect(res.headers.get('cache-control')).toContain('no-store')
  expect(Buffer.from(await res.arrayBuffer())).toEqual(PIXEL)
  // Give a published record the time to arrive; nothing published stays nothing.
  await new Promise((r) => setTimeout(r, 150))
  return delivered.slice(before).map((m) => ({ key: m.key, ...JSON.parse(m.value) }))
}

describe('GET /i/callback', () => {
  it('links a puid to a upid and a hashed e-mail (lowercased)', async () => {
    expect(await call(`?puid=p-1&hem=${HEM.toUpperCase()}&upid=${UPID}`)).toEqual([
      { key: 'p-1', puid: 'p-1', up_id: UPID, hem: HEM, source: 'callback', linked_at: '2026-03-02 09:00:00.000' },
    ])
  })

  it('links with only one of hem and upid', async () => {
    expect(await call(`?puid=p-2&upid=${UPID}`)).toMatchObject([{ puid: 'p-2', up_id: UPID, hem: '' }])
    expect(await call(`?puid=p-3&hem=${HEM}`)).toMatchObject([{ puid: 'p-3', up_id: '', hem: HEM }])
  })

  it('answers the pixel and links nothing when a part it needs is missing or invalid', async () => {
    expect(await call(`?hem=${HEM}&upid=${UPID}`)).toEqual([]) // no puid
    expect(await call('?puid=p-4')).toEqual([]) // neither hem nor upid
    expect(await call('')).toEqual([]) // nothing at all
    expect(await call(`?puid=p-5&upid=5x5-123`)).toEqual([])
    expect(await call(`?puid=p-5&hem=not-a-hash`)).toEqual([])
    expect(await call(`?puid=${'x'.repeat(201)}&upid=${UPID}`)).toEqual([])
    expect(await call(`?puid=has%20space&upid=${UPID}`)).toEqual([])
  })

  it('keeps the valid part when the other is invalid', async () => {
    expect(await call(`?puid=p-6&hem=zzz&upid=${UPID}`)).toMatchObject([{ puid: 'p-6', up_id: UPID, hem: '' }])
  })

  it('still answers the pixel when the bus is down', async () => {
    const errors: string[] = []
    const broken = createCallbackRoutes({ publish: async () => Promise.reject(new Error('bus down')), logger: { warn() {}, error: (_o, m) => void errors.push(m) } })
    expect(await call(`?puid=p-7&upid=${UPID}`, broken)).toEqual([])
    expect(errors).toEqual(['identity callback: publish to bus failed; link dropped'])
  })
})
