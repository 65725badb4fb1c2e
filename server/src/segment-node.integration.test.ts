import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Analytics } from '@segment/analytics-node'
import { startTestFl0, type TestFl0 } from './testing.ts'

/** Segment's own Node library, unchanged, sends to a running fl0 over HTTP. */
let fl0: TestFl0

beforeAll(async () => {
  fl0 = await startTestFl0()
})
afterAll(async () => {
  await fl0?.stop()
})

describe('end to end with @segment/analytics-node', () => {
  it('stores every call type with its fields', async () => {
    const analytics = new Analytics({ writeKey: fl0.segment.write_key, host: fl0.url, path: '/v1/batch', flushAt: 20, flushInterval: 100 })
    const errors: unknown[] = []
    analytics.on('error', (e) => errors.push(e))
    const when = new Date('2026-02-10T09:30:00.000Z')
    analytics.identify({ userId: 'user-1', traits: { email: 'ada@acme.test', plan: 'pro', employees: 120 }, timestamp: when })
    analytics.group({ userId: 'user-1', groupId: 'acme', traits: { name: 'Acme', industry: 'Tools' }, timestamp: when })
    analytics.track({ userId: 'user-1', event: 'Report Created', properties: { charts: 3, shared: true }, timestamp: when, messageId: 'msg-report-1' })
    analytics.page({ anonymousId: 'anon-1', name: 'Pricing', properties: { url: 'https://acme.test/pricing', path: '/pricing', title: 'Pricing' }, timestamp: when })
    analytics.screen({ userId: 'user-1', name: 'Settings', timestamp: when })
    analytics.alias({ userId: 'user-1', previousId: 'anon-1', timestamp: when })
    await analytics.closeAndFlush()
    expect(errors).toEqual([])

    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String}', { org: fl0.org.id }, 6)
    const rows = await fl0.query<Record<string, unknown>>(
      `SELECT type, event, name, user_id, anonymous_id, group_id, previous_id, source_id, toString(timestamp) AS ts,
              ip, page_path, page_title, JSONExtractString(context, 'library', 'name') AS library, toJSONString(traits) AS traits, toJSONString(properties) AS properties
       FROM events WHERE org_id = {org:String} ORDER BY type`,
      { org: fl0.org.id },
    )
    const byType = Object.fromEntries(rows.map((r) => [r.type, r]))
    expect(Object.keys(byType).sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'track'])
    for (const r of rows) {
      expect(r.source_id).toBe(fl0.segment.id)
      expect(r.ip).toBe('127.0.0.1')
      expect(r.library).toBe('@segment/analytics-node')
      // analytics-node stamps sentAt when it sends; the correction keeps the event's own time to within the send latency.
      expect(Math.abs(Date.parse(`${r.ts}Z`) - when.getTime())).toBeLessThan(5_000)
    }
    expect(byType.identify).toMatchObject({ user_id: 'user-1' })
    expect(JSON.parse(byType.identify.traits as string)).toEqual({ email: 'ada@acme.test', plan: 'pro', employees: 120 })
    expect(byType.group).toMatchObject({ group_id: 'acme' })
    expect(JSON.parse(byType.group.traits as string)).toEqual({ name: 'Acme', industry: 'Tools' })
    expect(byType.track).toMatchObject({ event: 'Report Created' })
    expect(JSON.parse(byType.track.properties as string)).toEqual({ charts: 3, shared: true })
    expect(byType.page).toMatchObject({ name: 'Pricing', anonymous_id: 'anon-1', page_path: '/pricing', page_title: 'Pricing' })
    expect(byType.screen).toMatchObject({ name: 'Settings' })
    expect(byType.alias).toMatchObject({ previous_id: 'anon-1', user_id: 'user-1' })
  })

  it('counts a message sent twice once', async () => {
    const analytics = new Analytics({ writeKey: fl0.segment.write_key, host: fl0.url, path: '/v1/batch', flushAt: 1 })
    analytics.track({ userId: 'user-2', event: 'Twice', messageId: 'msg-twice' })
    await analytics.closeAndFlush()
    const again = new Analytics({ writeKey: fl0.segment.write_key, host: fl0.url, path: '/v1/batch', flushAt: 1 })
    again.track({ userId: 'user-2', event: 'Twice', messageId: 'msg-twice' })
    again.track({ userId: 'user-2', event: 'Once more', messageId: 'msg-after' })
    await again.closeAndFlush()
    await fl0.waitForCount("SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id = 'msg-after'", { org: fl0.org.id }, 1)
    const [{ n }] = await fl0.query<{ n: string }>("SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id = 'msg-twice'", { org: fl0.org.id })
    expect(Number(n)).toBe(1)
  })

  it('refuses a deleted source at once', async () => {
    const { deleteSource } = await import('@fl0/stores')
    const res1 = await fetch(`${fl0.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${fl0.snippet.write_key}:`).toString('base64')}` },
      body: JSON.stringify({ userId: 'u', event: 'Before' }),
    })
    expect(res1.status).toBe(200)
    await deleteSource(fl0.stores.metadata!, fl0.org.id, fl0.snippet.id)
    fl0.writeKeys!.invalidate(fl0.snippet.write_key)
    const res2 = await fetch(`${fl0.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${fl0.snippet.write_key}:`).toString('base64')}` },
      body: JSON.stringify({ userId: 'u', event: 'After' }),
    })
    expect(res2.status).toBe(401)
  })
})
