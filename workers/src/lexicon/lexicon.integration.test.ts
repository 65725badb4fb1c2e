import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskBus, type Bus, type EventStore } from '@fl0/stores'
import { eventRow, openTestEventStore } from '@fl0/stores/events/testing'
import { eventRecordText, type IngestedEvent } from '@fl0/contracts'
import { startLexiconWorker } from './index.ts'

const silent = { info() {}, warn() {} }
let store: EventStore

beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(async () => {
  await store?.close()
})

/** As the ingest publishes: each event's row (event-row.ts), its place columns filled. */
const publish = (bus: Bus, events: IngestedEvent[]) =>
  bus.publish('events', events.map((e) => ({ key: `${e.org_id}:${e.user_id}`, value: eventRecordText({ context_city: '', context_region: '', context_country: '', context_timezone: '', ...e }) })))
/** As fl0 published before rows: each event as a JSON object. */
const publishObjects = (bus: Bus, events: IngestedEvent[]) =>
  bus.publish('events', events.map((e) => ({ key: `${e.org_id}:${e.user_id}`, value: JSON.stringify(e) })))

/** The dictionary as a reader sees it: distinct rows, whatever merges have or have not happened. */
async function dictionary(org: string) {
  const rows = async (query: string) => {
    const r = await store.client.query({ query, query_params: { org }, format: 'JSONEachRow' })
    return r.json<Record<string, string>>()
  }
  return {
    events: (await rows('SELECT DISTINCT event FROM lexicon_events WHERE org_id = {org:String} ORDER BY event')).map((r) => r.event),
    properties: await rows(
      'SELECT DISTINCT event, path, value_type FROM lexicon_properties WHERE org_id = {org:String} ORDER BY event, path, value_type',
    ),
    traits: await rows('SELECT DISTINCT entity, name, value_type FROM lexicon_traits WHERE org_id = {org:String} ORDER BY entity, name, value_type'),
  }
}

async function rowCounts(org: string) {
  const r = await store.client.query({
    query: `SELECT (SELECT count() FROM lexicon_events WHERE org_id = {org:String}) AS e,
                   (SELECT count() FROM lexicon_properties WHERE org_id = {org:String}) AS p,
                   (SELECT count() FROM lexicon_traits WHERE org_id = {org:String}) AS t`,
    query_params: { org },
    format: 'JSONEachRow',
  })
  return (await r.json<Record<string, string>>())[0]
}

async function until(fn: () => Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await fn()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('timed out')
}

/** A worker whose batches are counted, so a test can wait for what it published to be indexed. */
async function startCounted(bus: Bus) {
  let indexed = 0
  const worker = await startLexiconWorker({ bus, store, logger: silent, maxWaitMs: 20, onIndexed: (n) => (indexed += n) })
  return { worker, indexed: () => indexed }
}

const ORG = 'org-lexicon'
const messages: IngestedEvent[] = [
  eventRow({
    org_id: ORG,
    event: 'Order Completed',
    user_id: 'u1',
    properties: { total: 99.5, currency: 'EUR', coupon: null, items: ['a', 'b'], shipping: { method: 'express', days: 2 }, gift: false, placed_at: '2026-03-01T10:00:00Z' },
  }),
  eventRow({ org_id: ORG, event: 'Order Completed', user_id: 'u2', properties: { total: 12, currency: 'USD' } }),
  eventRow({ org_id: ORG, event: 'Signed Up', user_id: 'u2', properties: {} }),
  // A page view: its name is not an event name of the lexicon.
  eventRow({ org_id: ORG, type: 'page', name: 'Pricing', user_id: 'u1', properties: { path: '/pricing' } }),
  eventRow({ org_id: ORG, type: 'identify', user_id: 'u1', traits: { email: 'ada@example.com', age: 36, address: { city: 'London' } } }),
  eventRow({ org_id: ORG, type: 'group', user_id: 'u1', group_id: 'g1', traits: { name: 'Acme', employees: 120, plan: 'pro' } }),
]

const EXPECTED = {
  events: ['Order Completed', 'Signed Up'],
  properties: [
    { event: 'Order Completed', path: 'currency', value_type: 'String' },
    { event: 'Order Completed', path: 'gift', value_type: 'Bool' },
    { event: 'Order Completed', path: 'items', value_type: 'Array(Nullable(String))' },
    { event: 'Order Completed', path: 'placed_at', value_type: 'DateTime' },
    { event: 'Order Completed', path: 'shipping.days', value_type: 'Int64' },
    { event: 'Order Completed', path: 'shipping.method', value_type: 'String' },
    { event: 'Order Completed', path: 'total', value_type: 'Float64' },
    { event: 'Order Completed', path: 'total', value_type: 'Int64' },
  ],
  traits: [
    { entity: 'company', name: 'employees', value_type: 'Int64' },
    { entity: 'company', name: 'name', value_type: 'String' },
    { entity: 'company', name: 'plan', value_type: 'String' },
    { entity: 'user', name: 'address.city', value_type: 'String' },
    { entity: 'user', name: 'age', value_type: 'Int64' },
    { entity: 'user', name: 'email', value_type: 'String' },
  ],
}

describe('lexicon worker', () => {
  it('keeps event names, property paths and traits with their inferred types; page names and nulls are not listed', async () => {
    const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-lexicon-bus-')) })
    const { worker, indexed } = await startCounted(bus)
    await publish(bus, messages)
    await until(async () => indexed() >= messages.length)
    expect(await dictionary(ORG)).toEqual(EXPECTED)
    // Another organisation sees none of it.
    expect(await dictionary('org-other')).toEqual({ events: [], properties: [], traits: [] })
    await worker.stop()
    await bus.close()
  })

  it('changes nothing when the same messages come again, or are replayed from the start after a restart', async () => {
    const before = await dictionary(ORG)
    const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-lexicon-replay-')) })
    const first = await startCounted(bus)
    await publish(bus, messages)
    await publishObjects(bus, messages) // a client's retry: the same message ids again, as objects (a bus log from before rows)
    await until(async () => first.indexed() >= messages.length * 2)
    await first.worker.stop()

    // A new consumer group reads the whole log again: what a crash before the offset commit replays, and more.
    const replay = await startLexiconWorker({ bus, store, logger: silent, group: 'lexicon-replay', maxWaitMs: 20 })
    await until(async () => (bus as ReturnType<typeof createDiskBus>).lag('events', 'lexicon-replay') === 0)
    await replay.stop()
    await bus.close()
    expect(await dictionary(ORG)).toEqual(before)

    // Merging the parts changes what is stored, not what is read.
    await store.client.command({ query: 'OPTIMIZE TABLE lexicon_properties FINAL' })
    expect(await dictionary(ORG)).toEqual(before)
    expect(Number((await rowCounts(ORG)).p)).toBe(EXPECTED.properties.length)
  })

  it('skips a record ClickHouse cannot read and keeps the rest of its batch', async () => {
    const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-lexicon-poison-')) })
    const { worker, indexed } = await startCounted(bus)
    await bus.publish('events', [
      { key: 'k', value: '{"org_id":"org-poison","message_id":"x","timestamp":"not a time","type":"track","event":"Broken","properties":"not an object"' },
      { key: 'k', value: '["org-poison","y","2026-03-01 12:00:00.000","src","track","Broken too",' },
      { key: 'k', value: JSON.stringify(eventRow({ org_id: 'org-poison', event: 'Fine', properties: { ok: true } })) },
    ])
    await until(async () => indexed() >= 3)
    expect((await dictionary('org-poison')).events).toEqual(['Fine'])
    await worker.stop()
    await bus.close()
  })
})
