/**
 * Where an ingested event's CPU goes (issue 19), step by step, each step run
 * alone over the same events: CPU time per event of this process, every thread
 * included (chDB's inserts run on its own threads), so the figures hold
 * whatever else the machine is doing. What a step costs tells which lever
 * pays: on 2 cores shared with the load generator, the embedded process's
 * throughput is its CPU per event.
 *
 *   npx tsx bench/src/ingest-costs.ts [--events 200000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { eventRecordText, parseEventRecord } from '@fl0/contracts'
import { normalizeCall } from '@fl0/ingest'
import { createDiskBus, migrateEvents, openEventStore, type DeliveredMessage } from '@fl0/stores'
import { freeNetworkData, hitOf, insertEventLines, KnownVisits, Networks, recordKey, storeHits, RangeTable } from '@fl0/workers'
import { batchBody } from './events.ts'

const { values } = parseArgs({ options: { events: { type: 'string', default: '200000' } } })
const N = Number(values.events)
const PER_REQUEST = 100

const rows: Array<{ step: string; usPerEvent: number }> = []
async function step<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const cpu = process.cpuUsage()
  const result = await run()
  const used = process.cpuUsage(cpu)
  rows.push({ step: name, usPerEvent: (used.user + used.system) / N })
  return result
}

/** Each of the events' 20,000 visitors (events.ts: anon-{i % 20000}) from an address of its own, as a site's visitors come. */
const addressOf = (i: number) => {
  const k = i % 20_000
  return `81.${10 + (k >> 16)}.${(k >> 8) & 255}.${k & 255}`
}

console.log(`load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
const bodies = Array.from({ length: N / PER_REQUEST }, (_, i) => batchBody(PER_REQUEST, i * PER_REQUEST))
const parsed = await step('JSON.parse of the request bodies', () => bodies.map((b) => (JSON.parse(b) as { batch: unknown[] }).batch))
const receivedAt = new Date()
const events = await step('normalizeCall (validation, enrichment)', () =>
  parsed.flat().map((item, i) => {
    const r = normalizeCall('track', item, { orgId: 'org_bench', sourceId: 'src_bench', receivedAt, ip: addressOf(i) })
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    return r.event
  }),
)
const records = await step('JSON.stringify of the stored rows (eventRecordText)', () => events.map((e) => ({ key: `${e.org_id}:${e.user_id}`, value: eventRecordText(e) })))

const dir = mkdtempSync(join(tmpdir(), 'fl0-ingest-costs-'))
const bus = createDiskBus({ dir: join(dir, 'bus') })
await step('bus append (encode, write, fdatasync; 100 a call, 16 calls at once)', async () => {
  for (let i = 0; i < records.length; i += PER_REQUEST * 16) {
    const calls: Promise<void>[] = []
    for (let j = i; j < Math.min(records.length, i + PER_REQUEST * 16); j += PER_REQUEST) calls.push(bus.publish('events', records.slice(j, j + PER_REQUEST)))
    await Promise.all(calls)
  }
})
const delivered = await step('bus read by one consumer group (decode, check)', async () => {
  const got: DeliveredMessage[] = []
  let done!: () => void
  const finished = new Promise<void>((r) => (done = r))
  const consumer = await bus.consume({
    topic: 'events',
    group: 'g1',
    maxBatchSize: 10_000,
    maxWaitMs: 0,
    onBatch: async (batch) => {
      for (const m of batch) got.push(m)
      if (got.length >= N) done()
    },
  })
  await finished
  await consumer.stop()
  return got
})
await step("lexicon's recordKey (JSON.parse, shape)", async () => {
  let n = 0
  for (const m of delivered) if (recordKey(m.value)) n++
  return n
})
const hits = await step("identity's hit (JSON.parse, hitOf)", () => delivered.map((m) => hitOf(parseEventRecord(m.value) as Parameters<typeof hitOf>[0])!))
await bus.close()

const store = await openEventStore({ kind: 'chdb', path: join(dir, 'clickhouse') })
await migrateEvents(store)
// As the event writer inserts the records it reads off the bus (event-row.ts: rows by position).
const insert = (lines: string[]) => insertEventLines(store.background, lines, 'row')
await step('chDB insert into events (10,000 a batch, materialised views included)', async () => {
  for (let i = 0; i < records.length; i += 10_000) await insert(records.slice(i, i + 10_000).map((r) => r.value))
})
// As the identity worker runs: one Networks (the free data; no ranges bought) for every batch, until the ranges change.
const networks = new Networks(RangeTable.empty(), freeNetworkData('free'))
// And, embedded, the visits it knows (known-visits.ts): a visitor's next batch is folded without reading its visits back.
const known = new KnownVisits()
await step("identity's visits (read or known, match the address, fold, insert; 5,000 a batch)", async () => {
  for (let i = 0; i < hits.length; i += 5_000) await storeHits(store, networks, hits.slice(i, i + 5_000), known)
})
await store.close()
rmSync(dir, { recursive: true, force: true })

const total = rows.reduce((n, r) => n + r.usPerEvent, 0)
for (const r of rows) console.log(`${r.usPerEvent.toFixed(1).padStart(7)} µs  ${((r.usPerEvent / total) * 100).toFixed(0).padStart(3)} %  ${r.step}`)
console.log(`${total.toFixed(1).padStart(7)} µs        in all: ${Math.round(1e6 / total).toLocaleString('en')} events/s per core`)
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
