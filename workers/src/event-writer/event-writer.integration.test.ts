import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskBus, migrateEvents, openEventStore, type Bus, type EventStore } from '@fl0/stores'
import { eventRecordText, type IngestedEvent } from '@fl0/contracts'
import { startEventWriter, DEAD_LETTER_TOPIC } from './index.ts'

const silent = { info() {}, warn() {} }
let store: EventStore
const busDir = mkdtempSync(join(tmpdir(), 'fl0-writer-bus-'))

function event(i: number, extra: Partial<IngestedEvent> = {}): IngestedEvent {
  return {
    org_id: 'org-a',
    message_id: `m-${i}`,
    timestamp: `2026-03-01 12:00:${String(i % 60).padStart(2, '0')}.000`,
    source_id: 'src',
    type: 'track',
    event: 'Clicked',
    name: '',
    user_id: `u-${i % 7}`,
    anonymous_id: '',
    group_id: '',
    previous_id: '',
    original_timestamp: null,
    sent_at: null,
    received_at: '2026-03-01 12:05:00.000',
    ip: '203.0.113.9',
    user_agent: 'UA',
    page_url: 'https://s.test/p?q=1',
    page_path: '/p',
    page_referrer: 'https://r.test/',
    page_title: 'P',
    page_search: '?q=1',
    properties: { button: 'buy', price: i },
    traits: {},
    context: { page: { url: 'https://s.test/p?q=1' } },
    integrations: '{}',
    context_city: '',
    context_region: '',
    context_country: '',
    context_timezone: '',
    ...extra,
  }
}

/** As the ingest publishes: each event's row (event-row.ts), or an object where it has no place columns. */
const publish = (bus: Bus, events: IngestedEvent[]) =>
  bus.publish('events', events.map((e) => ({ key: `${e.org_id}:${e.user_id}`, value: eventRecordText(e) })))
/** As fl0 published before rows: each event as a JSON object. */
const publishObjects = (bus: Bus, events: IngestedEvent[]) =>
  bus.publish('events', events.map((e) => ({ key: `${e.org_id}:${e.user_id}`, value: JSON.stringify(e) })))
const withoutPlaces = { context_city: undefined, context_region: undefined, context_country: undefined, context_timezone: undefined }

async function count(org = 'org-a'): Promise<number> {
  const r = await store.client.query({ query: 'SELECT count() AS n FROM events WHERE org_id = {org:String}', query_params: { org }, format: 'JSONEachRow' })
  return Number((await r.json<{ n: string }>())[0].n)
}

async function until(fn: () => Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await fn()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('timed out')
}

beforeAll(async () => {
  store = await openEventStore({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'fl0-writer-ch-')), database: 'writer_test' })
})
afterAll(async () => {
  await store?.close()
})

describe('event store migrations', () => {
  it('apply from empty, then apply nothing', async () => {
    expect(await migrateEvents(store)).toContain('0001_events')
    expect(await migrateEvents(store)).toEqual([])
    const r = await store.client.query({ query: "SELECT name FROM system.tables WHERE database = currentDatabase() AND name = 'events'", format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ name: 'events' }])
  })
})

describe('event writer', () => {
  it('stores events with their fields, once each, even when the bus delivers a batch again', async () => {
    const bus = createDiskBus({ dir: busDir })
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20 })
    const events = Array.from({ length: 50 }, (_, i) => event(i))
    await publish(bus, events)
    await until(async () => (await count()) === 50)

    // The same messages again (a client retry, or a replay), plus a duplicate inside one batch.
    await publish(bus, [...events.slice(0, 20), event(50), event(50)])
    await until(async () => (await count()) >= 51)
    await new Promise((r) => setTimeout(r, 300))
    expect(await count()).toBe(51)

    const r = await store.client.query({
      query: `SELECT message_id, type, event, user_id, ip, user_agent, page_url, page_path, page_referrer, page_title, page_search,
                     toString(timestamp) AS ts, properties.button AS button, properties.price AS price
              FROM events WHERE org_id = 'org-a' AND message_id = 'm-3'`,
      format: 'JSONEachRow',
    })
    expect(await r.json()).toEqual([
      {
        message_id: 'm-3',
        type: 'track',
        event: 'Clicked',
        user_id: 'u-3',
        ip: '203.0.113.9',
        user_agent: 'UA',
        page_url: 'https://s.test/p?q=1',
        page_path: '/p',
        page_referrer: 'https://r.test/',
        page_title: 'P',
        page_search: '?q=1',
        ts: '2026-03-01 12:00:03.000',
        button: 'buy',
        price: 3,
      },
    ])
    await writer.stop()
    await bus.close()
  })

  it('stores rows and records written as objects before them, side by side in one batch, once each', async () => {
    const bus = createDiskBus({ dir: busDir })
    const rows = [0, 1, 2].map((i) => event(400 + i, { org_id: 'org-forms' }))
    const objects = [3, 4].map((i) => event(400 + i, { org_id: 'org-forms' }))
    expect(eventRecordText(rows[0]!).startsWith('["org-forms","m-400",')).toBe(true)
    // Published before the writer starts: the five come to it as one batch, an upgrade's bus log holding both forms.
    await publish(bus, rows)
    await publishObjects(bus, objects)
    let batches = 0
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20, onStored: () => batches++ })
    await until(async () => (await count('org-forms')) === 5)
    expect(batches).toBe(1)
    // Both again, each in the other form: every id is stored already.
    await publishObjects(bus, rows)
    await publish(bus, objects)
    await until(async () => (bus as ReturnType<typeof createDiskBus>).lag('events', 'event-writer') === 0)
    expect(await count('org-forms')).toBe(5)
    const r = await store.client.query({
      query: "SELECT message_id, event, page_path, toString(timestamp) AS ts, properties.price AS price FROM events WHERE org_id = 'org-forms' ORDER BY message_id",
      format: 'JSONEachRow',
    })
    expect(await r.json()).toEqual([0, 1, 2, 3, 4].map((i) => ({ message_id: `m-${400 + i}`, event: 'Clicked', page_path: '/p', ts: `2026-03-01 12:00:${String((400 + i) % 60).padStart(2, '0')}.000`, price: 400 + i })))
    await writer.stop()
    await bus.close()
  })

  it('stores a batch of both forms once when its second insert fails and the batch comes again, with or without the filter of stored keys', async () => {
    for (const kind of ['chdb', 'http'] as const) {
      const org = `org-forms-retry-${kind}`
      // The store as it is, but its first insert of objects fails (ClickHouse refusing it for a while, say), and
      // as a server's store on 'http': the writer keeps no filter of stored keys then, and asks the store for every id.
      let failures = 0
      const flaky: EventStore = {
        ...store,
        kind,
        get background() {
          return flaky
        },
        async insertLines(table, lines, options) {
          if (table === 'events' && options?.format !== 'JSONCompactEachRow' && failures++ === 0) throw new Error('test: the store refuses this insert once')
          return store.insertLines(table, lines, options)
        },
      }
      const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-writer-forms-')) })
      await publish(bus, [0, 1, 2].map((i) => event(500 + i, { org_id: org })))
      await publishObjects(bus, [3, 4].map((i) => event(500 + i, { org_id: org })))
      const writer = await startEventWriter({ bus, store: flaky, logger: silent, maxWaitMs: 20 })
      await until(async () => (await count(org)) === 5 && (bus as ReturnType<typeof createDiskBus>).lag('events', 'event-writer') === 0)
      expect(failures).toBeGreaterThan(1)
      const r = await store.client.query({ query: 'SELECT toString(count()) AS n, toString(uniqExact(message_id)) AS ids FROM events WHERE org_id = {org:String}', query_params: { org }, format: 'JSONEachRow' })
      expect(await r.json()).toEqual([{ n: '5', ids: '5' }])
      await writer.stop()
      await bus.close()
    }
  })

  it('stores a large batch in parts side by side, each event once and its poison dead-lettered once, when a part fails and the batch comes again', async () => {
    const org = 'org-parts'
    // The background store, as fl0 runs the writer: two write sessions in chDB. Its second insert of the batch fails
    // once, as a busy ClickHouse says "not now" (TOO_MANY_PARTS): the bus delivers the whole batch again.
    const background = store.background
    expect(background.insertSessions).toBe(2)
    let started = 0
    let inHand = 0
    let most = 0
    const flaky: EventStore = {
      ...background,
      get background() {
        return flaky
      },
      async insertLines(table, lines, options) {
        if (table !== 'events') return background.insertLines(table, lines, options)
        inHand++
        most = Math.max(most, inHand)
        try {
          if (++started === 2) throw Object.assign(new Error('test: too many parts'), { type: 'TOO_MANY_PARTS' })
          return await background.insertLines(table, lines, options)
        } finally {
          inHand--
        }
      },
    }
    const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-writer-parts-')) })
    // Readable head, but a value that does not fit its column: the first part's insert refuses it, and the part
    // is stored without it after it is dead-lettered.
    const poison = eventRecordText(event(99_999, { org_id: org, message_id: 'p-poison', received_at: 'not a time' }))
    await bus.publish('events', [
      { key: 'p', value: poison },
      ...Array.from({ length: 12_000 }, (_, i) => ({ key: 'p', value: eventRecordText(event(100_000 + i, { org_id: org, message_id: `p-${i}` })) })),
    ])
    const writer = await startEventWriter({ bus, store: flaky, logger: silent, maxWaitMs: 20 })
    await until(async () => (bus as ReturnType<typeof createDiskBus>).lag('events', 'event-writer') === 0 && (await count(org)) >= 12_000, 60_000)
    // The two parts ran side by side; the part that failed came again, and the one stored was not stored twice.
    expect(most).toBe(2)
    expect(started).toBeGreaterThan(2)
    const r = await store.client.query({ query: 'SELECT toString(count()) AS n, toString(uniqExact(message_id)) AS ids FROM events WHERE org_id = {org:String}', query_params: { org }, format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ n: '12000', ids: '12000' }])
    const dead: string[] = []
    const dlq = await bus.consume({ topic: DEAD_LETTER_TOPIC, group: 'test-parts', maxWaitMs: 10, onBatch: async (m) => void dead.push(...m.map((x) => x.value)) })
    await until(async () => dead.length > 0)
    expect(dead.map((d) => JSON.parse(d) as { value: string; reason: string })).toEqual([expect.objectContaining({ value: poison, reason: 'received_at is not a timestamp' })])
    await dlq.stop()
    await writer.stop()
    await bus.close()
  })

  it("stores the context's place as the ingest gave it, and reads it from the context of a record that has none", async () => {
    const bus = createDiskBus({ dir: busDir })
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20 })
    const context = { location: { city: 'Lyon', country: 'France', region: 69 }, timezone: 'Europe/Paris' }
    await publish(bus, [
      // As the ingest writes it.
      event(0, { org_id: 'org-place', context, context_city: 'Lyon', context_region: '69', context_country: 'France', context_timezone: 'Europe/Paris' }),
      // As published before the columns were (or by a writer that leaves them out).
      event(1, { org_id: 'org-place', context, ...withoutPlaces }),
      event(2, { org_id: 'org-place', context: { timezone: null }, ...withoutPlaces }),
    ])
    await until(async () => (await count('org-place')) === 3)
    const r = await store.client.query({
      query: `SELECT message_id, context_city, context_region, context_country, context_timezone FROM events WHERE org_id = 'org-place' ORDER BY message_id`,
      format: 'JSONEachRow',
    })
    expect(await r.json()).toEqual([
      { message_id: 'm-0', context_city: 'Lyon', context_region: '69', context_country: 'France', context_timezone: 'Europe/Paris' },
      { message_id: 'm-1', context_city: 'Lyon', context_region: '69', context_country: 'France', context_timezone: 'Europe/Paris' },
      { message_id: 'm-2', context_city: '', context_region: '', context_country: '', context_timezone: '' },
    ])
    await writer.stop()
    await bus.close()
  })

  it('counts a replayed batch once after a restart from an old offset (crash between insert and commit)', async () => {
    const before = await count()
    // Rewind the group's committed offset, as if the process died right after inserting.
    writeFileSync(join(busDir, 'events', 'groups', 'event-writer.offset'), '0')
    const bus = createDiskBus({ dir: busDir })
    let seen = 0
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20, onStored: () => seen++ })
    await until(async () => seen > 0 && (bus as ReturnType<typeof createDiskBus>).lag('events', 'event-writer') === 0)
    expect(await count()).toBe(before)
    await writer.stop()
    await bus.close()
  })

  it('stores a replayed message id once, however far its timestamp is from the first copy\'s', async () => {
    const bus = createDiskBus({ dir: busDir })
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20 })
    const first = event(300, { org_id: 'org-r', timestamp: '2026-03-01 12:00:00.000' })
    await publish(bus, [first])
    await until(async () => (await count('org-r')) === 1)
    // A client re-sends it with a new timestamp: days, months, centuries away (the old look-up searched ±2 days).
    const resent = ['2026-03-04 12:00:00.000', '2025-01-01 00:00:00.000', '2299-12-31 23:59:59.999', '1900-01-01 00:00:00.000'].map((timestamp) => ({ ...first, timestamp }))
    await publish(bus, [...resent, event(301, { org_id: 'org-r' })])
    await until(async () => (await count('org-r')) >= 2)
    await until(async () => (bus as ReturnType<typeof createDiskBus>).lag('events', 'event-writer') === 0)
    expect(await count('org-r')).toBe(2)
    const r = await store.client.query({ query: "SELECT toString(timestamp) AS t FROM events WHERE org_id = 'org-r' AND message_id = 'm-300'", format: 'JSONEachRow' })
    expect(await r.json()).toEqual([{ t: '2026-03-01 12:00:00.000' }])
    await writer.stop()
    await bus.close()
  })

  it('isolates a record ClickHouse refuses, dead-letters it and stores the rest of its batch', async () => {
    const bus = createDiskBus({ dir: busDir })
    // Readable head, but a value that does not fit its column: only the insert finds out.
    const bad = eventRecordText(event(200, { org_id: 'org-c', received_at: 'not a time' }))
    const badObject = JSON.stringify(event(203, { org_id: 'org-c', received_at: 'not a time either' }))
    // A row of another length: its head reads, ClickHouse refuses it, and the full check says why.
    const short = JSON.stringify(['org-c', 'm-204', '2026-03-01 12:00:00.000'])
    await bus.publish('events', [
      { key: 'c', value: bad },
      { key: 'c', value: badObject },
      { key: 'c', value: short },
      ...[201, 202].map((i) => ({ key: 'c', value: eventRecordText(event(i, { org_id: 'org-c' })) })),
      { key: 'c', value: JSON.stringify(event(205, { org_id: 'org-c' })) },
    ])
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20 })
    await until(async () => (await count('org-c')) === 3)
    const dead: string[] = []
    const dlq = await bus.consume({ topic: DEAD_LETTER_TOPIC, group: 'test-c', maxWaitMs: 10, onBatch: async (m) => void dead.push(...m.map((x) => x.value)) })
    const reasonFor = (value: string) => dead.map((d) => JSON.parse(d)).find((d) => d.value === value)?.reason
    await until(async () => [bad, badObject, short].every((v) => reasonFor(v) !== undefined))
    expect(reasonFor(bad)).toBe('received_at is not a timestamp')
    expect(reasonFor(badObject)).toBe('received_at is not a timestamp')
    expect(reasonFor(short)).toBe('not a stored row: 3 values, not 29 to 29')
    const stored = await store.client.query({ query: "SELECT message_id FROM events WHERE org_id = 'org-c' ORDER BY message_id", format: 'JSONEachRow' })
    expect(await stored.json()).toEqual([{ message_id: 'm-201' }, { message_id: 'm-202' }, { message_id: 'm-205' }])
    await dlq.stop()
    await writer.stop()
    await bus.close()
  })

  it('sends poison messages to the dead-letter topic and goes on', async () => {
    const bus = createDiskBus({ dir: busDir })
    const writer = await startEventWriter({ bus, store, logger: silent, maxWaitMs: 20 })
    const { org_id, message_id, timestamp, ...rest } = event(101, { org_id: 'org-b' })
    await bus.publish('events', [
      { key: 'x', value: 'not json' },
      { key: 'y', value: JSON.stringify({ org_id: 'org-b' }) },
      // A valid record whose keys come in another order is still stored.
      { key: 'z', value: JSON.stringify({ ...rest, timestamp, message_id, org_id }) },
    ])
    await publish(bus, [event(100, { org_id: 'org-b' })])
    await until(async () => (await count('org-b')) === 2)

    const dead: string[] = []
    const dlq = await bus.consume({ topic: DEAD_LETTER_TOPIC, group: 'test', maxWaitMs: 10, onBatch: async (m) => void dead.push(...m.map((x) => x.value)) })
    const reasonFor = (value: string) => dead.map((d) => JSON.parse(d)).find((d) => d.value === value)?.reason
    await until(async () => reasonFor('not json') !== undefined && reasonFor('{"org_id":"org-b"}') !== undefined)
    expect(reasonFor('not json')).toBe('not valid JSON')
    expect(reasonFor('{"org_id":"org-b"}')).toBe('message_id missing')
    await dlq.stop()
    await writer.stop()
    await bus.close()
  })
})
