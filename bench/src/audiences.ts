/**
 * Audience engine latency at 10 million events in chDB (issue 8): an audience
 * of three trait filters and one action filter over the demo, through the
 * engine's own code (previewAudience: plan, SQL, one query, shaping), which is
 * all POST /api/orgs/{organization}/audiences/filters does besides HTTP.
 *
 *   npx tsx bench/src/audiences.ts                       # 10M events, 3 warm-up runs, 15 measured
 *   npx tsx bench/src/audiences.ts --events 1000000 --runs 30 --data /tmp/fl0-a1
 *
 * The data set is the demo generator's (createDemo, 90 days ending at a fixed
 * time, so every run sees the same events), loaded by demo-store.ts: every
 * call through the ingest's own normalizeCall, inserted as the event writer
 * inserts. The first run loads (many minutes); later runs with the same
 * --data directory and options reuse it.
 */
import { cpus, loadavg, totalmem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { audienceFiltersSchema } from '@fl0/contracts'
import { migrateMetadata, openEventStore, openPglite } from '@fl0/stores'
import { countAudience, previewAudience } from '@fl0/query'
import { loadDemoEvents } from './demo-store.ts'
import { AUDIENCE_FILTERS } from './cases.ts'

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    data: { type: 'string', default: join(tmpdir(), 'fl0-bench-audiences') },
  },
})
/** The demo's organisation as the demo names it; the store is the benchmark's own (--data). */
const ORG = 'demo'
/** The demo's window ends here, and "the last 7 days" count back from here: the same answer every run. */
const NOW = new Date('2026-11-20T12:00:00.000Z')
const GOAL_MS = 300

const events = await openEventStore({ kind: 'chdb', path: values.data!, database: 'bench' })
const sql = await openPglite()
await migrateMetadata(sql)
const loaded = await loadDemoEvents(events, { orgId: ORG, now: NOW, events: Number(values.events) }, (line) => console.error(line))

/** The audience (cases.ts). */
const filters = audienceFiltersSchema.parse(AUDIENCE_FILTERS)

async function one<T>(query: string, params: Record<string, unknown> = {}): Promise<T> {
  const r = await events.client.query({ query, query_params: params, format: 'JSONEachRow' })
  return (await r.json<T>())[0]!
}
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

const version = await one<{ v: string }>('SELECT version() AS v')
const parts = await one<{ n: string }>("SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = 'events' AND active")
const users = await one<{ n: string }>("SELECT uniqExact(user_id) AS n FROM events WHERE org_id = {org:String} AND user_id != ''", { org: ORG })
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; chDB (ClickHouse ${version.v}); load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`data: ${loaded.events.toLocaleString('en')} events of ${Number(users.n).toLocaleString('en')} user ids; ${parts.n} active parts`)

for (const [label, run] of [
  [
    'preview (both tables, page 1, totals)',
    async () => {
      const r = await previewAudience({ sql, events }, { orgId: ORG, filters, now: NOW, page: 1 })
      return { users: r.totalUsers, companies: r.totalCompanies, rows: r.users.length + r.companies.length }
    },
  ],
  ["count (the list's Members and Companies)", () => countAudience({ sql, events }, { orgId: ORG, filters, now: NOW })],
] as const) {
  for (let i = 0; i < Number(values.warmup); i++) await run()
  const times: number[] = []
  // CPU of this process, chDB's threads included: what a query costs whatever else the machine is doing.
  const cpu: number[] = []
  let last: unknown
  for (let i = 0; i < Number(values.runs); i++) {
    const used = process.cpuUsage()
    const started = performance.now()
    last = await run()
    times.push(performance.now() - started)
    const d = process.cpuUsage(used)
    cpu.push((d.user + d.system) / 1000)
  }
  times.sort((a, b) => a - b)
  cpu.sort((a, b) => a - b)
  const median = quantile(times, 0.5)
  const p95 = quantile(times, 0.95)
  console.log(
    `${label}: median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms (goal ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? 'met' : median <= GOAL_MS ? 'median met, p95 not' : 'not met'}); ` +
      `CPU median ${quantile(cpu, 0.5).toFixed(0)} ms, p95 ${quantile(cpu, 0.95).toFixed(0)} ms; ${JSON.stringify(last)}`,
  )
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
await events.close()
await sql.close()
