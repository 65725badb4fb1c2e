/**
 * Ingest throughput, embedded, with durable acknowledgement (each 2xx waits for fsync).
 *
 *   npx tsx bench/src/ingest.ts batch   # /v1/batch, 100 events a request, 30 s
 *   npx tsx bench/src/ingest.ts track   # /v1/track, one event a request, 30 s
 *
 * The server runs in its own process on a fresh data directory; autocannon runs
 * here. Options: --duration s, --connections n, --url (an already running fl0, with --write-key).
 *
 * With KAFKA_BROKERS set, the server is the ingest role alone, publishing to
 * Kafka (acks from all in-sync replicas before each 2xx) instead of the disk log:
 *   KAFKA_BROKERS=$(bash scripts/cluster/kafka.sh start) npx tsx bench/src/ingest.ts batch
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir, cpus } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startBenchServer } from './spawn.ts'
import { batchBody, trackEvent } from './events.ts'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { duration: { type: 'string', default: '30' }, connections: { type: 'string' }, url: { type: 'string' }, 'write-key': { type: 'string' } },
})
const mode = positionals[0] ?? 'batch'
if (mode !== 'batch' && mode !== 'track') throw new Error('mode must be batch or track')

const bus = process.env.KAFKA_BROKERS ? 'kafka' : 'disk'
if (bus === 'kafka') process.env.FL0_ROLES = 'ingest' // the server inherits this environment
const server = values.url ? undefined : await startBenchServer(mkdtempSync(join(tmpdir(), 'fl0-bench-')))
const url = values.url ?? server!.url
const writeKey = values['write-key'] ?? server!.writeKey
const auth = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`
const batchSize = 100

// Warm up (JIT, first segment file, chDB's first inserts) before measuring.
await autocannon({ url: `${url}/v1/batch`, method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: batchBody(batchSize), connections: 4, duration: 3 })

const result = await autocannon({
  url: mode === 'batch' ? `${url}/v1/batch` : `${url}/v1/track`,
  method: 'POST',
  headers: { authorization: auth, 'content-type': 'application/json' },
  body: mode === 'batch' ? batchBody(batchSize) : JSON.stringify(trackEvent(1)),
  connections: Number(values.connections ?? 16),
  duration: Number(values.duration),
})

const ok = result['2xx']
const seconds = result.duration
const summary = {
  mode,
  bus,
  machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}`,
  durationSeconds: seconds,
  connections: result.connections,
  requestsPerSecond: Math.round(ok / seconds),
  eventsPerSecond: Math.round((ok * (mode === 'batch' ? batchSize : 1)) / seconds),
  latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  serverPeakRssMb: server ? Math.round(server.peakRssMb()) : null,
}
console.log(JSON.stringify(summary, null, 2))
mkdirSync(new URL('../results/', import.meta.url), { recursive: true })
writeFileSync(new URL(`../results/ingest-${mode}${bus === 'kafka' ? '-kafka' : ''}.json`, import.meta.url), JSON.stringify(summary, null, 2))
await server?.stop()
