import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { Lanes, type Lane } from './lanes.ts'
import { openTestEventStore } from './testing.ts'

/**
 * chDB runs the calls of different sessions side by side, but those that bind
 * parameters one at a time; a dashboard's query must wait for no insert, and
 * among bound calls only behind the one in hand.
 */
let store: EventStore
beforeAll(async () => {
  // Not migrated: the lanes share chDB's time by what each ran lately, and migrating is seconds of the reader's lane
  // (more on a loaded machine), after which the background lane rightly goes first for a while.
  store = await openTestEventStore({ migrate: false })
})
afterAll(() => store.close())

describe('the event store on chDB', () => {
  it("runs a reader's bound query ahead of the background's bound calls waiting, after the one in hand", async () => {
    // Each query reports when chDB started it: the order of the results' arrival depends on the event loop (a
    // background call may block it before the reader's result is read), the order of the starts on the lanes alone.
    const call = (client: EventStore['client'], name: string, query: string) =>
      client.query({ query, format: 'JSONEachRow', query_params: { s: 0.2 } }).then(async (r) => ({ name, at: Number((await r.json<{ at: string }>())[0]!.at) }))
    const background = [1, 2, 3, 4].map((i) => call(store.background.client, `background ${i}`, 'SELECT toUnixTimestamp64Micro(now64(6)) AS at, sleep({s:Float64}) AS s'))
    const reader = call(store.client, 'reader', 'SELECT toUnixTimestamp64Micro(now64(6)) AS at, {s:Float64} AS s')
    const started = await Promise.all([...background, reader])
    expect(started.sort((a, b) => a.at - b.at).map((c) => c.name)).toEqual(['background 1', 'reader', 'background 2', 'background 3', 'background 4'])
  })

  it("answers a reader's query while a background write is in hand", async () => {
    const finished: string[] = []
    // Three seconds of the background's session (sleep's longest), as a long insert would hold it.
    const write = store.background.client.command({ query: 'SELECT sleep(3)' }).then(() => finished.push('background'))
    const read = store.client
      .query({ query: 'SELECT {n:UInt8} + 1 AS n', format: 'JSONEachRow', query_params: { n: 1 } })
      .then((r) => r.json<{ n: number }>())
      .then((rows) => finished.push(`reader ${rows[0]!.n}`))
    await Promise.all([write, read])
    expect(finished).toEqual(['reader 2', 'background'])
  })

  it('drops a waiting bound call whose signal aborts, without running it', async () => {
    const controller = new AbortController()
    const first = store.background.client.query({ query: 'SELECT sleep({s:Float64})', format: 'JSONEachRow', query_params: { s: 0.2 } })
    const aborted = store.client.query({ query: 'SELECT throwIf({n:UInt8})', format: 'JSONEachRow', query_params: { n: 1 }, abort_signal: controller.signal })
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    await first
  })

  it("has one background lane: the background store's own is itself", () => {
    expect(store.background.background).toBe(store.background)
    expect(store.background.database).toBe(store.database)
  })
})

describe('the lanes', () => {
  /** Calls that each take `ms` of a fake clock; the order they ran in. */
  function harness(backgroundShare = 0.4) {
    let t = 0
    const lanes = new Lanes({ backgroundShare, windowMs: 2_000, now: () => t })
    const order: Lane[] = []
    const call = (lane: Lane, ms: number) =>
      lanes.run(lane, async () => {
        order.push(lane)
        t += ms
      })
    return { call, order }
  }

  it('lets a reader that never pauses have at most its share: the background keeps up', async () => {
    const { call, order } = harness(0.4)
    await Promise.all([...Array.from({ length: 50 }, () => call('reader', 100)), ...Array.from({ length: 50 }, () => call('background', 100))])
    const first50 = order.slice(0, 50)
    const background = first50.filter((l) => l === 'background').length
    expect(background).toBeGreaterThanOrEqual(18)
    expect(background).toBeLessThanOrEqual(25)
    expect(order[0]).toBe('reader')
  })

  it('runs each lane alone when the other has nothing waiting, in order', async () => {
    const { call, order } = harness()
    await Promise.all([call('background', 10), call('background', 10)])
    await Promise.all([call('reader', 10), call('reader', 10)])
    expect(order).toEqual(['background', 'background', 'reader', 'reader'])
  })
})
