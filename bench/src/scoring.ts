/**
 * AI scoring on planted data (issues 10, 21): does a model find the planted
 * rule, how well does it predict, do its ratings meet the bar of a good
 * lead-scoring model (contracts' RATING_BAR), and how long does it take?
 *
 *   npx tsx bench/src/scoring.ts                       # the demo's default size: 300 companies, 3,000 people, 90 days
 *   npx tsx bench/src/scoring.ts --people 30000 --companies 3000
 *   npx tsx bench/src/scoring.ts --synthetic 300000    # scale: 300,000 users of made-up events, no demo (= --data synthetic --users 300000)
 *   npx tsx bench/src/scoring.ts --rate 0.6 --base-rate 0.05   # a weaker planted rule
 *   npx tsx bench/src/scoring.ts --data second         # a second product, its own rule and leaks: 5,000 users, 120 days
 *   npx tsx bench/src/scoring.ts --data second --users 50000 --seed 7
 *
 * --data second is bench/src/scoring-data/second.ts: a project-management
 * product written apart from the demo, whose metric "Subscription Started"
 * (unique users) is planted to rise with how many automations a user creates
 * and with a synced calendar, and which has events that come only with or
 * after a subscription ('Receipt Emailed', 'Billing Page Viewed After
 * Purchase') and repeat subscriptions (seat adds): leaks a trainer must not
 * learn from.
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
 * the event loop's longest stall while training, and peak RSS; where the
 * trainer stores them, the ratings' quality on held-out users and on the
 * backtest against RATING_BAR, and the events it left out as leaks; where the
 * planted and the leaky events rank in the Correlation table; the machine's
 * load average at the start and the end (figures from a loaded machine are
 * slower than they should be).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { normalizeCall } from '@fl0/ingest'
import { createDemo, DEFAULT_RULE } from '@fl0/demo'
import * as contracts from '@fl0/contracts'
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
import { SECOND_EVENTS, SECOND_RULE, secondRows, type SecondStats } from './scoring-data/second.ts'

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    /** The event whose unique users are the metric, instead of the data set's conversion (e.g. 'Integration Connected' on the demo). */
    metric: { type: 'string' },
    people: { type: 'string', default: '3000' },
    companies: { type: 'string', default: '300' },
    users: { type: 'string' },
    days: { type: 'string' },
    seed: { type: 'string', default: '42' },
    rate: { type: 'string' },
    'base-rate': { type: 'string' },
    synthetic: { type: 'string' },
    end: { type: 'string', default: '2026-11-22T12:00:00.000Z' },
  },
})
const DATA = ['demo', 'second', 'synthetic'] as const
type Data = (typeof DATA)[number]
const data = (values.data ?? (values.synthetic ? 'synthetic' : 'demo')) as Data
if (!DATA.includes(data)) throw new Error(`--data must be one of ${DATA.join(', ')}`)
const days = Number(values.days ?? (data === 'second' ? 120 : 90))
const users = Number(values.users ?? values.synthetic ?? (data === 'second' ? 5000 : 300_000))
const now = new Date(values.end)
const loadAtStart = loadavg()
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
  const demo = createDemo({ seed: Number(values.seed), people: Number(values.people), companies: Number(values.companies), days, now, rule })
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

/** What each data set's model predicts, and the events to look for in its Correlation table. */
const plan: Record<Data, { metric: string; planted: readonly string[]; leaky: readonly string[] }> = {
  demo: { metric: rule.conversion, planted: rule.given, leaky: [] },
  synthetic: { metric: 'Plan Upgraded', planted: ['Integration Connected', 'Invite Sent'], leaky: [] },
  second: { metric: SECOND_EVENTS.metric, planted: SECOND_EVENTS.planted, leaky: SECOND_EVENTS.leaky },
}
const metricName = values.metric ?? plan[data].metric
const secondStats = {} as SecondStats

/**
 * The trainer of issue 21 stores the ratings' quality (summary.quality on
 * held-out users, backtest.quality on the backtest's), the leaks it left out
 * (summary.leaks, each Correlation row's leak), and contracts has
 * ratingQualityText; an earlier trainer has none of these. Read as optional,
 * so the bench runs on either.
 */
interface Quality {
  users: number
  reached: number
  averageRate: number
  ratings: Array<{ name: string; users: number; share: number; reached: number; rate: number; lift: number }>
  topShare: number
  capture: number
  excellentVsPoor: number | null
  verdict: string
}
const qualityText = (contracts as unknown as { ratingQualityText?: (q: Quality, on: string) => string }).ratingQualityText
const ratingBar = (contracts as { RATING_BAR?: unknown }).RATING_BAR

function quality(q: Quality | undefined, on: string) {
  if (!q) return 'not stored by this trainer'
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`
  return {
    users: q.users,
    reached: q.reached,
    averageRate: pct(q.averageRate),
    ratings: Object.fromEntries(
      [...q.ratings].reverse().map((r) => [r.name, `${r.users.toLocaleString('en')} users (${pct(r.share)}), ${r.reached} reached, rate ${pct(r.rate)}, lift ${r.lift.toFixed(2)}×`]),
    ),
    topShare: pct(q.topShare),
    capture: pct(q.capture),
    excellentVsPoor: q.excellentVsPoor === null ? null : Number(q.excellentVsPoor.toFixed(1)),
    verdict: q.verdict,
    text: qualityText?.(q, on) ?? null,
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
  const rows =
    data === 'synthetic' ? syntheticRows(org.id, users) : data === 'second' ? secondRows({ orgId: org.id, now, users, days, seed: Number(values.seed), stats: secondStats }) : demoRows(org.id)
  const stored = await insertAll(events, rows)
  log(`loaded ${stored.toLocaleString('en')} events in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`)
  const metric = await createMetric(sql, { orgId: org.id, name: metricName, description: '', category: 'revenue', definition: { events: [{ name: metricName }] } })
  const model = await createScoringModel(sql, {
    orgId: org.id,
    name: `Who reaches ${metricName}`.slice(0, 50),
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
  const topScored = (await listScoredUsers(sql, model.id, { search: '', offset: 0, limit: 100 })).users
  const [top] = topScored
  // The leak a user sees in Model output: how many of the highest-scored users have already done the metric's event (up to now), against all scored users.
  const alreadyReached = async (ids: string[] | null) => {
    const r = await events.client.query({
      query: `SELECT count(DISTINCT user_id) AS n FROM events WHERE org_id = {org:String} AND type = 'track' AND event = {metric:String} AND user_id != ''${ids ? ' AND user_id IN {ids:Array(String)}' : ''}`,
      query_params: { org: org.id, metric: metricName, ids: ids ?? [] },
      format: 'JSONEachRow',
    })
    return Number((await r.json<{ n: string }>())[0]?.n ?? 0)
  }
  const topAlready = await alreadyReached(topScored.map((u) => u.user_id))
  const allAlready = await alreadyReached(null)
  const topHundred = b.available ? b.predictions.slice(0, 100) : []
  const leakOf = (e: ActivityEvent) => (e as { leak?: string | null }).leak ?? null
  const rank = (name: string) => {
    const e = activity.find((a) => a.name === name)
    if (!e) return `${name}: not in the Correlation table`
    const leak = leakOf(e)
    return `${name}: #${e.number} of ${activity.length}, importance ${e.importance} (${e.rating})${e.inModel ? '' : ', not in model'}${leak ? `, left out as a leak (${leak})` : ''}`
  }
  console.log(
    JSON.stringify(
      {
        data:
          data === 'synthetic'
            ? { synthetic: users }
            : data === 'second'
              ? { second: { users, days, seed: Number(values.seed) }, planted: secondStats }
              : { people: Number(values.people), companies: Number(values.companies), days, seed: Number(values.seed) },
        rule: data === 'second' ? SECOND_RULE : rule,
        metric: metricName,
        loadAverageAtStart: loadAtStart.map((x) => Number(x.toFixed(2))),
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
        // Where the planted events, the leaky ones and the metric's own event rank (1 = most important).
        ranks: {
          planted: plan[data].planted.map(rank),
          leaky: plan[data].leaky.map(rank),
          metric: rank(metricName),
        },
        leaks: (s as { leaks?: unknown }).leaks ?? 'not stored by this trainer',
        ratingBar,
        ratingsHeldOut: quality((s as { quality?: Quality }).quality, 'held-out users'),
        highestScore: top ? Number(top.score.toFixed(3)) : null,
        top100ScoredAlreadyReached: `${topAlready} of the ${topScored.length} highest-scored users have done '${metricName}' (${allAlready.toLocaleString('en')} users of the data have; ${s.audienceSize.toLocaleString('en')} users scored)`,
        backtest: b.available
          ? {
              users: b.users,
              accuracy: pct(b.accuracy),
              majorityBaseline: pct(b.baselineAccuracy),
              auc: b.auc.toFixed(3),
              positiveRate: pct(b.positiveRate),
              top100Reached: pct(topHundred.filter((p) => p.reached).length / Math.max(1, topHundred.length)),
              ratings: quality((b as { quality?: Quality }).quality, 'backtest users'),
            }
          : b.reason,
        trainingSeconds: Number(seconds.toFixed(1)),
        eventLoopMaxStallMs: Math.round(loop.max / 1e6),
        eventLoopP99Ms: Math.round(loop.percentile(99) / 1e6),
        peakRssMB: Math.round(peakRss / 2 ** 20),
        loadAverageAtEnd: loadavg().map((x) => Number(x.toFixed(2))),
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
