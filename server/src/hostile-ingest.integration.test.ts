import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrganisation, createSource } from '@fl0/stores'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * Hostile and odd input through a running fl0, as a public write key lets
 * anyone send it: every call is either refused with a 4xx naming the field,
 * or answered 2xx and then stored, once; none is acknowledged and dropped, and
 * none stops storage for anyone else (a year-9999 timestamp once did, for every
 * organisation, until a restart did not help either).
 */
let fl0: TestFl0
let otherKey: string
let otherOrg: string

beforeAll(async () => {
  fl0 = await startTestFl0()
  const org = await createOrganisation(fl0.stores.metadata!, 'Other Org')
  otherOrg = org.id
  otherKey = (await createSource(fl0.stores.metadata!, { orgId: org.id, type: 'segment', name: 'segment' })).write_key
})
afterAll(async () => {
  await fl0?.stop()
})

function send(path: string, body: string | Buffer, key = fl0.segment.write_key, headers: Record<string, string> = {}) {
  return fetch(`${fl0.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  })
}

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

describe('hostile input through a running fl0', () => {
  it('refuses what cannot be stored with a 400 naming the field, stores what it acknowledges, and goes on storing for everyone', async () => {
    const refused: Array<[string, string, string, string]> = [
      // [what, path, body, the field named]
      ["the issue's year-9999 event", '/v1/track', '{"userId":"x","event":"e","timestamp":"9999-12-31T23:59:59Z"}', 'timestamp'],
      ['a year-99999 event', '/v1/track', '{"userId":"x","event":"e","timestamp":"+099999-01-01T00:00:00Z"}', 'timestamp'],
      ['properties nested 5,000 deep', '/v1/track', `{"userId":"x","event":"e","properties":${nested(5000)}}`, `properties${'.a'.repeat(31)}`],
      ['a NUL in the user id', '/v1/identify', '{"userId":"x\\u0000y"}', 'userId'],
      ['a NUL in a trait', '/v1/identify', '{"userId":"x","traits":{"name":"\\u0000"}}', 'traits.name'],
      ['an unpaired surrogate', '/v1/track', '{"userId":"x","event":"e","properties":{"s":"\\udfff"}}', 'properties.s'],
      ['a dotted key and nested keys naming one path', '/v1/track', '{"userId":"x","event":"e","properties":{"a.b":1,"a":{"b":2}}}', 'properties.a.b'],
      ['an integer past 64 bits', '/v1/track', '{"userId":"x","event":"e","properties":{"n":20000000000000000000}}', 'properties.n'],
    ]
    for (const [what, path, body, field] of refused) {
      const res = await send(path, body)
      expect(res.status, what).toBe(400)
      const json = await res.json()
      expect(json.errors.map((e: { name: string }) => e.name), what).toContain(field)
      expect(json.code, what).toBeTruthy()
    }

    // Odd but storable: each answered 200 and stored once.
    const run = randomUUID().slice(0, 8)
    const id = (what: string) => `${run}-${what}`
    const accepted: Array<[string, string, string | Buffer, Record<string, string>?]> = [
      ['edge-1900', '/v1/track', JSON.stringify({ userId: 'x', event: 'e', messageId: id('edge-1900'), timestamp: '1900-01-01T00:00:00Z' })],
      ['edge-2299', '/v1/track', JSON.stringify({ userId: 'x', event: 'e', messageId: id('edge-2299'), timestamp: '2299-12-31T23:59:59.999Z' })],
      ['deep-30', '/v1/track', `{"userId":"x","event":"e","messageId":"${id('deep-30')}","properties":${nested(30)}}`],
      ['dotted', '/v1/track', JSON.stringify({ userId: 'x', event: 'e', messageId: id('dotted'), properties: { 'a.b': 1, a: { c: 2 }, '': 'empty', 'x.y.z': [1, 'two', { three: 3 }] } })],
      ['numbers', '/v1/track', JSON.stringify({ userId: 'x', event: 'e', messageId: id('numbers'), properties: { big: 1.7e308, tiny: 5e-324, neg: -9.2e18, huge: 1e21 } })],
      ['text', '/v1/track', JSON.stringify({ userId: 'ü-✓-😀', event: 'Événement «x»', messageId: id('text'), properties: { emoji: '😀', rtl: 'שלום', zw: 'a\u200bb' } })],
      ['gzip', '/v1/track', gzipSync(JSON.stringify({ userId: 'x', event: 'e', messageId: id('gzip') })), { 'content-encoding': 'gzip' }],
      ['near-limit', '/v1/track', JSON.stringify({ userId: 'x', event: 'e', messageId: id('near-limit'), properties: { blob: 'x'.repeat(31 * 1024) } })],
      ['in-batch', '/v1/batch', `{"batch":[{"type":"track","userId":"x","event":"e","messageId":"${id('in-batch')}"},{"type":"track","userId":"x","event":"deep","properties":${nested(5000)}}]}`],
    ]
    for (const [what, path, body, headers] of accepted) {
      const res = await send(path, body, undefined, headers)
      expect(res.status, `${what}: ${await res.clone().text()}`).toBe(200)
    }
    const ids = accepted.map(([what]) => id(what))
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id IN {ids:Array(String)}', { org: fl0.org.id, ids }, ids.length, 60_000)

    // Another organisation's events are stored after all of that.
    const res = await send('/v1/track', JSON.stringify({ userId: 'y', event: 'After', messageId: id('other') }), otherKey)
    expect(res.status).toBe(200)
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id = {id:String}', { org: otherOrg, id: id('other') }, 1, 60_000)

    // Each stored once, and nothing acknowledged was set aside.
    const counts = await fl0.query<{ message_id: string; n: string }>(
      'SELECT message_id, count() AS n FROM events WHERE org_id = {org:String} AND message_id IN {ids:Array(String)} GROUP BY message_id',
      { org: fl0.org.id, ids },
    )
    expect(counts.map((r) => Number(r.n))).toEqual(ids.map(() => 1))
    expect(await fl0.query('SELECT consumer, reason FROM dead_letters')).toEqual([])
    const stored = await fl0.query<{ ts: string; p: string }>("SELECT toString(timestamp) AS ts, toJSONString(properties) AS p FROM events WHERE message_id IN {ids:Array(String)} ORDER BY timestamp", { ids: [id('edge-1900'), id('edge-2299'), id('text')] })
    expect(stored.map((r) => r.ts)).toEqual(['1900-01-01 00:00:00.000', expect.stringMatching(/^20/), '2299-12-31 23:59:59.999'])
    expect(JSON.parse(stored[1].p)).toEqual({ emoji: '😀', rtl: 'שלום', zw: 'a\u200bb' })
  })
})
