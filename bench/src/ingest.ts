/**
 * Ingest throughput, embedded, with durable acknowledgement (each 2xx waits for fsync).
 *
 *   npx tsx bench/src/ingest.ts batch   # /v1/batch, 100 events a request, 30 s
 *   npx tsx bench/src/ingest.ts track   # /v1/track, one event a request, 30 s
 *
 * The server runs in its own process on a fresh data directory; autocannon runs
 * here. Options: --duration s, --connections n, --url (an already running fl0, with --write-key).
 * In the same run, the same load goes first to the bare Node floor
 * (baseline-server.ts), and fl0's figures are reported beside it, as a
 * ratio, with the load average before and after (--no-baseline to skip it).
 *
 * --rate n sends n events a second steadily instead of as fast as answered: the
 * consumers' lag at the end (and how long they take to drain it) tells whether
 * fl0 stores events at that rate, not only acknowledges them.
 *
 * Each request's events are stamped with the time it is sent, and the requests
 * cycle through 20,000 visitors (events.ts: liveBodies), as a site's traffic
 * comes (--visitors n for another number: a site with more visitors in half an hour
 * than the identity worker keeps, say); --fixed-body sends one body again and again (one time, 100 visitors),
 * as this bench did before 2026-12-07, for figures beside older ones.
 *
 * --data DIR runs fl0 on a copy of DIR (an fl0 data directory, such as the one
 * dashboard-under-load.ts prepares with 10 million events) instead of a fresh
 * one: what the ingest costs once a store holds millions of events. The copy
 * is removed after the run; DIR is left as it was.
 *
 * With KAFKA_BROKERS set, the server is the ingest role alone, publishing to
 * Kafka (acks from all in-sync replicas before each 2xx) instead of the disk log:
 *   KAFKA_BROKERS=$(bash scripts/cluster/kafka.sh start) npx tsx bench/src/ingest.ts batch
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startBaselineServer, startBenchServer, type BenchServer } from './spawn.ts'
import { batchBody, liveRequests, LOAD_VISITORS, trackEvent } from './events.ts'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string' },
    url: { type: 'string' },
    'write-key': { type: 'string' },
    'no-baseline': { type: 'boolean', default: false },
    /** Events a second to send (a steady rate, not as fast as the server answers): whether the consumers keep up at it. */
    rate: { type: 'string' },
    /** An fl0 data directory to copy and run on, instead of an empty one. */
    data: { type: 'string' },
    /** Every request the same body (one time, 100 visitors), as this bench sent before 2026-12-07: for figures beside older ones. */
    'fixed-body': { type: 'boolean', default: false },
    /** How many visitors the requests cycle through (events.ts: liveBodies). */
    visitors: { type: 'string', default: String(LOAD_VISITORS) },
  },
})
const mode = positionals[0] ?? 'batch'
const visitors = Number(values.visitors)
if (!(Number.isInteger(visitors) && visitors >= 1)) throw new Error('--visitors must be a whole number of at least 1')
if (mode !== 'batch' && mode !== 'track') throw new Error('mode must be batch or track')

const bus = process.env.KAFKA_BROKERS ? 'kafka' : 'disk'
if (bus === 'kafka') process.env.FL0_ROLES = 'ingest' // the server inherits this environment
const batchSize = 100
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ')

/** autocannon's options for a site's traffic, `size` events a request (events.ts: liveBodies); none with --fixed-body, which sends `body` every time. */
const liveLoad = (size: number) => (values['fixed-body'] ? {} : { requests: [{ setupRequest: liveRequests(size, visitors) }] })

/** One target under the load: a warm-up (JIT, first segment file, chDB's first inserts), then the measured run. */
async function measure(url: string, writeKey: string, server: BenchServer | undefined) {
  const auth = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`
  // With the run's load (its visitors seen once, so that the run does not start by reading them all back).
  await autocannon({ url: `${url}/v1/batch`, method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: batchBody(batchSize), ...liveLoad(batchSize), connections: 4, duration: 3 })
  // The warm-up's events stored before the measured run starts, so that its CPU is not counted against the run's events.
  const warmedUp = performance.now()
  while (server && Math.max(0, ...Object.values(server.lag())) > 0 && performance.now() - warmedUp < 60_000) await new Promise((r) => setTimeout(r, 100))
  server?.takeMaxLag() // the warm-up's
  const cpuBefore = server?.cpuSeconds()
  const ownCpu = process.cpuUsage()
  const result = await autocannon({
    url: mode === 'batch' ? `${url}/v1/batch` : `${url}/v1/track`,
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: mode === 'batch' ? batchBody(batchSize) : JSON.stringify(trackEvent(1)),
    ...liveLoad(mode === 'batch' ? batchSize : 1),
    connections: Number(values.connections ?? 16),
    duration: Number(values.duration),
    ...(values.rate ? { overallRate: Number(values.rate) / (mode === 'batch' ? batchSize : 1) } : {}),
  })
  const ok = result['2xx']
  const seconds = result.duration
  // Whether every consumer kept up (fl0 only): the most any group was behind during the run, and how long it took them all to catch up after.
  let consumers: { maxLag: number; lagAtEnd: Record<string, number>; drainSeconds: number | null } | undefined
  if (server && Object.keys(server.lag()).length > 0) {
    const maxLag = server.takeMaxLag()
    const lagAtEnd = server.lag()
    const ended = performance.now()
    while (Math.max(...Object.values(server.lag())) > 0 && performance.now() - ended < 180_000) await new Promise((r) => setTimeout(r, 100))
    const drained = Math.max(...Object.values(server.lag())) === 0
    consumers = { maxLag, lagAtEnd, drainSeconds: drained ? +((performance.now() - ended) / 1000).toFixed(1) : null }
  }
  // The server's CPU over the run and the drain after it, per event acknowledged: what an event costs to take and store, whatever
  // else shares the machine. With the load generator's own CPU a second, it tells the rate the machine could keep up with.
  const events = ok * (mode === 'batch' ? batchSize : 1)
  const generator = process.cpuUsage(ownCpu)
  const cpu = server && cpuBefore !== undefined && events > 0 && consumers?.drainSeconds !== null
    ? { serverUsPerEvent: +(((server.cpuSeconds() - cpuBefore) * 1e6) / events).toFixed(1), generatorUsPerEvent: +((generator.user + generator.system) / events).toFixed(1) }
    : undefined
  return {
    durationSeconds: seconds,
    connections: result.connections,
    requestsPerSecond: Math.round(ok / seconds),
    eventsPerSecond: Math.round((ok * (mode === 'batch' ? batchSize : 1)) / seconds),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverPeakRssMb: server ? Math.round(server.peakRssMb()) : null,
    consumers,
    cpu,
  }
}

const loadBefore = load()
let baseline: Awaited<ReturnType<typeof measure>> | undefined
if (!values['no-baseline']) {
  const floorDir = mkdtempSync(join(tmpdir(), 'fl0-bench-baseline-'))
  const floor = await startBaselineServer(floorDir)
  baseline = await measure(floor.url, floor.writeKey, floor)
  await floor.stop()
  // The floor's log grows by about 80 MB a second of load: gone once measured.
  rmSync(floorDir, { recursive: true, force: true })
}
if (values.url && values.data) throw new Error('--data is for the server this bench starts, not one at --url')
const serverDir = values.url ? undefined : mkdtempSync(join(tmpdir(), 'fl0-bench-'))
let fl0: Awaited<ReturnType<typeof measure>>
let server: BenchServer | undefined
try {
  if (serverDir && values.data) cpSync(values.data, serverDir, { recursive: true })
  server = serverDir ? await startBenchServer(serverDir) : undefined
  fl0 = await measure(values.url ?? server!.url, values['write-key'] ?? server!.writeKey, server)
} finally {
  await server?.stop()
  // A data directory grows by gigabytes a run (and a copy of --data is one already): gone once measured.
  if (serverDir) rmSync(serverDir, { recursive: true, force: true })
}

const summary = {
  mode,
  bus,
  load: values['fixed-body'] ? 'one body' : `a site's traffic, ${visitors.toLocaleString('en')} visitors`,
  machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}`,
  loadAverage: { before: loadBefore, after: load() },
  ...fl0,
  baseline,
  ofBaseline: baseline ? { events: +(fl0.eventsPerSecond / baseline.eventsPerSecond).toFixed(3), requests: +(fl0.requestsPerSecond / baseline.requestsPerSecond).toFixed(3) } : undefined,
}
console.log(JSON.stringify(summary, null, 2))
mkdirSync(new URL('../results/', import.meta.url), { recursive: true })
writeFileSync(new URL(`../results/ingest-${mode}${bus === 'kafka' ? '-kafka' : ''}.json`, import.meta.url), JSON.stringify(summary, null, 2))
