import { describe, expect, it } from 'vitest'
import { recordKey, shapeOf } from './shape.ts'

const line = (r: object) => JSON.stringify({ org_id: 'o', message_id: 'm', timestamp: '2026-03-01 00:00:00.000', source_id: 's', ...r })

describe('record shapes', () => {
  it('are the same for records that differ only in their values', () => {
    expect(shapeOf({ plan: 'pro', seats: 3, tags: ['a'], nested: { ok: true } })).toBe(shapeOf({ plan: 'free', seats: 12, tags: ['b', 'c'], nested: { ok: false } }))
    expect(recordKey(line({ type: 'track', event: 'E', properties: { a: 'x' } }))).toBe(recordKey(line({ type: 'track', event: 'E', properties: { a: 'y' }, user_id: 'other' })))
  })

  it('tell apart anything ClickHouse could type differently', () => {
    const distinct = [
      { a: 'text' },
      { a: 1 },
      { a: 1.5 },
      { a: true },
      { a: null },
      { a: '2026-03-01' },
      { a: '2026-03-01T10:00:00Z' },
      { a: '12 apples' },
      { a: ['x'] },
      { a: [1] },
      { a: [1, 'x'] },
      { a: { b: 1 } },
      { a: 'text', b: 'text' },
      {},
    ]
    expect(new Set(distinct.map(shapeOf)).size).toBe(distinct.length)
  })

  it('keys a record by organisation, call and event, and skips what the dictionary cannot learn from', () => {
    const keys = [
      recordKey(line({ type: 'track', event: 'E', properties: {} })),
      recordKey(line({ type: 'track', event: 'F', properties: {} })),
      recordKey(line({ type: 'track', event: 'E', properties: {}, org_id: 'other' })),
      recordKey(line({ type: 'identify', traits: { a: 1 } })),
      recordKey(line({ type: 'group', traits: { a: 1 } })),
    ]
    expect(keys.every((k) => typeof k === 'string')).toBe(true)
    expect(new Set(keys).size).toBe(keys.length)
    expect(recordKey(line({ type: 'page', name: 'Pricing', properties: { a: 1 } }))).toBeUndefined()
    expect(recordKey(line({ type: 'alias', previous_id: 'x' }))).toBeUndefined()
    expect(recordKey(line({ type: 'track', event: '' }))).toBeUndefined()
    expect(recordKey('{"org_id":"o","type":"track"')).toBeUndefined()
    expect(recordKey('[]')).toBeUndefined()
  })
})
