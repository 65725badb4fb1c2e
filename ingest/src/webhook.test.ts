import { createHmac } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parseEventRecord, type IngestedEvent } from '@fl0/contracts'
import { createWebhookRoutes } from './webhook.ts'
import { createWebhookSourceCache } from './webhook-sources.ts'

/**
 * The webhook of a Segment-type source (webhook.ts) through app.request: Segment's
 * Webhooks destination (classic and Actions) and RudderStack's Webhook destination,
 * with the payloads their documentation and code show.
 */
const SECRET = 'a'.repeat(64)
const OTHER_SECRET = 'b'.repeat(64)
const NOW = new Date('2026-03-01T12:00:00.000Z')
const URL_OF = (id = 'src-1') => `/v1/webhooks/${id}`

function setup(options: { failPublish?: boolean } = {}) {
  const published: IngestedEvent[] = []
  const lookups: string[] = []
  const live = new Map([
    ['src-1', { orgId: 'org-1', sourceId: 'src-1', secret: SECRET }],
    ['src-2', { orgId: 'org-2', sourceId: 'src-2', secret: OTHER_SECRET }],
  ])
  const sources = createWebhookSourceCache(async (id) => (lookups.push(id), live.get(id)))
  const warnings: Array<{ obj: object; msg: string }> = []
  const app = createWebhookRoutes({
    sources,
    now: () => NOW,
    logger: { warn: (obj, msg) => void warnings.push({ obj, msg }), error: () => {} },
    publish: async (records) => {
      if (options.failPublish) throw new Error('disk full')
      for (const r of records) {
        const event = parseEventRecord(r.value) as IngestedEvent
        expect(r.key).toBe(`${event.org_id}:${event.user_id || event.anonymous_id}`)
        published.push(event)
      }
    },
  })
  /** Posts `body` (an object is sent as JSON.stringify, as Segment does) from Segment's servers. */
  const post = (body: unknown, headers: Record<string, string> = {}, path = URL_OF()) =>
    app.request(
      path,
      { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', ...headers }, body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body) },
      { incoming: { socket: { remoteAddress: '54.0.0.1', remotePort: 443, remoteFamily: 'IPv4' } } },
    )
  /** Signed as Segment signs: the hex HMAC-SHA1 of JSON.stringify(data) with the Shared Secret. */
  const signed = (body: unknown, header = 'X-Signature', secret = SECRET) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    return post(text, { [header]: createHmac('sha1', secret).update(text).digest('hex') })
  }
  return { app, post, signed, published, sources, live, lookups, warnings }
}

/** A track call as Segment's Webhooks destination delivers it: the event as Segment stored it. */
const SEGMENT_TRACK = {
  anonymousId: '507f191e-810c-4197-9b2e-1a5e3a6b1c2d',
  channel: 'client',
  context: {
    ip: '198.51.100.23',
    library: { name: 'analytics.js', version: 'next-1.72.0' },
    locale: 'en-US',
    page: { path: '/pricing', referrer: 'https://www.google.com/', search: '?plan=pro', title: 'Pricing', url: 'https://acme.com/pricing?plan=pro' },
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  },
  event: 'Plan Selected',
  integrations: {},
  messageId: 'ajs-next-1e2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d',
  originalTimestamp: '2026-03-01T11:49:58.000Z',
  projectId: 'pRoJeCt123',
  properties: { plan: 'pro', seats: 5 },
  receivedAt: '2026-03-01T11:50:01.120Z',
  sentAt: '2026-03-01T11:49:59.000Z',
  timestamp: '2026-03-01T11:50:00.120Z',
  type: 'track',
  userId: 'u-42',
  version: 2,
  writeKey: 'SeGmEnTwRiTeKeY',
}

/** A track call as RudderStack's Webhook destination delivers it: the event, unmodified, with request_ip. */
const RUDDER_TRACK = {
  anonymousId: '9c6bd77e-b6f8-4c4b-9c4a-1f2e3d4c5b6a',
  channel: 'web',
  context: {
    app: { build: '1.0.0', name: 'RudderLabs JavaScript SDK', namespace: 'com.rudderlabs.javascript', version: '3.7.1' },
    library: { name: 'RudderLabs JavaScript SDK', version: '3.7.1' },
    locale: 'en-GB',
    os: { name: '', version: '' },
    page: { path: '/docs', referrer: '$direct', search: '', title: 'Docs', url: 'https://acme.com/docs' },
    screen: { density: 2, height: 900, width: 1440 },
    traits: {},
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  },
  event: 'Docs Opened',
  integrations: { All: true },
  messageId: '3f0c6b4e-9a1d-4d6e-8f2a-5b7c9d1e3f5a',
  originalTimestamp: '2026-03-01T11:40:00.000Z',
  properties: { section: 'webhooks' },
  receivedAt: '2026-03-01T11:40:01.500Z',
  request_ip: '203.0.113.77',
  rudderId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  sentAt: '2026-03-01T11:40:00.900Z',
  timestamp: '2026-03-01T11:40:00.600Z',
  type: 'track',
  userId: '',
}

describe('POST /v1/webhooks/{sourceId}: Segment', () => {
  it("stores a signed event of Segment's Webhooks destination as from the source, with its fields", async () => {
    const { signed, published } = setup()
    const res = await signed(SEGMENT_TRACK)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    expect(published).toHaveLength(1)
    expect(published[0]).toEqual({
      org_id: 'org-1',
      message_id: SEGMENT_TRACK.messageId,
      // The forwarder's timestamp stands: Segment corrected it for the client's clock when it
      // received it; applied again against fl0's receipt ten minutes later, it would be moved.
      timestamp: '2026-03-01 11:50:00.120',
      source_id: 'src-1',
      type: 'track',
      event: 'Plan Selected',
      name: '',
      user_id: 'u-42',
      anonymous_id: SEGMENT_TRACK.anonymousId,
      group_id: '',
      previous_id: '',
      // The client's own clock reading, as Segment forwards it; timestamp is Segment's corrected time.
      original_timestamp: '2026-03-01 11:49:58.000',
      sent_at: '2026-03-01 11:49:59.000',
      received_at: '2026-03-01 12:00:00.000',
      // The visitor's address from the event, not the connection's (Segment's server, 54.0.0.1).
      ip: '198.51.100.23',
      user_agent: SEGMENT_TRACK.context.userAgent,
      page_url: 'https://acme.com/pricing?plan=pro',
      page_path: '/pricing',
      page_referrer: 'https://www.google.com/',
      page_title: 'Pricing',
      page_search: '?plan=pro',
      properties: { plan: 'pro', seats: 5 },
      traits: {},
      context: SEGMENT_TRACK.context,
      integrations: '{}',
      // The context names no place.
      context_city: '',
      context_region: '',
      context_country: '',
      context_timezone: '',
    })
  })

  it.each([
    ['identify', { type: 'identify', userId: 'u-42', traits: { email: 'ada@acme.com' }, messageId: 'm-i' }, { traits: { email: 'ada@acme.com' } }],
    ['page', { type: 'page', anonymousId: 'a-1', name: 'Pricing', properties: { path: '/pricing', title: 'Pricing', url: 'https://acme.com/pricing' }, messageId: 'm-p' }, { name: 'Pricing', page_path: '/pricing' }],
    ['screen', { type: 'screen', userId: 'u-42', name: 'Settings', messageId: 'm-s' }, { name: 'Settings' }],
    ['group', { type: 'group', userId: 'u-42', groupId: 'acme', traits: { plan: 'pro' }, messageId: 'm-g' }, { group_id: 'acme', traits: { plan: 'pro' } }],
    ['alias', { type: 'alias', userId: 'u-42', previousId: 'a-1', messageId: 'm-a' }, { previous_id: 'a-1' }],
  ])('takes a %s call', async (type, body, expected) => {
    const { signed, published } = setup()
    expect((await signed({ ...body, timestamp: '2026-03-01T11:00:00.000Z' })).status).toBe(200)
    expect(published[0]).toMatchObject({ type, org_id: 'org-1', source_id: 'src-1', timestamp: '2026-03-01 11:00:00.000', ip: '', ...expected })
  })

  it('never takes the address of the connection (Segment’s server): no context.ip, no ip', async () => {
    const { signed, published } = setup()
    const { ip: _ip, ...context } = SEGMENT_TRACK.context
    await signed({ ...SEGMENT_TRACK, context })
    expect(published[0].ip).toBe('')
    expect(published[0].context.ip).toBeUndefined()
  })

  it('takes the signature of Webhooks (Actions) for one event, and its X-Segment-Signature', async () => {
    const { signed, published } = setup()
    expect((await signed(SEGMENT_TRACK, 'X-Segment-Signature')).status).toBe(200)
    expect(published).toHaveLength(1)
  })

  it('takes a batch of Webhooks (Actions) as a JSON array signed whole (X-Segment-Signature)', async () => {
    const { signed, published } = setup()
    const batch = [SEGMENT_TRACK, { ...SEGMENT_TRACK, messageId: 'ajs-2', event: 'Checkout Started', context: { ...SEGMENT_TRACK.context, ip: '192.0.2.8' } }]
    const res = await signed(batch, 'X-Segment-Signature')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    expect(published.map((e) => [e.message_id, e.event, e.ip, e.timestamp])).toEqual([
      [SEGMENT_TRACK.messageId, 'Plan Selected', '198.51.100.23', '2026-03-01 11:50:00.120'],
      ['ajs-2', 'Checkout Started', '192.0.2.8', '2026-03-01 11:50:00.120'],
    ])
  })

  it("refuses a batch whose X-Signature covers only its first event (Actions' legacy header), naming the setting to turn on", async () => {
    const { post, published } = setup()
    const batch = [SEGMENT_TRACK, { ...SEGMENT_TRACK, messageId: 'forged', event: 'Forged' }]
    const firstOnly = createHmac('sha1', SECRET).update(JSON.stringify(batch[0])).digest('hex')
    const res = await post(JSON.stringify(batch), { 'X-Signature': firstOnly })
    expect(res.status).toBe(401)
    const body = (await res.json()) as { code: string; errors: Array<{ name: string; message: string }> }
    expect(body.code).toBe('invalid_signature')
    expect(body.errors[0].name).toBe('x-signature')
    expect(body.errors[0].message).toContain('Use X-Segment-Signature Header')
    expect(published).toEqual([])
    // The same delivery with the secret as a Bearer header beside it is the sender's: accepted.
    expect((await post(JSON.stringify(batch), { 'X-Signature': firstOnly, authorization: `Bearer ${SECRET}` })).status).toBe(200)
    expect(published).toHaveLength(2)
  })

  it('takes PUT and PATCH, which Webhooks (Actions) and RudderStack may be set to send', async () => {
    const { app, published } = setup()
    for (const [method, messageId] of [['PUT', 'm-put'], ['PATCH', 'm-patch']]) {
      const body = JSON.stringify({ ...SEGMENT_TRACK, messageId })
      const res = await app.request(URL_OF(), { method, headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha1', SECRET).update(body).digest('hex') }, body })
      expect(res.status).toBe(200)
    }
    expect(published.map((e) => e.message_id)).toEqual(['m-put', 'm-patch'])
  })

  it('reads a gzip-compressed body, the signature being over the JSON', async () => {
    const { post, published } = setup()
    const text = JSON.stringify(SEGMENT_TRACK)
    const res = await post(gzipSync(text), { 'content-encoding': 'gzip', 'X-Signature': createHmac('sha1', SECRET).update(text).digest('hex') })
    expect(res.status).toBe(200)
    expect(published[0].message_id).toBe(SEGMENT_TRACK.messageId)
  })
})

describe('POST /v1/webhooks/{sourceId}: who may send', () => {
  it.each([
    ['no signature', {}, 'missing_signature'],
    ['a signature made with another secret', { 'X-Signature': createHmac('sha1', OTHER_SECRET).update(JSON.stringify(SEGMENT_TRACK)).digest('hex') }, 'invalid_signature'],
    ['a signature of another body', { 'X-Signature': createHmac('sha1', SECRET).update('{}').digest('hex') }, 'invalid_signature'],
    ['a signature that is not hex', { 'X-Signature': 'not-a-signature' }, 'invalid_signature'],
    ['the secret itself as the signature', { 'X-Signature': SECRET }, 'invalid_signature'],
    ['a wrong bearer secret', { authorization: `Bearer ${OTHER_SECRET}` }, 'invalid_secret'],
    ['the write-key Basic auth of the Tracking API', { authorization: `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}` }, 'missing_signature'],
  ])('%s: 401 with an error body, nothing published', async (_, headers, code) => {
    const { post, published } = setup()
    const res = await post(SEGMENT_TRACK, headers as Record<string, string>)
    expect(res.status).toBe(401)
    const body = (await res.json()) as { success: boolean; code: string; message: string; errors: Array<{ name: string; message: string }> }
    expect(body).toMatchObject({ success: false, code })
    expect(body.errors).toHaveLength(1)
    expect(published).toEqual([])
  })

  it('checks the signature before parsing: a bad body with a bad signature is a 401, not a 400', async () => {
    const { post } = setup()
    expect((await post('{ not json', { 'X-Signature': '00' })).status).toBe(401)
    expect((await post('{ not json')).status).toBe(401)
  })

  it("takes one source's secret for that source only", async () => {
    const { signed, published } = setup()
    const res = await signed(SEGMENT_TRACK, 'X-Signature', OTHER_SECRET)
    expect(res.status).toBe(401)
    const other = await setup().app.request(URL_OF('src-2'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Signature': createHmac('sha1', OTHER_SECRET).update(JSON.stringify(SEGMENT_TRACK)).digest('hex') },
      body: JSON.stringify(SEGMENT_TRACK),
    })
    expect(other.status).toBe(200)
    expect(published).toEqual([])
  })

  it('an unknown source, or one without a webhook: 404 before the body is read', async () => {
    const { signed, post, lookups } = setup()
    const res = await post(SEGMENT_TRACK, { 'X-Signature': '00' }, URL_OF('nope'))
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ success: false, code: 'unknown_webhook', errors: [{ name: 'sourceId' }] })
    expect((await post(SEGMENT_TRACK, {}, URL_OF('%00'))).status).toBe(404)
    expect(lookups).toEqual(['nope'])
    expect((await signed(SEGMENT_TRACK)).status).toBe(200)
  })

  it("stops at once when the source is deleted (the API's revocation drops the cached entry)", async () => {
    const { signed, live, sources, published } = setup()
    expect((await signed(SEGMENT_TRACK)).status).toBe(200)
    live.delete('src-1')
    sources.invalidate('src-1')
    const res = await signed({ ...SEGMENT_TRACK, messageId: 'after' })
    expect(res.status).toBe(404)
    expect(published.map((e) => e.message_id)).toEqual([SEGMENT_TRACK.messageId])
  })

  it('logs each refusal with the source, never the secret', async () => {
    const { post, warnings } = setup()
    await post(SEGMENT_TRACK, { 'X-Signature': '00' })
    expect(warnings).toEqual([{ obj: { orgId: 'org-1', sourceId: 'src-1', code: 'invalid_signature' }, msg: 'webhook refused' }])
  })
})

describe('POST /v1/webhooks/{sourceId}: RudderStack', () => {
  it("stores an event of RudderStack's Webhook destination sent with the secret as a Bearer header; the visitor's address is request_ip", async () => {
    const { post, published } = setup()
    const res = await post(RUDDER_TRACK, { authorization: `Bearer ${SECRET}`, 'user-agent': 'RudderLabs' })
    expect(res.status).toBe(200)
    expect(published[0]).toMatchObject({
      org_id: 'org-1',
      source_id: 'src-1',
      message_id: RUDDER_TRACK.messageId,
      type: 'track',
      event: 'Docs Opened',
      user_id: '',
      anonymous_id: RUDDER_TRACK.anonymousId,
      timestamp: '2026-03-01 11:40:00.600',
      ip: '203.0.113.77',
      user_agent: RUDDER_TRACK.context.userAgent,
      page_url: 'https://acme.com/docs',
      properties: { section: 'webhooks' },
      integrations: '{"All":true}',
    })
    expect(published[0].context.ip).toBe('203.0.113.77')
  })

  it('prefers context.ip, which its Webhook destination fills from request_ip when empty', async () => {
    const { post, published } = setup()
    await post({ ...RUDDER_TRACK, context: { ...RUDDER_TRACK.context, ip: '192.0.2.44' } }, { authorization: `Bearer ${SECRET}` })
    expect(published[0].ip).toBe('192.0.2.44')
  })

  it('ignores a request_ip that is not an address', async () => {
    const { post, published } = setup()
    await post({ ...RUDDER_TRACK, request_ip: 'unknown' }, { authorization: `Bearer ${SECRET}` })
    expect(published[0].ip).toBe('')
  })

  it('takes a batch as a JSON array or a { batch } envelope', async () => {
    const { post, published } = setup()
    const second = { ...RUDDER_TRACK, messageId: 'r-2', event: 'Signed Up', request_ip: '203.0.113.78' }
    expect((await post([RUDDER_TRACK, second], { authorization: `Bearer ${SECRET}` })).status).toBe(200)
    expect((await post({ batch: [{ ...second, messageId: 'r-3' }], sentAt: '2026-03-01T11:40:01.000Z' }, { authorization: `Bearer ${SECRET}` })).status).toBe(200)
    expect(published.map((e) => [e.message_id, e.ip])).toEqual([
      [RUDDER_TRACK.messageId, '203.0.113.77'],
      ['r-2', '203.0.113.78'],
      ['r-3', '203.0.113.78'],
    ])
    // The envelope's sentAt is kept, and not applied to the forwarder's timestamp.
    expect(published[2].timestamp).toBe('2026-03-01 11:40:00.600')
  })
})

describe('POST /v1/webhooks/{sourceId}: bad input', () => {
  it('one invalid event: 400 naming the field, nothing published', async () => {
    const { signed, published } = setup()
    const noEvent = await signed({ ...SEGMENT_TRACK, event: '' })
    expect(noEvent.status).toBe(400)
    expect(await noEvent.json()).toEqual({ success: false, code: 'invalid_event', message: 'Invalid track call', errors: [{ name: 'event', message: 'must be provided on track calls' }] })
    const noType = await signed({ userId: 'u', event: 'E' })
    expect(noType.status).toBe(400)
    expect(((await noType.json()) as { errors: unknown[] }).errors).toEqual([{ name: 'type', message: 'must be one of track, identify, page, screen, group, alias' }])
    const nobody = await signed({ type: 'track', event: 'E' })
    expect(((await nobody.json()) as { errors: unknown[] }).errors).toEqual([{ name: 'userId', message: 'userId or anonymousId must be provided' }])
    expect(published).toEqual([])
  })

  it('an array with invalid events: the valid stored, the invalid listed, as /v1/batch answers', async () => {
    const { signed, published, warnings } = setup()
    const res = await signed([SEGMENT_TRACK, { ...SEGMENT_TRACK, messageId: 'bad', event: 42 }, { ...SEGMENT_TRACK, messageId: 'ok-2' }, 'text'], 'X-Segment-Signature')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      success: true,
      accepted: 2,
      rejected: [
        { index: 1, messageId: 'bad', errors: [{ name: '1.event', message: 'must be provided on track calls' }] },
        { index: 3, messageId: null, errors: [{ name: '3.type', message: 'must be one of track, identify, page, screen, group, alias' }] },
      ],
    })
    expect(published.map((e) => e.message_id)).toEqual([SEGMENT_TRACK.messageId, 'ok-2'])
    expect(warnings.map((w) => w.msg)).toEqual(['webhook events rejected'])
  })

  it('an array with no valid event, or none at all: 400', async () => {
    const { signed, published } = setup()
    const none = await signed([{ type: 'track', userId: 'u' }], 'X-Segment-Signature')
    expect(none.status).toBe(400)
    expect(await none.json()).toMatchObject({ code: 'invalid_batch', message: 'No valid event in the batch', errors: [{ name: '0.event' }] })
    const empty = await signed([], 'X-Segment-Signature')
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ errors: [{ name: 'body', message: 'must hold at least one event' }] })
    const envelope = await signed({ batch: 'nope' })
    expect(await envelope.json()).toMatchObject({ code: 'invalid_batch', errors: [{ name: 'batch', message: 'must be an array of events' }] })
    expect(published).toEqual([])
  })

  it('names batch.{index} in a { batch } envelope', async () => {
    const { signed } = setup()
    const res = await signed({ batch: [SEGMENT_TRACK, { type: 'group', userId: 'u' }] })
    expect(await res.json()).toMatchObject({ accepted: 1, rejected: [{ index: 1, errors: [{ name: 'batch.1.groupId', message: 'must be provided on group calls' }] }] })
  })

  it('signed text that is not JSON, or not an object or array: 400', async () => {
    const { signed } = setup()
    const bad = await signed('{ not json')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'invalid_json', errors: [{ name: 'body', message: 'must be valid JSON' }] })
    expect(await (await signed('"text"')).json()).toMatchObject({ code: 'invalid_json', errors: [{ name: 'body', message: 'must be an event, an array of events or a { batch } of events' }] })
  })

  it('one event past 32 KB, or a body past 4 MB: 400', async () => {
    const { signed, published } = setup()
    const big = await signed({ ...SEGMENT_TRACK, properties: { blob: 'x'.repeat(33 * 1024) } })
    expect(big.status).toBe(400)
    expect(await big.json()).toMatchObject({ code: 'body_too_large', errors: [{ name: 'body', message: 'an event must be at most 32 KB' }] })
    const huge = await signed(Array.from({ length: 300 }, (_, i) => ({ ...SEGMENT_TRACK, messageId: `m-${i}`, properties: { blob: 'x'.repeat(14 * 1024) } })), 'X-Segment-Signature')
    expect(huge.status).toBe(400)
    expect(await huge.json()).toMatchObject({ code: 'body_too_large', errors: [{ name: 'body', message: 'a webhook request must be at most 4 MB' }] })
    expect(published).toEqual([])
  })

  it('the bus unavailable: 503, so that Segment and RudderStack retry', async () => {
    const { signed } = setup({ failPublish: true })
    const res = await signed(SEGMENT_TRACK)
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ success: false, code: 'bus_unavailable' })
  })
})
