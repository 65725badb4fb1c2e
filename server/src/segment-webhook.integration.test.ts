import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * A Segment workspace's Webhooks destination, and a RudderStack Webhook
 * destination, forwarding to a running fl0: the webhook URL and secret read as
 * the dashboard reads them (the API, signed in), signed deliveries over HTTP,
 * the events in ClickHouse once each, and the webhook gone with its source.
 */
let fl0: TestFl0
let cookie: string
let webhook: { url: string; secret: string }

beforeAll(async () => {
  fl0 = await startTestFl0()
  // The first account adopts the test organisation as its admin (stores/src/metadata/users.ts).
  cookie = await fl0.signUp('Ada', 'ada@example.com')
})
afterAll(async () => {
  await fl0?.stop()
})

const orgEvents = 'SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id = {m:String}'

/** Posts as Segment's Webhooks destination does: JSON.stringify of the event, its hex HMAC-SHA1 in X-Signature. */
function deliver(event: unknown, secret = webhook.secret) {
  const body = JSON.stringify(event)
  return fetch(webhook.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': createHmac('sha1', secret).update(body).digest('hex') },
    body,
  })
}

const EVENT = {
  anonymousId: 'anon-webhook-1',
  channel: 'client',
  context: {
    ip: '198.51.100.23',
    library: { name: 'analytics.js', version: 'next-1.72.0' },
    page: { path: '/pricing', referrer: '', search: '', title: 'Pricing', url: 'https://acme.test/pricing' },
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
  },
  event: 'Plan Selected',
  integrations: {},
  messageId: 'ajs-webhook-1',
  originalTimestamp: '2026-02-10T09:29:59.000Z',
  projectId: 'pRoJeCt123',
  properties: { plan: 'pro' },
  receivedAt: '2026-02-10T09:30:01.000Z',
  sentAt: '2026-02-10T09:30:00.000Z',
  timestamp: '2026-02-10T09:30:00.500Z',
  type: 'track',
  userId: 'user-webhook-1',
  version: 2,
  writeKey: 'SeGmEnTwRiTeKeY',
}

describe("a Segment source's webhook, end to end", () => {
  it('gives the URL and secret to members through the API', async () => {
    const res = await fetch(`${fl0.url}/api/orgs/${fl0.org.url_code}/sources/${fl0.segment.id}`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const view = (await res.json()) as { webhook_url: string; webhook_secret: string }
    expect(view.webhook_url).toBe(`${fl0.url}/v1/webhooks/${fl0.segment.id}`)
    expect(view.webhook_secret).toBe(fl0.segment.webhook_secret)
    expect(view.webhook_secret).toMatch(/^[0-9a-f]{64}$/)
    webhook = { url: view.webhook_url, secret: view.webhook_secret }
  })

  it('stores a signed delivery in ClickHouse as from the source, at the forwarder’s time and the visitor’s address', async () => {
    const res = await deliver(EVENT)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    await fl0.waitForCount(orgEvents, { org: fl0.org.id, m: EVENT.messageId }, 1)
    const [row] = await fl0.query<Record<string, unknown>>(
      `SELECT source_id, type, event, user_id, anonymous_id, toString(timestamp) AS ts, toString(sent_at) AS sent, ip, user_agent, page_path,
              JSONExtractString(context, 'library', 'name') AS library, toJSONString(properties) AS properties
       FROM events WHERE org_id = {org:String} AND message_id = {m:String}`,
      { org: fl0.org.id, m: EVENT.messageId },
    )
    expect(row).toEqual({
      source_id: fl0.segment.id,
      type: 'track',
      event: 'Plan Selected',
      user_id: 'user-webhook-1',
      anonymous_id: 'anon-webhook-1',
      // Segment's timestamp as sent, not moved by fl0's receipt (weeks later here) minus sentAt.
      ts: '2026-02-10 09:30:00.500',
      sent: '2026-02-10 09:30:00.000',
      ip: '198.51.100.23',
      user_agent: EVENT.context.userAgent,
      page_path: '/pricing',
      library: 'analytics.js',
      properties: '{"plan":"pro"}',
    })
  })

  it('stores a second delivery of the same messageId (a retry) once', async () => {
    expect((await deliver(EVENT)).status).toBe(200)
    const after = { ...EVENT, messageId: 'ajs-webhook-2', event: 'Checkout Started' }
    expect((await deliver(after)).status).toBe(200)
    await fl0.waitForCount(orgEvents, { org: fl0.org.id, m: after.messageId }, 1)
    const [{ n }] = await fl0.query<{ n: string }>(orgEvents, { org: fl0.org.id, m: EVENT.messageId })
    expect(Number(n)).toBe(1)
  })

  it('refuses a delivery signed with another secret: 401, nothing stored', async () => {
    const forged = { ...EVENT, messageId: 'forged-1' }
    const res = await deliver(forged, 'f'.repeat(64))
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ success: false, code: 'invalid_signature' })
    const unsigned = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forged) })
    expect(unsigned.status).toBe(401)
    // A later good delivery is stored; the forged one never is.
    const later = { ...EVENT, messageId: 'ajs-webhook-3' }
    expect((await deliver(later)).status).toBe(200)
    await fl0.waitForCount(orgEvents, { org: fl0.org.id, m: later.messageId }, 1)
    const [{ n }] = await fl0.query<{ n: string }>(orgEvents, { org: fl0.org.id, m: 'forged-1' })
    expect(Number(n)).toBe(0)
  })

  it("takes RudderStack's Webhook destination, the secret as a Bearer header, the address from request_ip", async () => {
    const rudder = {
      anonymousId: 'anon-rudder-1',
      channel: 'web',
      context: { library: { name: 'RudderLabs JavaScript SDK', version: '3.7.1' }, page: { path: '/docs', url: 'https://acme.test/docs' }, userAgent: 'Mozilla/5.0' },
      event: 'Docs Opened',
      integrations: { All: true },
      messageId: 'rudder-webhook-1',
      originalTimestamp: '2026-02-11T10:00:00.000Z',
      properties: { section: 'webhooks' },
      receivedAt: '2026-02-11T10:00:01.000Z',
      request_ip: '203.0.113.77',
      rudderId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
      sentAt: '2026-02-11T10:00:00.500Z',
      timestamp: '2026-02-11T10:00:00.200Z',
      type: 'track',
      userId: '',
    }
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'RudderLabs', authorization: `Bearer ${webhook.secret}` },
      body: JSON.stringify(rudder),
    })
    expect(res.status).toBe(200)
    await fl0.waitForCount(orgEvents, { org: fl0.org.id, m: rudder.messageId }, 1)
    const [row] = await fl0.query<Record<string, unknown>>(
      'SELECT source_id, ip, toString(timestamp) AS ts FROM events WHERE org_id = {org:String} AND message_id = {m:String}',
      { org: fl0.org.id, m: rudder.messageId },
    )
    expect(row).toEqual({ source_id: fl0.segment.id, ip: '203.0.113.77', ts: '2026-02-11 10:00:00.200' })
  })

  it('stops at once when the source is deleted through the API', async () => {
    const deleted = await fetch(`${fl0.url}/api/orgs/${fl0.org.url_code}/sources/${fl0.segment.id}`, { method: 'DELETE', headers: { cookie } })
    expect(deleted.status).toBe(204)
    const res = await deliver({ ...EVENT, messageId: 'after-delete' })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ success: false, code: 'unknown_webhook' })
  })
})
