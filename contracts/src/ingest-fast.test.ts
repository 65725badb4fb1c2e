import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EVENT_TYPES, schemaByType, type EventType } from './ingest.ts'
import { fastParse, parseCall } from './ingest-fast.ts'

/**
 * The fast path must answer as zod does: where it settles a call, with zod's
 * output; where zod refuses, never settle. Generated calls mix the values
 * clients send with those just past each limit and of every wrong type.
 */
const longString = (n: number) => 'x'.repeat(n)
const value = fc.oneof(
  fc.constantFrom(
    null,
    '',
    ' ',
    '  Signed Up  ',
    'u1',
    longString(200),
    longString(201),
    longString(500),
    longString(501),
    longString(1024),
    longString(1025),
    ` ${longString(200)} `,
    '2026-03-01T12:00:00.000Z',
    '2026-03-01',
    '1899-12-31T23:59:59.999Z',
    '1900-01-01T00:00:00.000Z',
    '2299-12-31T23:59:59.999Z',
    '2300-01-01T00:00:00.000Z',
    'not a date',
    'Tue, 01 Mar 2026 12:00:00 GMT',
    0,
    -1,
    1.5,
    42,
    1e21,
    Number.POSITIVE_INFINITY,
    Number.NaN,
    true,
    false,
    [],
    ['a'],
    {},
    { page: { path: '/' } },
  ),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
)
const keys = ['userId', 'anonymousId', 'context', 'integrations', 'messageId', 'timestamp', 'originalTimestamp', 'sentAt', 'writeKey', 'options',
  'event', 'properties', 'traits', 'name', 'category', 'groupId', 'previousId', 'type', 'unknownField']
const call = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length })
const type = fc.constantFrom<EventType>(...EVENT_TYPES)

describe('parseCall: the fast path answers as zod does', () => {
  it('settles a call only when zod accepts it, with the same output', () => {
    fc.assert(
      fc.property(type, call, (t, raw) => {
        const fast = fastParse(t, raw)
        const zod = schemaByType[t].safeParse(raw)
        if (fast !== undefined) {
          expect(zod.success).toBe(true)
          expect(fast).toStrictEqual(zod.data)
          expect(Object.keys(fast)).toEqual(Object.keys(zod.data as object))
        }
      }),
      { numRuns: 20_000, seed: 19 },
    )
  })

  it('gives zod’s result, errors included, for any call', () => {
    fc.assert(
      fc.property(type, call, (t, raw) => {
        expect(JSON.stringify(parseCall(t, raw))).toBe(JSON.stringify(schemaByType[t].safeParse(raw)))
      }),
      { numRuns: 5_000, seed: 7 },
    )
  })

  it('settles the calls clients send', () => {
    const track = { type: 'track', userId: 'u1', anonymousId: 42, event: ' Signed Up ', properties: { plan: 'pro' }, context: { ip: '1.2.3.4' },
      messageId: 'm-1', timestamp: '2026-03-01T12:00:00.000Z', sentAt: '2026-03-01T12:00:01.000Z', integrations: {}, writeKey: 'k' }
    expect(fastParse('track', track)).toEqual({ userId: 'u1', anonymousId: '42', event: 'Signed Up', properties: { plan: 'pro' }, context: { ip: '1.2.3.4' },
      messageId: 'm-1', timestamp: '2026-03-01T12:00:00.000Z', sentAt: '2026-03-01T12:00:01.000Z', integrations: {}, writeKey: 'k' })
    expect(fastParse('identify', { userId: null, anonymousId: 'a', traits: { email: 'a@b.c' } })).toEqual({ userId: null, anonymousId: 'a', traits: { email: 'a@b.c' } })
    expect(fastParse('group', { userId: 'u', groupId: 7 })).toEqual({ userId: 'u', groupId: '7' })
    expect(fastParse('alias', { userId: 'u', previousId: 'p' })).toEqual({ userId: 'u', previousId: 'p' })
    expect(fastParse('page', { anonymousId: 'a', name: 'Home', category: null, properties: { path: '/' } })).toEqual({ anonymousId: 'a', name: 'Home', category: null, properties: { path: '/' } })
  })

  it('leaves every refusal to zod, so its messages stand', () => {
    expect(fastParse('track', { userId: 'u' })).toBeUndefined()
    expect(fastParse('track', { userId: 'u', event: '   ' })).toBeUndefined()
    expect(fastParse('group', { userId: 'u', groupId: '' })).toBeUndefined()
    expect(fastParse('track', { userId: 'u', event: 'e', timestamp: '2300-01-01T00:00:00.000Z' })).toBeUndefined()
    expect(fastParse('track', { userId: longString(1025), event: 'e' })).toBeUndefined()
    expect(parseCall('track', { userId: 'u', event: 'e', properties: [] })).toMatchObject({ success: false })
  })
})
