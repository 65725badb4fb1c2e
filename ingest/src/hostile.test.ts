import { describe, expect, it } from 'vitest'
import { VALUE_MESSAGES } from '@fl0/contracts'
import { setupIngest as setup } from './testing.ts'

/**
 * Inputs that the events table cannot store, or that broke ingest or the
 * workers: each is refused at the edge with a 400 naming the field and the
 * rule, and nothing is published; in a batch, only its item is refused.
 */
function nested(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

/** As text: JSON.stringify itself cannot write 5,000 levels, though JSON.parse reads them. */
function nestedText(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
}

const RANGE = 'must be a date between 1900-01-01 and 2299-12-31'

describe('times the events table cannot hold', () => {
  it.each([
    ['a timestamp in year 9999', { timestamp: '9999-12-31T23:59:59Z' }, 'timestamp', RANGE],
    ['a timestamp in year 99999', { timestamp: '+099999-01-01T00:00:00Z' }, 'timestamp', RANGE],
    ['a timestamp before 1900', { timestamp: '1899-12-31T23:59:59Z' }, 'timestamp', RANGE],
    ['a sentAt in year 10000', { sentAt: '+010000-01-01T00:00:00Z' }, 'sentAt', RANGE],
  ])('refuses %s', async (_, fields, name, message) => {
    const { post, published } = setup()
    const res = await post('/v1/track', { userId: 'x', event: 'e', ...fields })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name, message }])
    expect(published).toEqual([])
  })

  it('refuses a timestamp that the clock correction takes out of range', async () => {
    const { post, published } = setup()
    // Both dates are storable; receipt − (sentAt − timestamp) lands in 2426.
    const res = await post('/v1/track', { userId: 'x', event: 'e', timestamp: '2290-01-01T00:00:00Z', sentAt: '1900-01-01T00:00:00Z' })
    expect(res.status).toBe(400)
    const [error] = (await res.json()).errors
    expect(error.name).toBe('timestamp')
    expect(error.message).toMatch(/^must be a date between 1900-01-01 and 2299-12-31 once corrected for the client's clock/)
    expect(published).toEqual([])
  })

  it('stores the edges of the range', async () => {
    const { post, published } = setup()
    expect((await post('/v1/track', { userId: 'x', event: 'e', timestamp: '1900-01-01T00:00:00Z' })).status).toBe(200)
    expect((await post('/v1/track', { userId: 'x', event: 'e', timestamp: '2299-12-31T23:59:59.999Z' })).status).toBe(200)
    expect(published.map((e) => e.timestamp)).toEqual(['1900-01-01 00:00:00.000', '2299-12-31 23:59:59.999'])
  })
})

describe('values the JSON columns cannot hold', () => {
  it.each([
    ['traits nested 33 deep', '/v1/identify', { traits: nested(33) }, /^traits(\.a){31}$/, VALUE_MESSAGES.depth],
    ['an array nested past the limit', '/v1/track', { event: 'e', properties: { list: JSON.parse('['.repeat(40) + ']'.repeat(40)) } }, /^properties\.list(\.0)+$/, VALUE_MESSAGES.depth],
    ['an unpaired surrogate in a value', '/v1/track', { event: 'e', properties: { a: 'x\ud800' } }, /^properties\.a$/, VALUE_MESSAGES.unicode],
    ['an unpaired surrogate in a key', '/v1/track', { event: 'e', properties: { ['\udc00']: 1 } }, /^properties\.\udc00$/, VALUE_MESSAGES.unicode],
    ['an unpaired surrogate in the event name', '/v1/track', { event: 'e\ud800' }, /^event$/, VALUE_MESSAGES.unicode],
    ['an integer past 64 bits', '/v1/track', { event: 'e', properties: { n: 2e19 } }, /^properties\.n$/, VALUE_MESSAGES.number],
    ['a negative integer past 64 bits', '/v1/track', { event: 'e', properties: { n: -1e20 } }, /^properties\.n$/, VALUE_MESSAGES.number],
    ['a dotted key and nested keys naming one path', '/v1/track', { event: 'e', properties: { 'a.b': 1, a: { b: 2 } } }, /^properties\.a\.b$/, VALUE_MESSAGES.duplicatePath],
    ['the same in an array of objects', '/v1/track', { event: 'e', properties: { x: [{ 'a.b': 1, a: { b: [2] } }] } }, /^properties\.x\.0\.a\.b$/, VALUE_MESSAGES.duplicatePath],
    ['the same in the context', '/v1/page', { context: { 'c.d': 1, c: { d: 2 } } }, /^context\.c\.d$/, VALUE_MESSAGES.duplicatePath],
  ])('refuses %s', async (_, path, body, name, message) => {
    const { post, published } = setup()
    const res = await post(path, { userId: 'u', ...body })
    expect(res.status).toBe(400)
    const json = await res.json()
    expect(json.code).toBe('invalid_event')
    expect(json.errors).toHaveLength(1)
    expect(json.errors[0].name).toMatch(name)
    expect(json.errors[0].message).toBe(message)
    expect(published).toEqual([])
  })

  it('refuses properties nested 5,000 deep (10 KB), which JSON.stringify cannot write back', async () => {
    const { post, published } = setup()
    const res = await post('/v1/track', `{"userId":"u","event":"e","properties":${nestedText(5000)}}`, { raw: true })
    expect(res.status).toBe(400)
    const [error] = (await res.json()).errors
    expect(error).toEqual({ name: `properties${'.a'.repeat(31)}`, message: VALUE_MESSAGES.depth })
    expect(published).toEqual([])
  })

  it('refuses a number JSON cannot hold (1e400 reads as Infinity)', async () => {
    const { post, published } = setup()
    const res = await post('/v1/track', '{"userId":"u","event":"e","properties":{"n":1e400}}', { raw: true })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'properties.n', message: VALUE_MESSAGES.number }])
    expect(published).toEqual([])
  })

  it('stores what the JSON columns do hold: nesting at the limit, big floats, dotted keys that do not collide, empty keys', async () => {
    const { post, published } = setup()
    const properties = { deep: nested(30), big: 1.5e300, small: -9.2e18, huge: 1e21, 'a.b': 1, a: { c: 2 }, '': 'empty', nulls: [null, { x: null }] }
    const res = await post('/v1/track', { userId: 'u', event: 'e', properties })
    expect(res.status).toBe(200)
    expect(published[0].properties).toEqual(properties)
  })
})

describe('the NUL character, which PostgreSQL refuses', () => {
  const NUL = 'a\u0000b'
  it.each([
    ['userId', '/v1/track', { userId: NUL, event: 'e' }],
    ['anonymousId', '/v1/track', { anonymousId: NUL, event: 'e' }],
    ['event', '/v1/track', { userId: 'u', event: NUL }],
    ['messageId', '/v1/track', { userId: 'u', event: 'e', messageId: NUL }],
    ['properties.k', '/v1/track', { userId: 'u', event: 'e', properties: { k: NUL } }],
    ['properties.a\u0000b', '/v1/track', { userId: 'u', event: 'e', properties: { [NUL]: 1 } }],
    ['context.page.url', '/v1/page', { userId: 'u', context: { page: { url: NUL } } }],
    ['integrations.x', '/v1/track', { userId: 'u', event: 'e', integrations: { x: NUL } }],
    ['name', '/v1/page', { userId: 'u', name: NUL }],
    ['category', '/v1/screen', { userId: 'u', name: 'n', category: NUL }],
    ['traits.email', '/v1/identify', { userId: 'u', traits: { email: NUL } }],
    ['groupId', '/v1/group', { userId: 'u', groupId: NUL }],
    ['previousId', '/v1/alias', { userId: 'u', previousId: NUL }],
  ])('refuses it in %s', async (name, path, body) => {
    const { post, published } = setup()
    const res = await post(path, body)
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name, message: VALUE_MESSAGES.nul }])
    expect(published).toEqual([])
  })

  it('answers an unknown write key for a key holding NUL, without looking it up', async () => {
    const { post } = setup()
    const res = await post('/v1/track', { userId: 'u', event: 'e', writeKey: 'k\u0000' }, { auth: null })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'unknown_write_key', errors: [{ name: 'writeKey' }] })
  })
})

describe('in a batch, only the bad item is refused', () => {
  it('stores the valid items around an item nested 5,000 deep, one holding NUL and one from year 9999', async () => {
    const { post, published } = setup()
    const items = [
      JSON.stringify({ type: 'track', userId: 'u', event: 'ok', messageId: 'm0' }),
      `{"type":"track","userId":"u","event":"deep","messageId":"m1","properties":${nestedText(5000)}}`,
      JSON.stringify({ type: 'track', userId: 'u\u0000', event: 'nul', messageId: 'm2' }),
      JSON.stringify({ type: 'track', userId: 'u', event: 'far', messageId: 'm3', timestamp: '9999-12-31T23:59:59Z' }),
      JSON.stringify({ type: 'identify', userId: 'u', messageId: 'm4', traits: { plan: 'pro' } }),
    ]
    const res = await post('/v1/batch', `{"batch":[${items.join(',')}]}`, { raw: true })
    expect(res.status).toBe(200)
    const json = await res.json()
    expect(json).toMatchObject({ success: true, accepted: 2 })
    expect(json.rejected.map((r: { index: number; messageId: string }) => [r.index, r.messageId])).toEqual([
      [1, 'm1'],
      [2, 'm2'],
      [3, 'm3'],
    ])
    expect(json.rejected[1].errors).toEqual([{ name: 'batch.2.userId', message: VALUE_MESSAGES.nul }])
    expect(json.rejected[2].errors).toEqual([{ name: 'batch.3.timestamp', message: RANGE }])
    expect(published.map((e) => e.message_id)).toEqual(['m0', 'm4'])
  })

  it("refuses an item whose context, merged with the batch's, names one path twice", async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'e', context: { 'a.b': 1 } }, { type: 'track', userId: 'u', event: 'ok' }], context: { a: { b: 2 } } })
    expect(res.status).toBe(200)
    expect((await res.json()).rejected).toEqual([{ index: 0, messageId: null, errors: [{ name: 'batch.0.context.a.b', message: VALUE_MESSAGES.duplicatePath }] }])
    expect(published.map((e) => e.event)).toEqual(['ok'])
  })

  it('refuses the whole batch when its shared context cannot be stored', async () => {
    const { post, published } = setup()
    const res = await post('/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'e' }], context: { ip: 'x\u0000' } })
    expect(res.status).toBe(400)
    expect((await res.json()).errors).toEqual([{ name: 'context.ip', message: VALUE_MESSAGES.nul }])
    expect(published).toEqual([])
  })
})
