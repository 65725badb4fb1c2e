/**
 * AI scoring on demo data (issue 10): does a model find the demo's planted
 * rule, how well does it predict, and how long does it take?
 *
 *   npx tsx bench/src/scoring.ts                       # the demo's default size: 300 companies, 3,000 people, 90 days
 *   npx tsx bench/src/scoring.ts --people 30000 --companies 3000
 *   npx tsx bench/src/scoring.ts --synthetic 300000    # scale: 300,000 users of made-up events, no demo
 *   npx tsx bench/src/scoring.ts --rate 0.6 --base-rate 0.05   # a weaker planted rule
 *
 * The demo's traffic is turned into stored rows by the ingest's own
 * normalizeCall (the rows /v1/batch would store) and inserted into chDB; a
 * metric "Plan Upgraded" (unique users) is saved in PGlite; a model of the
 * last 30 days is created as the api creates it and trained by the scoring
 * runner, as the workers role trains it. The planted rule
 * (demo/src/generator/product.ts DEFAULT_RULE): people who do both
 * 'Integration Connected' and 'Invite Sent' emit 'Plan Upgraded' with
 * probability 0.9, everyone else 0.03 (--rate and --base-rate change them).
 *
 * Printed: the held-out accuracy against the majority class, AUC, balanced
 * accuracy, the Correlation table's top events, the backtest, training time,
 * the event loop's longest stall while training, and peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { normalizeCall } from '@fl0/ingest'
import { createDemo, DEFAULT_RULE } from '@fl0/demo'
import { chTime, type ActivityEvent, type IngestedEvent } from '@fl0/contracts'
import {
  createMetric,
  createOrganisation,
  createScoringModel,
  findScoringModel,
  findScoringResults,
  listScoredUsers,
  migrateEvents,
  migrateMetadata,
  openEventStore,
  openPglite,
  type EventStore,
} from '@fl0/stores'
import { createScoringRunner, type StoredBacktest, type StoredSummary } from '@fl0/workers'

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '3000' },
    companies: { type: 'string', default: '300' },
    days: { type: 'string', default: '90' },
    seed: { type: 'string', default: '42' },
    rate: { type: 'string' },
    'base-rate': { type: 'string' },
    synthetic: { type: 'string' },
    end: { type: 'string', default: '2026-11-22T12:00:00.000Z' },
  },
})
const now = new Date(values.end)
/** The planted rule, the demo's unless --rate / --base-rate say otherwise. */
const rule = { ...DEFAULT_RULE, rate: Number(values.rate ?? DEFAULT_RULE.rate), baseRate: Number(values['base-rate'] ?? DEFAULT_RULE.baseRate) }
const BLOCK = 50_000
const log = (line: string) => process.stderr.write(`${line}\n`)

async function insertAll(store: EventStore, rows: Iterable<IngestedEvent>): Promise<number> {
  let block: IngestedEvent[] = []
  let total = 0
  let inFlight: Promise<unknown> = Promise.resolve()
  const flush = async () => {
    const values = block
    block = []
    await inFlight
    if (values.length) inFlight = store.client.insert({ table: 'events', values, format: 'JSONEachRow' })
    total += values.length
  }
  for (const row of rows) {
    block.push(row)
    if (block.length >= BLOCK) await flush()
  }
  await flush()
  await inFlight
  return total
}

function* demoRows(orgId: string): Generator<IngestedEvent> {
  const demo = createDemo({ seed: Number(values.seed), people: Number(values.people), companies: Number(values.companies), days: Number(values.days), now, rule })
  for (const { source, message } of demo.messages()) {
    const normalized = normalizeCall(message.type, message, { orgId, sourceId: source, receivedAt: new Date(message.timestamp), ip: String(message.context.ip ?? '') })
    if (!normalized.ok) throw new Error(`the ingest refused a demo call: ${JSON.stringify(normalized.errors)}`)
    yield normalized.event
  }
}

/**
 * The scale run: `users` users over 90 days, each with a handful of everyday
 * events and, for some, the two habit events; the same planted rule decides
 * who upgrades, once, in the last 60 days.
 */
function* syntheticRows(orgId: string, users: number): Generator<IngestedEvent> {
  let s = 7
  const random = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), s / 4294967296)
  const at = (daysAgo: number) => chTime(new Date(now.getTime() - daysAgo * 86_400_000 - random() * 3_600_000))
  const row = (user: string, event: string, daysAgo: number, properties: Record<string, unknown> = {}): IngestedEvent => ({
    org_id: orgId, message_id: `${user}-${event}-${daysAgo}-${Math.floor(random() * 1e9)}`, source_id: 'bench', type: 'track', event, name: '', user_id: user, anonymous_id: '', group_id: '', previous_id: '',
    timestamp: at(daysAgo), original_timestamp: null, sent_at: null, received_at: at(daysAgo), ip: '', user_agent: '', page_url: '', page_path: '', page_referrer: '', page_title: '', page_search: '',
    properties, traits: {}, context: {}, integrations: '{}',
  })
  for (let u = 0; u < users; u++) {
    const user = `u${u}`
    const sessions = 2 + Math.floor(random() * 6)
    for (let k = 0; k < sessions; k++) {
      const d = Math.floor(random() * 90)
      yield row(user, 'Logged In', d)
      yield row(user, random() < 0.6 ? 'Dashboard Viewed' : 'Report Created', d, { kind: random() < 0.5 ? 'a' : 'b' })
    }
    const integration = random() < 0.5 ? 30 + Math.floor(random() * 60) : -1
    const invite = random() < 0.5 ? 30 + Math.floor(random() * 60) : -1
    if (integration >= 0) yield row(user, 'Integration Connected', integration, { integration: random() < 0.5 ? 'Slack' : 'HubSpot' })
    if (invite >= 0) yield row(user, 'Invite Sent', invite)
    const both = integration >= 0 && invite >= 0
    if (random() < (both ? rule.rate : rule.baseRate)) {
      const latest = both ? Math.min(integration, invite) : 60
      yield row(user, 'Plan Upgraded', Math.floor(random() * latest))
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fl0-bench-scoring-'))
const events = await openEventStore({ kind: 'chdb', path: dir, database: 'fl0_bench' })
const sql = await openPglite()
try {
  await migrateEvents(events)
  await migrateMetadata(sql)
  const org = await createOrganisation(sql, 'Bench')
  const loadStarted = performance.now()
  const stored = await insertAll(events, values.synthetic ? syntheticRows(org.id, Number(values.synthetic)) : demoRows(org.id))
  log(`loaded ${stored.toLocaleString('en')} events in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`)
  const metric = await createMetric(sql, { orgId: org.id, name: 'Upgrades', description: '', category: 'revenue', definition: { events: [{ name: 'Plan Upgraded' }] } })
  const model = await createScoringModel(sql, {
    orgId: org.id,
    name: 'Who upgrades',
    metricId: metric.id,
    dateRange: 'last30Days',
    excludedAudience: { filters: [], aggregate: 'and', audienceType: 'user' },
    featureSelections: { excludedEvents: [], includedProperties: [] },
  })
  const runner = createScoringRunner({ sql, events, logger: { info() {}, warn: (o, m) => log(`${m} ${JSON.stringify(o)}`), error: (o, m) => log(`${m} ${String((o as { err?: unknown }).err)}`) }, now: () => now })
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100)
  const started = performance.now()
  const outcome = await runner.runOnce()
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  loop.disable()
  const row = await findScoringModel(sql, org.id, model.id)
  if (outcome !== 'completed') throw new Error(`training ${outcome}: ${row?.error}`)
  const results = (await findScoringResults(sql, org.id, model.id))!
  const s = results.summary as StoredSummary
  const activity = results.activity as ActivityEvent[]
  const b = results.backtest as StoredBacktest
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`
  const [top] = (await listScoredUsers(sql, model.id, { search: '', offset: 0, limit: 1 })).users
  const topHundred = b.available ? b.predictions.slice(0, 100) : []
  console.log(
    JSON.stringify(
      {
        data: values.synthetic ? { synthetic: Number(values.synthetic) } : { people: Number(values.people), companies: Number(values.companies), days: Number(values.days), seed: Number(values.seed) },
        rule,
        events: stored,
        window: { from: s.fromTime, to: s.toTime },
        trainingUsers: s.trainingDataSize,
        heldOutUsers: s.heldOutSize,
        scoredUsers: s.audienceSize,
        factors: s.totalFactors,
        positiveRate: pct(s.positiveRate),
        heldOut: { accuracy: pct(s.accuracy), majorityBaseline: pct(s.baselineAccuracy), balancedAccuracy: pct(s.balancedAccuracy), auc: s.auc.toFixed(3) },
        lambda: s.lambda,
        iterations: s.iterations,
        converged: s.converged,
        // The five most important, and the least: how far the model sets the planted events apart.
        topEvents: [...activity.slice(0, 5), ...activity.slice(5).slice(-1)].map((e) => `${e.number}. ${e.name} ${e.importance} (${e.rating})`),
        highestScore: top ? Number(top.score.toFixed(3)) : null,
        backtest: b.available
          ? {
              users: b.users,
              accuracy: pct(b.accuracy),
              majorityBaseline: pct(b.baselineAccuracy),
              auc: b.auc.toFixed(3),
              positiveRate: pct(b.positiveRate),
              top100Reached: pct(topHundred.filter((p) => p.reached).length / Math.max(1, topHundred.length)),
            }
          : b.reason,
        trainingSeconds: Number(seconds.toFixed(1)),
        eventLoopMaxStallMs: Math.round(loop.max / 1e6),
        eventLoopP99Ms: Math.round(loop.percentile(99) / 1e6),
        peakRssMB: Math.round(peakRss / 2 ** 20),
      },
      null,
      2,
    ),
  )
} finally {
  await events.close()
  await sql.close()
  rmSync(dir, { recursive: true, force: true })
}
