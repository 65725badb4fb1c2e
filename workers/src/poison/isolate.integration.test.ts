import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskBus, type Bus, type DeliveredMessage, type EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { createDeadLetter, DEAD_LETTER_TOPIC } from './dead-letter.ts'
import { isolatePoison } from './isolate.ts'

/**
 * isolatePoison on a real store and bus: a record that fails on its own is set
 * aside and its batch goes on in order; a failure that is the store's (down, or
 * out of parts or memory) is retried whole and sets nothing aside.
 */
let store: EventStore
let bus: Bus
const silent = { warn() {} }

beforeAll(async () => {
  store = await openTestEventStore()
  bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-isolate-bus-')) })
})
afterAll(async () => {
  await bus?.close()
  await store?.close()
})

const batch = (values: string[]): DeliveredMessage[] => values.map((value, i) => ({ topic: 'events', partition: 0, offset: String(i), key: 'org:u', value, bytes: Buffer.from(value), view: undefined }))

async function deadLettered(consumer: string) {
  const r = await store.client.query({ query: 'SELECT offset, reason FROM dead_letters FINAL WHERE consumer = {c:String} ORDER BY toUInt64(offset)', query_params: { c: consumer }, format: 'JSONEachRow' })
  return r.json<{ offset: string; reason: string }>()
}

describe('isolatePoison', () => {
  it('sets aside each record that fails alone, with its error, and handles the others in order', async () => {
    const handled: string[] = []
    const handle = isolatePoison(
      async (messages) => {
        const bad = messages.find((m) => m.value.startsWith('bad'))
        if (bad) throw new TypeError(`cannot read ${bad.value}`)
        handled.push(...messages.map((m) => m.value))
      },
      { store, consumer: 'unit', deadLetter: createDeadLetter({ bus, store, consumer: 'unit', logger: silent }) },
    )
    const values = Array.from({ length: 40 }, (_, i) => (i === 3 || i === 4 || i === 31 ? `bad-${i}` : `ok-${i}`))
    await handle(batch(values))
    expect(handled).toEqual(values.filter((v) => v.startsWith('ok')))
    expect(await deadLettered('unit')).toEqual([
      { offset: '3', reason: 'unit: cannot read bad-3' },
      { offset: '4', reason: 'unit: cannot read bad-4' },
      { offset: '31', reason: 'unit: cannot read bad-31' },
    ])
    const dlq: string[] = []
    const reader = await bus.consume({ topic: DEAD_LETTER_TOPIC, group: 'isolate-test', maxWaitMs: 10, onBatch: async (m) => void dlq.push(...m.map((x) => x.value)) })
    const deadline = Date.now() + 30_000
    while (dlq.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    await reader.stop()
    expect(dlq.map((d) => JSON.parse(d)).map((d) => [d.consumer, d.offset, d.value])).toEqual([
      ['unit', '3', 'bad-3'],
      ['unit', '4', 'bad-4'],
      ['unit', '31', 'bad-31'],
    ])
  })

  it("retries the whole batch when ClickHouse says 'not now' (too many parts, memory), setting nothing aside", async () => {
    for (const type of ['TOO_MANY_PARTS', 'MEMORY_LIMIT_EXCEEDED']) {
      const handle = isolatePoison(
        async () => {
          throw Object.assign(new Error(`${type}: try later`), { type })
        },
        { store, consumer: `transient-${type}`, deadLetter: createDeadLetter({ bus, store, consumer: `transient-${type}`, logger: silent }) },
      )
      await expect(handle(batch(['a', 'b', 'c']))).rejects.toThrow(/try later/)
      expect(await deadLettered(`transient-${type}`)).toEqual([])
    }
  })

  it('retries the whole batch when the store is down, whatever the error says', async () => {
    const down = { kind: 'http', database: 'fl0', client: createClient({ url: 'http://127.0.0.1:1', request_timeout: 2_000 }), close: async () => {} } as EventStore
    let asked = 0
    const handle = isolatePoison(
      async () => {
        asked++
        throw new Error('insert failed')
      },
      { store: down, consumer: 'down', deadLetter: createDeadLetter({ bus, store, consumer: 'down', logger: silent }) },
    )
    await expect(handle(batch(['a', 'b', 'c', 'd']))).rejects.toThrow('insert failed')
    expect(asked).toBe(1)
    expect(await deadLettered('down')).toEqual([])
    await down.client.close()
  })
})
