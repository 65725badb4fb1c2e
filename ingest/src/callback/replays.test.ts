import { describe, expect, it } from 'vitest'
import { createReplayCache } from './replays.ts'

/** The signatures taken: each once until it expires, at most maxEntries held, the oldest forgotten first. */
describe('replay cache', () => {
  it('takes a signature once until it expires, and again after', () => {
    const replays = createReplayCache()
    expect(replays.take('a', 1000, 0)).toBe(true)
    expect(replays.take('a', 1000, 500)).toBe(false)
    expect(replays.take('a', 1000, 1000)).toBe(false) // the last millisecond of its window
    expect(replays.take('b', 1000, 500)).toBe(true)
    expect(replays.take('a', 2000, 1001)).toBe(true)
    expect(replays.take('a', 2000, 1500)).toBe(false)
  })

  it('drops expired signatures as time passes, so that they take no room', () => {
    const replays = createReplayCache({ maxEntries: 3 })
    for (const sig of ['a', 'b', 'c']) replays.take(sig, 1000, 0)
    expect(replays.size()).toBe(3)
    expect(replays.take('d', 5000, 1001)).toBe(true)
    expect(replays.size()).toBe(1)
    // Nothing was evicted to make room: what is held is still refused.
    expect(replays.take('d', 5000, 1002)).toBe(false)
  })

  it('an expired signature behind one that is not is taken afresh, and dropped in turn', () => {
    const replays = createReplayCache({ maxEntries: 10 })
    replays.take('late', 9000, 0) // a ts ahead of the others: it stays at the front
    replays.take('early', 1000, 0)
    expect(replays.take('early', 1000, 500)).toBe(false)
    expect(replays.take('early', 3000, 2000)).toBe(true)
    expect(replays.size()).toBe(2)
    expect(replays.take('x', 9000, 9001)).toBe(true)
    expect(replays.size()).toBe(1)
  })

  it('holds at most maxEntries, forgetting the oldest taken first', () => {
    const replays = createReplayCache({ maxEntries: 3 })
    for (const sig of ['a', 'b', 'c', 'd']) expect(replays.take(sig, 1000, 0)).toBe(true)
    expect(replays.size()).toBe(3)
    expect(replays.take('b', 1000, 0)).toBe(false)
    expect(replays.take('c', 1000, 0)).toBe(false)
    expect(replays.take('d', 1000, 0)).toBe(false)
    expect(replays.take('a', 1000, 0)).toBe(true) // forgotten: taken again, and 'b' goes
    expect(replays.take('b', 1000, 0)).toBe(true)
  })

  it('stays within its bound under a flood of distinct signatures', () => {
    const replays = createReplayCache({ maxEntries: 1000 })
    for (let i = 0; i < 50_000; i++) replays.take(`sig-${i}`, 600_000, i)
    expect(replays.size()).toBe(1000)
    expect(replays.take('sig-49999', 600_000, 50_000)).toBe(false)
  })
})
