import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { KEY, setupIngest as setup } from './testing.ts'

/**
 * What Segment's and RudderStack's own clients send with their defaults: the
 * short paths of analytics.js 2.0, compressed bodies, and error bodies their
 * error handling reads.
 */
describe("analytics.js 2.0's paths", () => {
  it.each([
    ['t', 'track', { event: 'Clicked' }],
    ['p', 'page', { name: 'Home' }],
    ['i', 'identify', { traits: { plan: 'pro' } }],
    ['g', 'group', { groupId: 'g1' }],
    ['a', 'alias', { previousId: 'a1' }],
    ['s', 'screen', { name: 'Settings' }],
  ])('/v1/%s is a %s call', async (letter, type, fields) => {
    const { post, published } = setup()
    // analytics.js posts text/plain (no preflight) with the write key in the body and in Basic auth.
    const res = await post(`/v1/${letter}`, { type, userId: 'u1', writeKey: KEY, messageId: `ajs-next-${letter}`, ...fields }, { headers: { 'content-type': 'text/plain' } })
    expect(res.status).toBe(200)
    expect(published).toHaveLength(1)
    expect(published[0]).toMatchObject({ type, user_id: 'u1', message_id: `ajs-next-${letter}` })
  })

  it('/v1/b is its batch, with the write key and sentAt beside the events', async () => {
    const { post, published } = setup()
    const res = await post('/v1/b', {
      writeKey: KEY,
      sentAt: '2026-03-01T12:00:00.000Z',
      batch: [
        { type: 'page', anonymousId: 'a1', messageId: 'b1', timestamp: '2026-03-01T11:59:59.000Z', properties: { path: '/' } },
        { type: 'track', anonymousId: 'a1', event: 'Clicked', messageId: 'b2', timestamp: '2026-03-01T11:59:59.500Z' },
      ],
    }, { auth: null })
    expect(res.status).toBe(200)
    expect(published.map((e) => [e.type, e.message_id, e.timestamp])).toEqual([
      ['page', 'b1', '2026-03-01 11:59:59.000'],
      ['track', 'b2', '2026-03-01 11:59:59.500'],
    ])
  })

  it('lets a retry through CORS: the preflight allows X-Retry-Count', async () => {
    const { app } = setup()
    const res = await app.request('/v1/t', {
      method: 'OPTIONS',
      headers: { origin: 'https://site.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-retry-count' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-retry-count')
  })
})

describe('GET /v1/projects/{writeKey}/settings', () => {
  it("gives analytics.js the settings that send to this fl0, with no remote plugins and no telemetry", async () => {
    const { app } = setup()
    const res = await app.request(`http://fl0.test:8080/v1/projects/${KEY}/settings`, { headers: { origin: 'https://site.test' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const settings = await res.json()
    expect(settings.integrations['Segment.io']).toMatchObject({ apiKey: KEY, apiHost: 'fl0.test:8080/v1', protocol: 'http' })
    expect(settings.remotePlugins).toEqual([])
    expect(settings.metrics.sampleRate).toBe(0)
  })

  it('names FL0_PUBLIC_URL when it is set (fl0 behind a proxy that ends TLS)', async () => {
    const { app } = setup({ publicUrl: 'https://analytics.example.com' })
    const settings = await (await app.request(`http://10.0.0.5:8080/v1/projects/${KEY}/settings`)).json()
    expect(settings.integrations['Segment.io']).toMatchObject({ apiHost: 'analytics.example.com/v1', protocol: 'https' })
  })

  it('is a 404 for an unknown write key', async () => {
    const { app } = setup()
    const res = await app.request('/v1/projects/nope/settings')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'unknown_write_key', errors: [{ name: 'writeKey' }] })
  })
})

describe('compressed bodies', () => {
  const event = { userId: 'u1', event: 'Compressed', properties: { n: 1 } }
  const text = JSON.stringify(event)

  it.each([
    ['gzip', gzipSync(text)],
    ['x-gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)],
    ['br', brotliCompressSync(text)],
  ])('reads a %s body', async (encoding, body) => {
    const { post, published } = setup()
    const res = await post('/v1/track', body, { raw: true, headers: { 'content-encoding': encoding } })
    expect(res.status).toBe(200)
    expect(published[0]).toMatchObject({ event: 'Compressed', user_id: 'u1', properties: { n: 1 } })
  })

  it('reads a gzipped batch, as RudderStack\'s SDKs send by default', async () => {
    const { post, published } = setup()
    const batch = Array.from({ length: 100 }, (_, i) => ({ type: 'track', userId: `u${i}`, event: 'E', messageId: `m${i}` }))
    const res = await post('/v1/batch', gzipSync(JSON.stringify({ batch })), { raw: true, headers: { 'content-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(published).toHaveLength(100)
  })

  it('refuses a compressed bomb once the limit is inflated, not after inflating it all', async () => {
    const { post, published } = setup()
    // 50 MB of spaces inside a JSON string: about 50 KB compressed, far under the batch limit.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"batch":[{"type":"track","userId":"u","event":"'), Buffer.alloc(50 * 1024 * 1024, 32), Buffer.from('"}]}')]))
    expect(bomb.length).toBeLessThan(100 * 1024)
    const before = process.memoryUsage().arrayBuffers
    const res = await post('/v1/batch', bomb, { raw: true, headers: { 'content-encoding': 'gzip' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'body_too_large', errors: [{ name: 'body', message: 'a batch request must be at most 4 MB once decompressed' }] })
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(20 * 1024 * 1024)
    expect(published).toEqual([])
  })

  it('applies the single-event limit to the decompressed event', async () => {
    const { post } = setup()
    const big = gzipSync(JSON.stringify({ ...event, properties: { blob: 'x'.repeat(40 * 1024) } }))
    const res = await post('/v1/track', big, { raw: true, headers: { 'content-encoding': 'gzip' } })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'body', message: 'an event must be at most 32 KB once decompressed' }])
  })

  it('refuses a body that is not what its Content-Encoding says', async () => {
    const { post } = setup()
    const res = await post('/v1/track', text, { raw: true, headers: { 'content-encoding': 'gzip' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'invalid_encoding', errors: [{ name: 'body', message: 'must be gzip-compressed, as Content-Encoding says' }] })
  })

  it('answers 415 to an encoding it does not read', async () => {
    const { post } = setup()
    const res = await post('/v1/track', text, { raw: true, headers: { 'content-encoding': 'zstd' } })
    expect(res.status).toBe(415)
    expect((await res.json()).errors).toEqual([{ name: 'content-encoding', message: 'must be one of gzip, deflate, br or identity' }])
  })
})

describe('error bodies', () => {
  it.each([
    ['an invalid event', '/v1/track', { userId: 'u' }, {}, 400, 'invalid_event'],
    ['invalid JSON', '/v1/track', '{', { raw: true }, 400, 'invalid_json'],
    ['a missing write key', '/v1/track', { userId: 'u', event: 'e' }, { auth: null }, 401, 'missing_write_key'],
    ['an unknown write key', '/v1/batch', { batch: [] }, { auth: 'nope' }, 401, 'unknown_write_key'],
    ['an invalid batch', '/v1/batch', { batch: [] }, {}, 400, 'invalid_batch'],
  ])("carry code and message, which Segment's and RudderStack's Python libraries read: %s", async (_, path, body, init, status, code) => {
    const { post } = setup()
    const res = await post(path, body, init as never)
    expect(res.status).toBe(status)
    const json = await res.json()
    expect(json).toMatchObject({ success: false, code })
    expect(typeof json.message).toBe('string')
    expect(json.errors.length).toBeGreaterThan(0)
  })

  it('has a code when the bus is down too', async () => {
    const { post } = setup({ failPublish: true })
    const res = await post('/v1/track', { userId: 'u', event: 'e' })
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ success: false, code: 'bus_unavailable', message: 'Event bus unavailable, retry later' })
  })
})
