import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { openTestEventStore } from './testing.ts'

/**
 * streamRows on chDB (client.ts): a large result read a chunk at a time,
 * never whole (chDB's connection hands a query's result over whole, and
 * "refresh sessions and people" ran the embedded process out of memory at 10
 * million events); one stream at a time on its session, the next waiting for
 * the one in hand to end, whether read to its end or left.
 */
describe('streamRows on chDB', () => {
  let store: EventStore
  beforeAll(async () => {
    store = await openTestEventStore({ migrate: false })
  })
  afterAll(async () => {
    await store?.close()
  })

  const NUMBERS = 'SELECT number AS n, toString(number) AS s FROM numbers({count:UInt64}) WHERE number % {step:UInt64} = 0'

  it('yields the rows in chunks, as arrays or objects, its parameters bound', async () => {
    const sizes: number[] = []
    let next = 0
    for await (const rows of store.streamRows<[string | number, string]>(NUMBERS, { count: 500_000, step: 2 }, 'JSONCompactEachRow')) {
      sizes.push(rows.length)
      for (const [n, s] of rows) {
        expect([Number(n), s]).toEqual([next, String(next)])
        next += 2
      }
    }
    expect(next).toBe(500_000)
    // Chunks, not the whole result at once.
    expect(sizes.length).toBeGreaterThan(1)
    expect(Math.max(...sizes)).toBeLessThan(250_000)

    const objects: Array<{ n: string | number; s: string }> = []
    for await (const rows of store.streamRows<{ n: string | number; s: string }>(NUMBERS, { count: 10, step: 5 }, 'JSONEachRow')) objects.push(...rows)
    expect(objects.map((o) => [Number(o.n), o.s])).toEqual([
      [0, '0'],
      [5, '5'],
    ])
  })

  it('runs one stream at a time: a second waits until the first is read to its end or left', async () => {
    const first = store.streamRows<[string, string]>(NUMBERS, { count: 300_000, step: 1 }, 'JSONCompactEachRow')[Symbol.asyncIterator]()
    expect((await first.next()).done).toBe(false)
    let secondDone = false
    const second = (async () => {
      let rows = 0
      for await (const chunk of store.streamRows<[string, string]>(NUMBERS, { count: 1_000, step: 1 }, 'JSONCompactEachRow')) rows += chunk.length
      secondDone = true
      return rows
    })()
    // The first is still open: the second has not run.
    await new Promise((r) => setImmediate(r))
    expect(secondDone).toBe(false)
    await first.return!(undefined)
    expect(await second).toBe(1_000)
  })

  it("throws the client's ClickHouseError for a query the engine refuses, and the next stream runs", async () => {
    const read = async (query: string) => {
      for await (const _ of store.streamRows(query, {}, 'JSONEachRow'));
    }
    await expect(read('SELECT no_such_column FROM numbers(10)')).rejects.toMatchObject({ type: 'UNKNOWN_IDENTIFIER', message: expect.stringContaining('no_such_column') })
    let rows = 0
    for await (const chunk of store.streamRows('SELECT 1 AS one', {}, 'JSONEachRow')) rows += chunk.length
    expect(rows).toBe(1)
  })
})
