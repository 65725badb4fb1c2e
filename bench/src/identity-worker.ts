/**
 * The identity worker's own cost (issue 9): the demo's calls, as the ingest
 * would store them, folded into identified_visits in the worker's batches
 * (storeHits: the stored visits around each batch read back, the fold, the
 * address match, the insert), on chDB, with the demo's partner ranges loaded.
 * Reports calls per second and the time per batch, so that it can be set
 * beside the ingest's rate.
 *
 *   npx tsx bench/src/identity-worker.ts [--calls 200000] [--batch 5000]
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { migrateEvents, openEventStore } from '@fl0/stores'
import { createDemo, PARTNER_FILES } from '@fl0/demo'
import { cidrKeys, freeNetworkData, hitOf, Networks, RangeTable, storeHits, type Hit, type RangeKind } from '@fl0/workers'
import { chTime } from '@fl0/contracts'

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' }, batch: { type: 'string', default: '5000' } } })
const calls = Number(values.calls)
const batchSize = Number(values.batch)
const demo = createDemo({ now: new Date('2026-11-21T23:59:59.999Z') })
const ranges = RangeTable.build(
  [...PARTNER_FILES['ip-to-company.csv'](demo.world)].slice(1).map((line) => {
    const [network, name, domain, kind] = line.split(',')
    return { ...cidrKeys(network!)!, companyName: name!, domain: domain!, kind: kind as RangeKind }
  }),
)
// With the free data behind the partner ranges, as the worker runs by default.
const networks = new Networks(ranges, freeNetworkData())
const store = await openEventStore({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'fl0-identity-bench-')), database: 'fl0' })
await migrateEvents(store)
const hits: Hit[] = []
for (const { message } of demo.messages()) {
  const hit = hitOf({
    org_id: 'org-bench',
    type: message.type,
    timestamp: chTime(new Date(message.timestamp)),
    user_id: message.userId ?? '',
    anonymous_id: message.anonymousId ?? '',
    ip: String(message.context.ip ?? ''),
    context: message.context,
    traits: message.traits ?? {},
  })
  if (hit) hits.push(hit)
  if (hits.length >= calls) break
}
const started = Date.now()
const times: number[] = []
let rows = 0
for (let i = 0; i < hits.length; i += batchSize) {
  const t = Date.now()
  rows += await storeHits(store, networks, hits.slice(i, i + batchSize))
  times.push(Date.now() - t)
}
const seconds = (Date.now() - started) / 1000
times.sort((a, b) => a - b)
const [{ n }] = await (await store.client.query({ query: 'SELECT count() AS n FROM identified_visits FINAL', format: 'JSONEachRow' })).json<{ n: string }>()
process.stdout.write(`${JSON.stringify({ calls: hits.length, batch: batchSize, seconds, callsPerSecond: Math.round(hits.length / seconds), batchMs: { p50: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], max: times[times.length - 1] }, rowsWritten: rows, visits: Number(n), ranges: ranges.size })}\n`)
await store.close()
