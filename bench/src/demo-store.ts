/**
 * The demo's traffic in an events store, fast: for query benchmarks that need
 * millions of events (an audience at 10 million), where sending them through
 * the HTTP ingest (about 6,000 calls a second here) would take half an hour.
 *
 * Every call is turned into its stored row by the ingest's own normalizeCall
 * (the same validation, field mapping and clock correction as /v1/batch), with
 * the call's own time as the time it was received, and inserted in blocks of
 * 50,000 rows (JSONEachRow: the event writer inserts the same rows by
 * position, as the ingest puts them on the bus). Only the HTTP hop and the bus
 * are skipped; the rows are the ones the ingest would store.
 *
 * The data set is fixed by its options (seed, sizes, events, the end of the
 * window), so a store that already holds a data set's rows is reused as is:
 * the first load takes minutes, later runs none.
 */
import { normalizeCall } from '@fl0/ingest'
import { createDemo, type DemoOptions } from '@fl0/demo'
import type { IngestedEvent } from '@fl0/contracts'
import { migrateEvents, type EventStore } from '@fl0/stores'

export interface LoadedDemo {
  orgId: string
  events: number
  /** The end of the data set's window: "now" for queries over it. */
  end: Date
  runId: string
  /** Seconds spent loading; 0 when the store held the data set already. */
  loadSeconds: number
}

const BLOCK = 50_000

export async function loadDemoEvents(
  store: EventStore,
  options: DemoOptions & { orgId: string; now: Date },
  log: (line: string) => void = () => {},
): Promise<LoadedDemo> {
  await migrateEvents(store)
  const demo = createDemo(options)
  const marker = `demo-${demo.runId}-`
  const count = async () => {
    const r = await store.client.query({
      query: 'SELECT count() AS n FROM events WHERE org_id = {org:String} AND startsWith(message_id, {prefix:String})',
      query_params: { org: options.orgId, prefix: marker },
      format: 'JSONEachRow',
    })
    return Number((await r.json<{ n: string | number }>())[0]!.n)
  }
  // Which data sets are whole: a table of the benchmark's own, so no made-up event joins the data.
  await store.client.command({ query: 'CREATE TABLE IF NOT EXISTS bench_loaded (org_id String, run_id String) ENGINE = MergeTree ORDER BY (org_id, run_id)' })
  const done = await store.client.query({
    query: 'SELECT count() AS n FROM bench_loaded WHERE org_id = {org:String} AND run_id = {run:String}',
    query_params: { org: options.orgId, run: demo.runId },
    format: 'JSONEachRow',
  })
  const stored = await count()
  if (Number((await done.json<{ n: string | number }>())[0]!.n) > 0) {
    log(`the store holds data set ${demo.runId} already (${stored.toLocaleString('en')} events)`)
    return { orgId: options.orgId, events: stored, end: demo.window.end, runId: demo.runId, loadSeconds: 0 }
  }
  if (stored > 0) throw new Error(`a partly loaded data set ${demo.runId} is in the store: remove its directory and load again`)

  const started = Date.now()
  let block: IngestedEvent[] = []
  let total = 0
  // One insert in flight while the next block is made: chDB inserts off the event loop.
  let inFlight: Promise<void> = Promise.resolve()
  const flush = async () => {
    const rows = block
    block = []
    await inFlight
    if (rows.length === 0) return
    inFlight = store.client.insert({ table: 'events', values: rows, format: 'JSONEachRow' }).then(() => {
      total += rows.length
      if (total % 1_000_000 < BLOCK) log(`loaded ${total.toLocaleString('en')} events (${Math.round(total / ((Date.now() - started) / 1000)).toLocaleString('en')}/s)`)
    })
  }
  for (const { source, message } of demo.messages()) {
    const at = new Date(message.timestamp)
    const normalized = normalizeCall(message.type, message, { orgId: options.orgId, sourceId: source, receivedAt: at, ip: String(message.context.ip ?? '') })
    if (!normalized.ok) throw new Error(`the ingest refused a demo call: ${JSON.stringify(normalized.errors)}`)
    block.push(normalized.event)
    if (block.length >= BLOCK) await flush()
  }
  await flush()
  await inFlight
  // Written last: a load cut short leaves no mark, and is not taken for a whole one.
  await store.client.insert({ table: 'bench_loaded', values: [{ org_id: options.orgId, run_id: demo.runId }], format: 'JSONEachRow' })
  const loadSeconds = (Date.now() - started) / 1000
  log(`loaded ${total.toLocaleString('en')} events in ${loadSeconds.toFixed(0)} s`)
  return { orgId: options.orgId, events: total, end: demo.window.end, runId: demo.runId, loadSeconds }
}
