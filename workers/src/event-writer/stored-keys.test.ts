import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import type { EventStore } from '@fl0/stores'
import { eventRow, insertEvents, openTestEventStore } from '@fl0/stores/events/testing'
import { createStoredKeys } from './stored-keys.ts'

/**
 * The writer's filter of stored keys: filled from `events` by ClickHouse's
 * hash of each key, which must be the hash computed here, or a stored id would
 * pass for new and be stored twice.
 */
let store: EventStore
const silent = { warn: () => {} }
beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(() => store.close())

describe('the stored keys', () => {
  it('holds every key events held when it loaded, clears most new ones, and learns the keys stored after', async () => {
    const stored = Array.from({ length: 3_000 }, () => randomUUID())
    await insertEvents(store, stored.map((id) => eventRow({ org_id: 'org-a', message_id: id })))
    const keys = createStoredKeys(store, silent)
    expect(keys.ready).toBe(false)
    expect(keys.mayHold(keys.hash('org-a', 'anything'))).toBe(true) // not loaded yet: every id is looked up
    await keys.loaded
    expect(keys.ready).toBe(true)
    expect(stored.every((id) => keys.mayHold(keys.hash('org-a', id)))).toBe(true)
    // The same id in another organisation is another key.
    const fresh = Array.from({ length: 10_000 }, () => randomUUID())
    const falsePositives = fresh.filter((id) => keys.mayHold(keys.hash('org-a', id))).length + stored.filter((id) => keys.mayHold(keys.hash('org-b', id))).length
    expect(falsePositives).toBeLessThan(130) // ~1 % of 13,000 would be 130; the filter is sized for a million keys
    keys.add(keys.hash('org-a', fresh[0]!))
    expect(keys.mayHold(keys.hash('org-a', fresh[0]!))).toBe(true)
  })

  it('holds stored ids of any text: the hash here is the one ClickHouse computes from the same UTF-8 bytes', async () => {
    const ids = ['ünïcødé-✓', '日本語のID', '🦊🦊', 'a'.repeat(5_000), `nul\u0000inside`, 'ascii-only', ...Array.from({ length: 200 }, (_, i) => `${'é'.repeat(i)}${i}`)]
    await insertEvents(store, ids.map((id) => eventRow({ org_id: 'org-ü', message_id: id })))
    const keys = createStoredKeys(store, silent)
    await keys.loaded
    expect(keys.ready).toBe(true)
    expect(ids.filter((id) => !keys.mayHold(keys.hash('org-ü', id)))).toEqual([])
  })

  it('keeps the keys stored while it loads', async () => {
    const keys = createStoredKeys(store, silent)
    const during = randomUUID()
    keys.add(keys.hash('org-c', during)) // stored by the writer before the filter had its size
    await keys.loaded
    expect(keys.mayHold(keys.hash('org-c', during))).toBe(true)
  })

  it('is filled anew, larger, once it holds more keys than it was sized for, keeping every key', async () => {
    const keys = createStoredKeys(store, silent, 100)
    await keys.loaded
    expect(keys.ready).toBe(true)
    const ids = Array.from({ length: 5_000 }, () => randomUUID())
    // Stored by the writer: the events first, then the keys, as the writer adds them.
    await insertEvents(store, ids.map((id) => eventRow({ org_id: 'org-d', message_id: id })))
    for (const id of ids) keys.add(keys.hash('org-d', id))
    expect(keys.ready).toBe(false) // past its size: every id is looked up while it fills anew
    await expect.poll(() => keys.ready, { timeout: 30_000 }).toBe(true)
    expect(ids.every((id) => keys.mayHold(keys.hash('org-d', id)))).toBe(true)
    const fresh = Array.from({ length: 2_000 }, () => randomUUID())
    expect(fresh.filter((id) => keys.mayHold(keys.hash('org-d', id))).length).toBeLessThan(100)
  })
  it('clears all but about 1 % of new keys once it holds as many as it was sized for', async () => {
    const keys = createStoredKeys(store, silent, 200_000)
    await keys.loaded
    const key = () => keys.hash('org-e', randomUUID())
    // The events the tests above stored (8,000) and these: no more than the 200,000 it is sized for, so it is not filled anew.
    for (let i = 0; i < 190_000; i++) keys.add(key())
    expect(keys.ready).toBe(true)
    let passed = 0
    for (let i = 0; i < 100_000; i++) if (keys.mayHold(key())) passed++
    expect(passed).toBeLessThan(1_000) // 0.8 % expected
    expect(passed).toBeGreaterThan(0) // full, it does let some through: the test measures a filter that is full
  })
})
