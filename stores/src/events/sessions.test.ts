import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { openTestEventStore } from './testing.ts'

/**
 * The event store on chDB binds parameters on its sessions (sessions.ts), so
 * that bound calls of different sessions run side by side: a dashboard's
 * queries beside each other and beside the workers'.
 */
let store: EventStore
beforeAll(async () => {
  store = await openTestEventStore({ migrate: false })
})
afterAll(() => store.close())

const one = async <T>(client: EventStore['client'], query: string, query_params: Record<string, unknown>) =>
  (await (await client.query({ query, format: 'JSONEachRow', query_params })).json<T>())[0]!

describe('bound parameters on chDB', () => {
  it('stay data: quotes, backslashes, control characters, placeholders, arrays, numbers, times and flags', async () => {
    const text = `it's a \\'test\\' \\\\ "quoted"\t\n\r\u0000 {x:String} ' OR 1 = 1 -- é ☃ 😀`
    const values = ['a', "b'c", 'd\\e', 'f\tg\nh', '', '{y:String}', "'); DROP TABLE x; --"]
    const row = await one<{ s: string; a: string[]; n: string; f: number; t: string; b: boolean; neg: number }>(
      store.client,
      "SELECT {s:String} AS s, {a:Array(String)} AS a, toString({n:UInt64}) AS n, {f:Float64} AS f, {t:DateTime64(3, 'UTC')} AS t, {b:Bool} AS b, {neg:Int32} AS neg",
      { s: text, a: values, n: '18446744073709551615', f: 0.1, t: '2026-03-01 12:00:00.123', b: true, neg: -7 },
    )
    expect(row).toEqual({ s: text, a: values, n: '18446744073709551615', f: 0.1, t: '2026-03-01 12:00:00.123', b: true, neg: -7 })
  })

  it('takes an array larger than a statement may be by default (256 KiB), as the identity worker binds its visitors', async () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `visitor-${i}-${'x'.repeat(20)}`)
    const row = await one<{ n: string; last: string }>(store.background.client, 'SELECT toString(length({ids:Array(String)})) AS n, {ids:Array(String)}[-1] AS last', { ids })
    expect(row).toEqual({ n: '20000', last: ids.at(-1) })
  })

  it('give every call its own values while many run at once on every session', async () => {
    const calls = Array.from({ length: 120 }, (_, i) => {
      const client = i % 3 === 0 ? store.background.client : store.client
      return one<{ v: string; w: string[] }>(client, 'SELECT {v:String} AS v, {w:Array(String)} AS w', { v: `value ${i}`, w: [`${i}`] })
    })
    const rows = await Promise.all(calls)
    expect(rows).toEqual(rows.map((_, i) => ({ v: `value ${i}`, w: [`${i}`] })))
  })
})

describe('the sessions of the event store on chDB', () => {
  it("answers a reader's bound query while another reader's is in hand", async () => {
    const finished: string[] = []
    // Three seconds of one reader session (sleep's longest), as a slow dashboard query would hold it.
    const slow = one(store.client, 'SELECT sleep({s:Float64}) AS s', { s: 3 }).then(() => finished.push('slow'))
    const quick = one<{ n: number }>(store.client, 'SELECT {n:UInt8} + 1 AS n', { n: 1 }).then((r) => finished.push(`quick ${r.n}`))
    await Promise.all([slow, quick])
    expect(finished).toEqual(['quick 2', 'slow'])
  })

  it("answers a reader's bound query while the background's bound call is in hand", async () => {
    const finished: string[] = []
    const background = one(store.background.client, 'SELECT sleep({s:Float64}) AS s', { s: 3 }).then(() => finished.push('background'))
    const read = one<{ n: number }>(store.client, 'SELECT {n:UInt8} + 1 AS n', { n: 1 }).then((r) => finished.push(`reader ${r.n}`))
    await Promise.all([background, read])
    expect(finished).toEqual(['reader 2', 'background'])
  })

  it('drops a waiting bound call whose signal aborts, without running it', async () => {
    await store.background.client.command({ query: 'CREATE TABLE aborted_calls (n UInt8) ENGINE = Memory' })
    // The background has one session for bound calls: the insert waits behind the sleep, and is aborted while it waits.
    const first = store.background.client.query({ query: 'SELECT sleep({s:Float64})', format: 'JSONEachRow', query_params: { s: 0.5 } })
    const controller = new AbortController()
    const aborted = store.background.client.command({ query: 'INSERT INTO aborted_calls SELECT {n:UInt8}', query_params: { n: 1 }, abort_signal: controller.signal })
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    await first
    const after = await one<{ c: string }>(store.background.client, 'SELECT toString(count()) AS c FROM aborted_calls WHERE n = {n:UInt8}', { n: 1 })
    expect(after.c).toBe('0')
  })

  it('answers a call aborted in hand at once, and the next calls of its session get their own values', async () => {
    const controller = new AbortController()
    const slow = store.client.query({ query: "SELECT sleep({s:Float64}) AS s, 'in-hand-marker' AS m", format: 'JSONEachRow', query_params: { s: 2 }, abort_signal: controller.signal })
    // In hand once chDB lists it among the running queries (asked on the other reader session).
    const running = () => one<{ n: number }>(store.client, "SELECT toUInt32(count()) AS n FROM system.processes WHERE query LIKE {m:String} AND query NOT LIKE '%system.processes%'", { m: '%in-hand-marker%' })
    while ((await running()).n === 0) await new Promise((r) => setTimeout(r, 20))
    controller.abort()
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' })
    const next = await Promise.all([1, 2, 3, 4].map((i) => one<{ v: string }>(store.client, 'SELECT {v:String} AS v', { v: `next ${i}` })))
    expect(next).toEqual([1, 2, 3, 4].map((i) => ({ v: `next ${i}` })))
  })

  it("has one background: the background store's own is itself", () => {
    expect(store.background.background).toBe(store.background)
    expect(store.background.database).toBe(store.database)
  })
})
