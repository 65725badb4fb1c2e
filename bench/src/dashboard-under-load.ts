/**
 * The dashboard while fl0 ingests (issue 19): the 30-day unique-users line, a
 * three-step funnel and an audience preview, asked through the HTTP API of a
 * real embedded fl0 holding 10 million events, while /v1/batch brings it a
 * steady 10,000 events a second. Goal: p95 ≤ 300 ms for each. With
 * --screens people, the home page and the People list instead.
 *
 *   npx tsx bench/src/dashboard-under-load.ts                  # 10M events, 10,000 events/s, 20 calls of each
 *   npx tsx bench/src/dashboard-under-load.ts --rate 0         # the same calls with no ingest: the idle figure beside it
 *   npx tsx bench/src/dashboard-under-load.ts --pace 0         # calls back to back, a reader that never pauses
 *   npx tsx bench/src/dashboard-under-load.ts --screens people # the home page and the People list instead of the charts
 *   npx tsx bench/src/dashboard-under-load.ts --screens traits # metrics by traits and companies, trait values, a profile
 *   npx tsx bench/src/dashboard-under-load.ts --screens companies # a company's page and Visitors tab, a profile
 *
 * By default one call starts every second (--pace 1000), the three in turn: a
 * team reading its dashboards. Back to back (--pace 0), the reader takes all
 * the CPU the ingest leaves, and the report shows what that costs the consumers.
 *   npx tsx bench/src/dashboard-under-load.ts --events 1000000 --data /tmp/fl0-dul-1m
 *
 * The data directory (--data) is an fl0 data directory: the first run starts
 * the bench server once (its organisation and source), stops it, loads the
 * demo generator's events for that organisation straight into its chDB
 * (demo-store.ts: the ingest's own normalizeCall, inserted as the event
 * writer inserts), writes their identified visits as "Refresh sessions and
 * people" does (what the identity worker would have kept), and notes it in
 * prepared.json; later runs reuse it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { migrateEvents, openEventStore } from '@fl0/stores'
import { loadNetworks, Progress, refreshSessions } from '@fl0/workers'
import { loadDemoEvents } from './demo-store.ts'
import { startBenchServer, type BenchServer } from './spawn.ts'
import { batchBody, liveRequests } from './events.ts'
import { AUDIENCE_FILTERS, FUNNEL_THREE_STEPS, LINE_ANY_EVENT } from './cases.ts'

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    rate: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    data: { type: 'string', default: join(tmpdir(), 'fl0-bench-dashboard') },
    /** Time from the start of one call to the start of the next (0: back to back, a reader that never pauses). */
    pace: { type: 'string', default: '1000' },
    'prepare-only': { type: 'boolean', default: false },
    /** charts: the three calls of the issue's goal; people: the home page and the People list (page, anonymous visitors, a search); traits: TRAITS below. */
    screens: { type: 'string', default: 'charts' },
  },
})
const GOAL_MS = 300
const dataDir = values.data!
const loadLine = () => loadavg().map((l) => l.toFixed(1)).join(' ')

interface Prepared {
  orgId: string
  events: number
  end: string
  /** Identified visits written for the events (absent in a directory prepared before they were). */
  visits?: number
}

/** The bench organisation, and the demo's events for it in the data directory's chDB. */
async function prepare(): Promise<Required<Prepared>> {
  const file = join(dataDir, 'prepared.json')
  let prepared: Prepared | undefined = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Prepared) : undefined
  if (prepared?.visits !== undefined) return prepared as Required<Prepared>
  mkdirSync(dataDir, { recursive: true })
  let orgId = prepared?.orgId
  if (!orgId) {
    const first = await startBenchServer(dataDir)
    orgId = first.orgId
    await first.stop()
  }
  // The server's own events store, opened as it opens it (server/src/stores.ts); one process at a time.
  const store = await openEventStore({ kind: 'chdb', path: join(dataDir, 'clickhouse'), database: 'fl0' })
  if (!prepared) {
    const loaded = await loadDemoEvents(store, { orgId, now: new Date(), events: Number(values.events) }, (line) => console.error(line))
    prepared = { orgId, events: loaded.events, end: loaded.end.toISOString() }
  }
  // The events were loaded straight into chDB, past the identity worker: the admin's "Refresh sessions and people"
  // writes the visits the worker would have kept, so that identification reads what an install's would.
  await migrateEvents(store)
  const started = performance.now()
  const progress = new Progress()
  await refreshSessions(store, await loadNetworks(store, 'free'), [orgId], progress, new Date())
  prepared.visits = progress.counts.visits ?? 0
  console.error(`wrote ${prepared.visits.toLocaleString('en')} identified visits in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  await store.close()
  writeFileSync(file, JSON.stringify(prepared))
  return { ...prepared, visits: prepared.visits }
}

const prepared = await prepare()
if (values['prepare-only']) {
  console.log(`prepared ${prepared.events.toLocaleString('en')} events and ${prepared.visits.toLocaleString('en')} identified visits for ${prepared.orgId} in ${dataDir}`)
  process.exit(0)
}

interface Case {
  name: string
  path: string
  /** POSTed as JSON; a GET without. */
  body?: unknown
}

/** The three screens' calls, as the dashboard makes them. */
const CHARTS: Case[] = [
  {
    name: '30-day line of unique users (any event)',
    path: '/api-v2/orgs/bench/metrics/graph',
    body: LINE_ANY_EVENT,
  },
  {
    name: 'three-step funnel over 30 days (Logged In → Report Created → Export Downloaded)',
    path: '/api-v2/orgs/bench/metrics/graph',
    body: FUNNEL_THREE_STEPS,
  },
  {
    name: 'audience preview (three traits, one action)',
    path: '/api/orgs/bench/audiences/filters',
    body: { page: 1, filters: AUDIENCE_FILTERS },
  },
]

/** The first screens a team opens: the home page's week, and the People list as its controls ask for it. */
const PEOPLE: Case[] = [
  { name: 'home page (who visited this week)', path: '/api-v2/orgs/bench/home' },
  { name: 'People list, first page', path: '/api-v2/orgs/bench/people' },
  { name: "People list with 'Show anonymous users', page 2", path: '/api-v2/orgs/bench/people?ip2company=true&page=2' },
  { name: "People list searched for 'mar'", path: '/api-v2/orgs/bench/people?search=mar' },
]

/**
 * Calls that read traits and companies, each the slowest of its kind at 10
 * million events before they read trait_calls: metrics with a breakdown, a
 * trait filter or companies, the audience builder's list of a trait's values,
 * a person's profile (the demo's most active) and a company found by its id.
 */
const TRAITS: Case[] = [
  { name: 'line broken down by a user trait (plan)', path: '/api-v2/orgs/bench/metrics/graph', body: { ...LINE_ANY_EVENT, breakdown: { trait: 'plan' } } },
  {
    name: "one event's line for users whose plan is not free",
    path: '/api-v2/orgs/bench/metrics/graph',
    body: { events: [{ name: 'Report Created' }], dateRange: 'last30Days', graphType: 'line', audience: { traits: [{ name: 'plan', operation: 'is_not', value: 'free' }] } },
  },
  { name: 'line of unique companies', path: '/api-v2/orgs/bench/metrics/graph', body: { ...LINE_ANY_EVENT, measureBy: 'uniqueCompanies' } },
  { name: "the values of the user trait 'plan'", path: '/api/orgs/bench/audiences/traits/user/plan/values' },
  // The person and the company are looked up once the server runs (below).
  { name: "the profile of the People list's first person (the demo's most active)", path: '/api/orgs/bench/people/{person}' },
  { name: 'a company by its id', path: '/api-v2/orgs/bench/companies/by-id/{company}' },
]

/**
 * The screens that show where people are and what they did, one company or
 * person at a time: a company's page (its feed), its Visitors tab and a
 * person's profile.
 */
const COMPANIES: Case[] = [
  { name: "a company's page (of the charts' audience's first member)", path: '/api-v2/orgs/bench/companies/{company}' },
  { name: 'its Visitors tab', path: '/api-v2/orgs/bench/companies/{company}/visitors' },
  { name: "the profile of the People list's first person (the demo's most active)", path: '/api/orgs/bench/people/{person}' },
]

const CASES = values.screens === 'people' ? PEOPLE : values.screens === 'traits' ? TRAITS : values.screens === 'companies' ? COMPANIES : CHARTS

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
const rate = Number(values.rate)

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}`)
console.log(`data: ${prepared.events.toLocaleString('en')} events (the demo generator's, 90 days to ${prepared.end}) and ${prepared.visits.toLocaleString('en')} identified visits in ${dataDir}`)
console.log(`load average at start ${loadLine()}; ${values.rate} events/s asked; one call every ${values.pace} ms`)

const server: BenchServer = await startBenchServer(dataDir)
try {
  const cookie = await server.signIn()

  const ask = async (c: Case) => {
    const started = performance.now()
    const res = await fetch(
      `${server.url}${c.path}`,
      c.body === undefined ? { headers: { cookie } } : { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(c.body) },
    )
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}: ${text.slice(0, 300)}`)
    return { ms: performance.now() - started, text }
  }

  if (CASES === TRAITS || CASES === COMPANIES) {
    // The People list's first person, and the company of the first member of the charts' audience.
    const person = (JSON.parse((await ask({ name: 'people', path: '/api-v2/orgs/bench/people' })).text) as { users: Array<{ id: string }> }).users[0]!.id
    const preview = JSON.parse((await ask(CHARTS[2]!)).text) as { users: Array<{ companyId: string | null }> }
    const company = preview.users.find((u) => u.companyId)!.companyId!
    for (const c of CASES) c.path = c.path.replace('{person}', encodeURIComponent(person)).replace('{company}', encodeURIComponent(company))
  }

  // The ingest, at a steady rate of 100-event batches, for as long as the calls take.
  let stopLoad = () => {}
  const load =
    rate > 0
      ? new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${server.url}/v1/batch`,
              method: 'POST',
              // Into another organisation: the data the calls read stays the prepared 10 million events, run after run.
              headers: { authorization: `Basic ${Buffer.from(`${server.otherWriteKey}:`).toString('base64')}`, 'content-type': 'application/json' },
              body: batchBody(100),
              // Each request's events stamped as it is sent, from 20,000 visitors (events.ts): the identity worker writes visits as on a site.
              requests: [{ setupRequest: liveRequests(100) }],
              connections: 8,
              overallRate: rate / 100,
              duration: 3600,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          )
          stopLoad = () => instance.stop()
        })
      : undefined
  const loadStarted = performance.now()
  if (load) await new Promise((r) => setTimeout(r, 5000)) // the writer's batches, the workers' and the inserts' rhythm settled

  for (let i = 0; i < Number(values.warmup); i++) for (const c of CASES) await ask(c)
  server.takeMaxLag() // the lag of the start and the warm-up is not the steady state's
  const times = new Map<string, number[]>(CASES.map((c) => [c.name, []]))
  const last = new Map<string, string>()
  const pace = Number(values.pace)
  for (let i = 0; i < Number(values.runs); i++) {
    for (const c of CASES) {
      const started = performance.now()
      const r = await ask(c)
      times.get(c.name)!.push(r.ms)
      last.set(c.name, r.text)
      const rest = pace - (performance.now() - started)
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest))
    }
  }
  stopLoad()
  const maxLag = server.takeMaxLag()
  const lagAtEnd = server.lag()
  const ingest = load ? await load : undefined
  const seconds = (performance.now() - loadStarted) / 1000
  for (const c of CASES) {
    const t = times.get(c.name)!.sort((a, b) => a - b)
    const p95 = quantile(t, 0.95)
    console.log(
      `${c.name}: median ${quantile(t, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${t.at(-1)!.toFixed(0)} ms ` +
        (CASES === CHARTS ? `(goal p95 ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? 'met' : 'not met'}); ` : '') +
        `answer ${last.get(c.name)!.slice(0, 120)}…`,
    )
  }
  if (ingest) {
    const events = ingest.requests.total * 100
    console.log(
      `ingest meanwhile: ${Math.round(events / seconds).toLocaleString('en')} events/s over ${seconds.toFixed(0)} s (asked ${rate.toLocaleString('en')}), ` +
        `p99 ${ingest.latency.p99} ms, ${ingest.non2xx} non-2xx, ${ingest.errors} errors; ` +
        `consumers at most ${maxLag.toLocaleString('en')} events behind, at the end ${JSON.stringify(lagAtEnd)}`,
    )
  }
  console.log(`server peak RSS ${server.peakRssMb().toFixed(0)} MB; load average at the end ${loadLine()}`)
} finally {
  await server.stop()
}
