import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addCallbackRefusals, callbackRefusalTotals, migrateMetadata, openPglite, type Sql } from '@fl0/stores'
import { createRefusalCounter } from './refusals.ts'

/** Refusals counted in memory and added to the metadata store's callback_refusals (PGlite), one write at a time. */
let sql: Sql
beforeAll(async () => {
  sql = await openPglite()
  await migrateMetadata(sql)
})
afterAll(() => sql?.close())

const DAY = new Date('2026-03-02T09:00:00.000Z')

describe('refusal counter', () => {
  it('writes a burst in few writes, each carrying what was counted meanwhile, and sums them in the store', async () => {
    await sql.query('DELETE FROM callback_refusals')
    const writes: object[] = []
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let started!: () => void
    const writing = new Promise<void>((r) => (started = r))
    const counter = createRefusalCounter({
      store: async (day, counts) => {
        writes.push(counts)
        if (writes.length === 1) {
          started()
          await held // the first write is slow: what is counted meanwhile waits for it
        }
        await addCallbackRefusals(sql, day, counts)
      },
      now: () => DAY,
      delayMs: 60_000,
    })
    for (let i = 0; i < 1000; i++) counter.count('rate_limited')
    counter.count('bad_signature')
    const first = counter.flush()
    await writing
    for (let i = 0; i < 500; i++) counter.count('rate_limited')
    const second = counter.flush()
    counter.count('rate_limited')
    const third = counter.flush()
    expect(writes).toHaveLength(1)
    release()
    await Promise.all([first, second, third])
    expect(writes).toEqual([{ rate_limited: 1000, bad_signature: 1 }, { rate_limited: 501 }])
    expect(await callbackRefusalTotals(sql)).toEqual({ rate_limited: 1501, bad_signature: 1 })
    expect((await sql.query<{ day: Date }>('SELECT day FROM callback_refusals'))[0]!.day.toISOString()).toBe('2026-03-02T00:00:00.000Z')
    expect(counter.totals()).toEqual({ rate_limited: 1501, bad_signature: 1 })
    await counter.close()
  })

  it('writes by itself after its delay, and logs each write', async () => {
    await sql.query('DELETE FROM callback_refusals')
    const logged: object[] = []
    const counter = createRefusalCounter({
      store: (day, counts) => addCallbackRefusals(sql, day, counts),
      logger: { warn: (o) => void logged.push(o), error() {} },
      delayMs: 10,
    })
    counter.count('invalid_ids')
    counter.count('invalid_ids')
    const deadline = Date.now() + 10_000
    while ((await callbackRefusalTotals(sql)).invalid_ids !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(await callbackRefusalTotals(sql)).toEqual({ invalid_ids: 2 })
    expect(logged).toEqual([{ refused: { invalid_ids: 2 } }])
    await counter.close()
  })

  it('keeps the counts of a failed write for the next', async () => {
    await sql.query('DELETE FROM callback_refusals')
    let down = true
    const errors: string[] = []
    const counter = createRefusalCounter({
      store: async (day, counts) => {
        if (down) throw new Error('store down')
        await addCallbackRefusals(sql, day, counts)
      },
      logger: { warn() {}, error: (_o, m) => void errors.push(m) },
      delayMs: 60_000,
    })
    counter.count('stale_timestamp')
    await counter.flush()
    expect(errors).toEqual(['identity callback refusals: write failed; kept for the next'])
    counter.count('stale_timestamp')
    down = false
    await counter.close()
    expect(await callbackRefusalTotals(sql)).toEqual({ stale_timestamp: 2 })
    counter.count('stale_timestamp') // after close: not counted
    expect(counter.totals()).toEqual({ stale_timestamp: 2 })
  })
})
