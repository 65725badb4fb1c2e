import { describe, expect, it } from 'vitest'
import type { IngestedEvent } from '@fl0/contracts'
import { closeSync, openSync, writeSync } from 'node:fs'
import { DISK_FULL_MESSAGE } from './accept.ts'
import { KEY, setupIngest as setup } from './testing.ts'

describe('POST /v1/* single calls', () => {
  it.each([
    ['track', { userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } }, { event: 'Signed Up', properties: { plan: 'pro' } }],
    ['identify', { userId: 'u1', traits: { email: 'a@b.co' } }, { traits: { email: 'a@b.co' } }],
    ['page', { anonymousId: 'a1', name: 'Home', category: 'Docs', properties: { path: '/', title: 'Welcome' } }, { name: 'Home', page_path: '/', page_title: 'Welcome', properties: { path: '/', title: 'Welcome', category: 'Docs' } }],
    ['screen', { userId: 'u1', name: 'Settings' }, { name: 'Settings' }],
    ['group', { userId: 'u1', groupId: 'g1', traits: { name: 'Acme' } }, { group_id: 'g1', traits: { name: 'Acme' } }],
    ['alias', { userId: 'u1', previousId: 'a1' }, { previous_id: 'a1' }],
  ])('%s is accepted and published with its fields', async (type, body, expected) => {
    const { post, published } = setup()
    const res = await post(`/v1/${type}`, body)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    expect(published).toHaveLength(1)
    expect(published[0]).toMatchObject({ type, org_id: 'org-1', source_id: 'src-1', ...expected })
    expect(published[0].message_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(published[0].received_at).toBe('2026-03-01 12:00:00.000')
  })

  it('takes page fields from context.page', async () => {
    const { post, published } = setup()
    const page = { url: 'https://s.test/a?x=1', path: '/a', referrer: 'https://r.test/', title: 'A', search: '?x=1' }
    await post('/v1/track', { anonymousId: 'a', event: 'E', context: { page } })
    expect(published[0]).toMatchObject({ page_url: page.url, page_path: '/a', page_referrer: page.referrer, page_title: 'A', page_search: '?x=1' })
  })

  it("takes the place from context.location and context.timezone, as text", async () => {
    const { post, published } = setup()
    await post('/v1/track', { anonymousId: 'a', event: 'E', context: { location: { city: 'Lyon', country: 'France', region: null }, timezone: 'Europe/Paris' } })
    await post('/v1/track', { anonymousId: 'a', event: 'E', context: { location: { city: 75001, region: true } } })
    await post('/v1/track', { anonymousId: 'a', event: 'E', context: { location: 'Lyon' } })
    const place = (e: IngestedEvent) => [e.context_city, e.context_region, e.context_country, e.context_timezone]
    expect(published.map(place)).toEqual([
      ['Lyon', '', 'France', 'Europe/Paris'],
      ['75001', 'true', '', ''],
      ['', '', '', ''],
    ])
  })

  it('keeps a given messageId, and numeric ids become strings', async () => {
    const { post, published } = setup()
    await post('/v1/track', { userId: 42, event: 'E', messageId: 'm-1' })
    expect(published[0]).toMatchObject({ user_id: '42', message_id: 'm-1' })
  })

  it('corrects the timestamp for the client clock with sentAt', async () => {
    const { post, published } = setup()
    // The client's clock runs one hour fast; the event happened 5 s before it was sent.
    await post('/v1/track', { userId: 'u', event: 'E', timestamp: '2026-03-01T12:59:55.000Z', sentAt: '2026-03-01T13:00:00.000Z' })
    expect(published[0].timestamp).toBe('2026-03-01 11:59:55.000')
    expect(published[0].original_timestamp).toBe('2026-03-01 12:59:55.000')
    expect(published[0].sent_at).toBe('2026-03-01 13:00:00.000')
  })

  it('keeps the timestamp without sentAt, and uses receivedAt without either', async () => {
    const { post, published } = setup()
    await post('/v1/track', { userId: 'u', event: 'E', timestamp: '2026-02-01T00:00:00Z' })
    await post('/v1/track', { userId: 'u', event: 'E' })
    expect(published.map((e) => e.timestamp)).toEqual(['2026-02-01 00:00:00.000', '2026-03-01 12:00:00.000'])
  })

  it('takes the IP from the connection, ignoring X-Forwarded-For from untrusted peers', async () => {
    const { post, published } = setup()
    await post('/v1/track', { userId: 'u', event: 'E' }, { headers: { 'x-forwarded-for': '1.1.1.1' } })
    expect(published[0].ip).toBe('203.0.113.9')
    expect(published[0].context.ip).toBe('203.0.113.9')
  })

  it('reads X-Forwarded-For from a trusted proxy, right to left', async () => {
    const { post, published } = setup({ trusted: '10.0.0.0/8' })
    await post('/v1/track', { userId: 'u', event: 'E' }, { remote: '10.1.2.3', headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.9.9.9' } })
    expect(published[0].ip).toBe('198.51.100.7')
  })

  it("keeps an IP the client put in context.ip, as Segment does", async () => {
    const { post, published } = setup()
    await post('/v1/track', { userId: 'u', event: 'E', context: { ip: '192.0.2.1' } })
    expect(published[0].ip).toBe('192.0.2.1')
  })

  it('accepts text/plain bodies (navigator.sendBeacon) with the write key in the body', async () => {
    const { post, published } = setup()
    const res = await post('/v1/track', { writeKey: KEY, anonymousId: 'a', event: 'E' }, { auth: null, headers: { 'content-type': 'text/plain;charset=UTF-8' } })
    expect(res.status).toBe(200)
    expect(published).toHaveLength(1)
  })

  it('takes the userAgent from the browser request when the context has none', async () => {
    const { post, published } = setup()
    await post('/v1/track', { anonymousId: 'a', event: 'E' }, { headers: { origin: 'https://site.test', 'user-agent': 'Mozilla/5.0 Test' } })
    expect(published[0].user_agent).toBe('Mozilla/5.0 Test')
  })

  it('answers CORS preflights for browsers', async () => {
    const { app } = setup()
    const res = await app.request('/v1/batch', {
      method: 'OPTIONS',
      headers: { origin: 'https://site.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('lets browsers read Retry-After, so the snippet can wait as told', async () => {
    const { post } = setup()
    const res = await post('/v1/track', { userId: 'u', event: 'E' }, { headers: { origin: 'https://site.test' } })
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After')
  })
})

describe('POST /v1/* refusals', () => {
  it.each([
    ['no write key', '/v1/track', { userId: 'u', event: 'E' }, { auth: null }, 401, 'writeKey'],
    ['an unknown write key', '/v1/track', { userId: 'u', event: 'E' }, { auth: 'nope' }, 401, 'writeKey'],
    ['no event name on track', '/v1/track', { userId: 'u' }, {}, 400, 'event'],
    ['a blank event name', '/v1/track', { userId: 'u', event: '  ' }, {}, 400, 'event'],
    ['neither userId nor anonymousId', '/v1/track', { event: 'E' }, {}, 400, 'userId'],
    ['properties of the wrong type', '/v1/track', { userId: 'u', event: 'E', properties: [1] }, {}, 400, 'properties'],
    ['a userId of the wrong type', '/v1/identify', { userId: { id: 1 } }, {}, 400, 'userId'],
    ['an unreadable timestamp', '/v1/track', { userId: 'u', event: 'E', timestamp: 'yesterday' }, {}, 400, 'timestamp'],
    ['a group call without groupId', '/v1/group', { userId: 'u' }, {}, 400, 'groupId'],
    ['an alias without previousId', '/v1/alias', { userId: 'u' }, {}, 400, 'previousId'],
    ['an alias without userId', '/v1/alias', { previousId: 'p', anonymousId: 'a' }, {}, 400, 'userId'],
    ['a JSON array body', '/v1/track', [], {}, 400, 'body'],
  ] as const)('refuses %s', async (_, path, body, init, status, field) => {
    const { post, published } = setup()
    const res = await post(path, body, init as never)
    expect(res.status).toBe(status)
    const json = await res.json()
    expect(json.success).toBe(false)
    expect(json.errors.map((e: { name: string }) => e.name)).toContain(field)
    expect(json.errors.every((e: { message: string }) => e.message.length > 0)).toBe(true)
    expect(published).toEqual([])
  })

  it('refuses invalid JSON', async () => {
    const { post } = setup()
    const res = await post('/v1/track', '{"userId":', { raw: true })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'body', message: 'must be valid JSON' }])
  })

  it('refuses a single event over 32 KB', async () => {
    const { post, published } = setup()
    const res = await post('/v1/track', { userId: 'u', event: 'E', properties: { blob: 'x'.repeat(33 * 1024) } })
    expect(res.status).toBe(400)
    expect((await res.json()).errors[0]).toEqual({ name: 'body', message: 'an event must be at most 32 KB' })
    expect(published).toEqual([])
  })

  it('accepts an event just under 32 KB', async () => {
    const { post } = setup()
    const res = await post('/v1/track', { userId: 'u', event: 'E', properties: { blob: 'x'.repeat(31 * 1024) } })
    expect(res.status).toBe(200)
  })

  it('answers 503 when the bus cannot take the events, so clients retry', async () => {
    const { post } = setup({ failPublish: true })
    const res = await post('/v1/track', { userId: 'u', event: 'E' })
    expect(res.status).toBe(503)
  })

  it('answers 429 disk_full with Retry-After when the bus has no room on the disk (ENOSPC), so that clients keep the events', async () => {
    // A real ENOSPC: a write to /dev/full, as the bus's write fails on a full disk.
    const full = () => {
      const fd = openSync('/dev/full', 'w')
      try {
        writeSync(fd, 'x')
      } finally {
        closeSync(fd)
      }
    }
    const { post } = setup({ failPublish: full })
    for (const [path, body] of [
      ['/v1/track', { userId: 'u', event: 'E' }],
      ['/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'E' }] }],
    ] as const) {
      const res = await post(path, body)
      expect(res.status, path).toBe(429)
      expect(res.headers.get('retry-after'), path).toBe('30')
      expect(await res.json(), path).toMatchObject({ code: 'disk_full', message: DISK_FULL_MESSAGE })
    }
  })
})

describe('POST /v1/batch and /v1/import', () => {
  const item = (i: number, extra: object = {}) => ({ type: 'track', userId: `u${i}`, event: 'E', messageId: `m${i}`, ...extra })

  it.each(['/v1/batch', '/v1/import'])('%s stores every item with the batch context and integrations merged in', async (path) => {
    const { post, published } = setup()
    const res = await post(path, {
      batch: [item(1, { context: { locale: 'fr-FR' } }), { type: 'identify', anonymousId: 'a', traits: { plan: 'pro' } }],
      context: { library: { name: 'lib', version: '1' }, locale: 'en-GB' },
      integrations: { All: true },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    expect(published).toHaveLength(2)
    expect(published[0].context).toMatchObject({ library: { name: 'lib', version: '1' }, locale: 'fr-FR' })
    expect(published[1].context).toMatchObject({ locale: 'en-GB' })
    expect(JSON.parse(published[1].integrations)).toEqual({ All: true })
    expect(published[1].type).toBe('identify')
  })

  it('applies the batch sentAt to items for the clock correction', async () => {
    const { post, published } = setup()
    await post('/v1/batch', { batch: [item(1, { timestamp: '2026-03-01T12:59:50.000Z' })], sentAt: '2026-03-01T13:00:00.000Z' })
    expect(published[0].timestamp).toBe('2026-03-01 11:59:50.000')
  })

  it('stores the valid items of a batch with a bad one and names the bad one (Segment answers 200 too)', async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: [item(1), { type: 'track', userId: 'u2' }, { type: 'nope', userId: 'x' }, item(4)] })
    expect(res.status).toBe(200)
    const json = await res.json()
    expect(json).toMatchObject({ success: true, accepted: 2 })
    expect(json.rejected).toEqual([
      { index: 1, messageId: null, errors: [{ name: 'batch.1.event', message: 'must be provided on track calls' }] },
      { index: 2, messageId: null, errors: [{ name: 'batch.2.type', message: 'must be one of track, identify, page, screen, group, alias' }] },
    ])
    expect(published.map((e) => e.message_id)).toEqual(['m1', 'm4'])
  })

  it('refuses a batch with no valid item', async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: [{ type: 'track', userId: 'u' }] })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'batch.0.event', message: 'must be provided on track calls' }])
    expect(published).toEqual([])
  })

  it('refuses more than 2,500 events', async () => {
    const { post } = setup()
    const res = await post('/v1/batch', { batch: Array.from({ length: 2501 }, (_, i) => ({ type: 'track', userId: 'u', event: 'E', messageId: String(i) })) })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'batch', message: 'must hold at most 2500 events' }])
  })

  it('accepts exactly 2,500 events', async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: Array.from({ length: 2500 }, (_, i) => ({ type: 'track', userId: 'u', event: 'E', messageId: String(i) })) })
    expect(res.status).toBe(200)
    expect(published).toHaveLength(2500)
  })

  it('refuses a batch request over 4 MB', async () => {
    const { post } = setup()
    const batch = Array.from({ length: 140 }, (_, i) => item(i, { properties: { blob: 'x'.repeat(30 * 1024) } }))
    const res = await post('/v1/batch', { batch })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'body', message: 'a batch request must be at most 4 MB' }])
  })

  it('accepts a batch of 100 events of 30 KB, as RudderStack\'s SDKs fill them (3 MB)', async () => {
    const { post, published } = setup()
    const batch = Array.from({ length: 100 }, (_, i) => item(i, { properties: { blob: 'x'.repeat(30 * 1024) } }))
    const res = await post('/v1/batch', { batch })
    expect(res.status).toBe(200)
    expect(published).toHaveLength(100)
  })

  it('rejects a batch item over 32 KB and keeps the others', async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: [item(1, { properties: { blob: 'x'.repeat(33 * 1024) } }), item(2)] })
    const json = await res.json()
    expect(res.status).toBe(200)
    expect(json.rejected[0]).toEqual({ index: 0, messageId: 'm1', errors: [{ name: 'batch.0', message: 'an event must be at most 32 KB' }] })
    expect(published.map((e) => e.message_id)).toEqual(['m2'])
  })

  it.each([
    ['missing', {}, 'batch'],
    ['not an array', { batch: { type: 'track' } }, 'batch'],
    ['empty', { batch: [] }, 'batch'],
    ['with a bad context', { batch: [item(1)], context: 'x' }, 'context'],
  ])('refuses a batch %s', async (_, body, field) => {
    const { post } = setup()
    const res = await post('/v1/batch', body)
    expect(res.status).toBe(400)
    expect((await res.json()).errors.map((e: { name: string }) => e.name)).toContain(field)
  })
})
