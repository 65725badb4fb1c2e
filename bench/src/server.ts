/**
 * A benchmark's fl0: the real embedded server in its own process, so that the
 * load generator's CPU and memory are not counted as the server's.
 *
 *   tsx bench/src/server.ts --data-dir DIR [--port N]     serve; prints {"url","writeKey","pid"} once ready
 *   tsx bench/src/server.ts --data-dir DIR --report IDS   no HTTP: drain the bus into the store, then print
 *                                                         counts and which acknowledged ids (one per line in IDS) are missing
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createOrganisation, createSource, createUser, findLocalAccount, findOrganisationByUrlCode, listSources, setLocalPassword } from '@fl0/stores'
import { hashPassword } from '@fl0/api'
import { loadConfig, createLogger, startFl0 } from '@fl0/server'
import { BENCH_USER } from './spawn.ts'

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, port: { type: 'string', default: '0' }, report: { type: 'string' } } })
const dataDir = values['data-dir']
if (!dataDir) throw new Error('--data-dir is required')

const config = loadConfig({ ...process.env, FL0_DATA_DIR: dataDir, PORT: values.port!, HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' })
const fl0 = await startFl0(config, createLogger(config.LOG_LEVEL))

if (values.report) {
  const bus = fl0.stores.bus as unknown as { lag(topic: string, group: string): number }
  while (bus.lag('events', 'event-writer') > 0) await new Promise((r) => setTimeout(r, 200))
  const client = fl0.stores.events!.client
  const acked = readFileSync(values.report, 'utf8').split('\n').filter(Boolean)
  const [totals] = await (await client.query({ query: 'SELECT count() AS rows, uniqExact(message_id) AS ids FROM events', format: 'JSONEachRow' })).json<{ rows: string; ids: string }>()
  const present = new Set<string>()
  for (let i = 0; i < acked.length; i += 5000) {
    const r = await client.query({
      query: 'SELECT DISTINCT message_id FROM events WHERE message_id IN {ids:Array(String)}',
      query_params: { ids: acked.slice(i, i + 5000) },
      format: 'JSONEachRow',
    })
    for (const row of await r.json<{ message_id: string }>()) present.add(row.message_id)
  }
  const missing = acked.filter((id) => !present.has(id))
  process.stdout.write(JSON.stringify({ rows: Number(totals.rows), uniqueIds: Number(totals.ids), acknowledged: acked.length, missing: missing.length, missingSample: missing.slice(0, 5) }) + '\n')
  await fl0.stop()
  process.exit(0)
}

const metadata = fl0.stores.metadata!
const org = (await findOrganisationByUrlCode(metadata, 'bench')) ?? (await createOrganisation(metadata, 'bench'))
const source = (await listSources(metadata, org.id)).find((s) => s.type === 'segment') ?? (await createSource(metadata, { orgId: org.id, type: 'segment', name: 'segment' }))
// An account to read the dashboard's API with: the first, so it adopts the bench organisation (BenchServer.signIn signs in as it).
if (!(await findLocalAccount(metadata, BENCH_USER.email))) {
  const passwordHash = await hashPassword(BENCH_USER.password)
  await createUser(metadata, { email: BENCH_USER.email, name: 'Bench' }, (tx, u) => setLocalPassword(tx, u.id, passwordHash))
}
// A second organisation, for load that must not change what the first one's queries read (dashboard-under-load.ts).
const other = (await findOrganisationByUrlCode(metadata, 'bench-load')) ?? (await createOrganisation(metadata, 'bench-load'))
const otherSource = (await listSources(metadata, other.id)).find((s) => s.type === 'segment') ?? (await createSource(metadata, { orgId: other.id, type: 'segment', name: 'segment' }))
process.stdout.write(JSON.stringify({ url: fl0.url, writeKey: source.write_key, orgId: org.id, otherWriteKey: otherSource.write_key, pid: process.pid }) + '\n')

// Then, every 250 ms, how far behind each consumer group of the events topic is (spawn.ts reads these lines).
const lagOf = fl0.stores.bus as unknown as { lag(topic: string, group: string): number }
if (typeof lagOf.lag === 'function') {
  setInterval(() => {
    const lag = Object.fromEntries(['event-writer', 'lexicon', 'identity'].map((g) => [g, lagOf.lag('events', g)]))
    process.stdout.write(JSON.stringify({ lag }) + '\n')
  }, 250).unref()
}

if (process.env.FL0_BENCH_LOOP_DELAY) {
  // How long the event loop was blocked: chDB is meant to run off it.
  const { monitorEventLoopDelay, performance } = await import('node:perf_hooks')
  const h = monitorEventLoopDelay({ resolution: 5 })
  h.enable()
  let elu = performance.eventLoopUtilization()
  let cpu = process.cpuUsage()
  setInterval(() => {
    const nextElu = performance.eventLoopUtilization()
    const used = performance.eventLoopUtilization(nextElu, elu).utilization
    const nextCpu = process.cpuUsage()
    const cores = (nextCpu.user - cpu.user + nextCpu.system - cpu.system) / 5e6
    elu = nextElu
    cpu = nextCpu
    process.stderr.write(
      `event loop: utilisation ${(used * 100).toFixed(0)}%, delay p50 ${(h.percentile(50) / 1e6).toFixed(1)} p99 ${(h.percentile(99) / 1e6).toFixed(1)} max ${(h.max / 1e6).toFixed(1)} ms; process CPU ${cores.toFixed(2)} cores\n`,
    )
    h.reset()
  }, 5000).unref()
}
// FL0_BENCH_HEAP_PROF=FILE: a sampling profile of every allocation (those the GC has since collected included), written on stop:
// which code allocates what, for the garbage collector's share of the CPU.
const heapProfile = process.env.FL0_BENCH_HEAP_PROF ? await startHeapSampling(process.env.FL0_BENCH_HEAP_PROF) : undefined
process.on('SIGTERM', () => void fl0.stop().then(async () => {
  await heapProfile?.()
  process.exit(0)
}))

async function startHeapSampling(file: string): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises')
  const { writeFileSync } = await import('node:fs')
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !process.env.FL0_BENCH_HEAP_PROF_SURVIVORS })
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling')
    writeFileSync(file, JSON.stringify(profile))
  }
}
