import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PNG } from 'pngjs'
import { createMetric, findOrganisationByUrlCode, type MetricRow } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { failingOnce } from '@fl0/stores/metadata/testing'
import type {
  ActivityEvents,
  BacktestPredictions,
  Correlation,
  IngestedEvent,
  ModelOutput,
  ScoringMetric,
  ScoringModelDetail,
  ScoringModelList,
  ScoringCheck,
  ScoringModelRatings,
  ScoringSettings,
} from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'
import { createScoringRunner, seededRandom, type ScoringRunner } from '@fl0/workers'

/**
 * Scoring end to end on PGlite and chDB: models created, trained by the
 * runner and read through every call of part 3 §7, on a data set with a
 * planted rule (users who connect an integration and send an invite upgrade
 * far more often), failing runs, the excluded audience, rebuilds with new
 * selections, and organisations kept apart.
 *
 * Now is 2026-03-02 09:00 UTC. A model of the last 30 days labels users by
 * 2026-02-01 … 2026-03-02 and learns from the year before (to 2026-01-31);
 * its backtest learns from the year to 2026-01-01 who upgraded in January.
 */
const NOW = new Date('2026-03-02T09:00:00.000Z')
const USERS = 1000
const day = (iso: string, hour = 10) => new Date(`${iso}T${String(hour).padStart(2, '0')}:00:00.000Z`)

/**
 * The ground truth, drawn from a seed. Each user may take up connecting
 * integrations and sending invites, each from some period on (then in every
 * period after). Having both for the first time makes them upgrade in the
 * next period with probability 0.9; anyone else upgrades with 0.03 a period.
 * An upgrade happens once, as in the demo's lifecycle. `ready` marks the users
 * the model should put on top now: both habits in the last period, never
 * upgraded.
 */
function plantedEvents(orgId: string) {
  const random = seededRandom(99)
  const rows: IngestedEvent[] = []
  const truth = new Map<string, { ready: boolean; upgraded: string | null }>()
  const track = (user: string, event: string, at: Date, properties: Record<string, unknown> = {}) => rows.push(eventRow({ org_id: orgId, user_id: user, event, timestamp: at, properties }))
  // Each period: its feature days, then the day of the upgrades it leads to.
  const periods = [
    { features: ['2025-12-05', '2025-12-20'], label: '2026-01-15' },
    { features: ['2026-01-05', '2026-01-20'], label: '2026-02-15' },
    { features: ['2026-02-05', '2026-02-20'], label: null },
  ]
  const startOf = () => (random() < 0.6 ? Math.floor(random() * 3) : Infinity)
  for (let i = 0; i < USERS; i++) {
    const user = `user-${String(i).padStart(3, '0')}`
    const integrationFrom = startOf()
    const inviteFrom = startOf()
    let upgraded: string | null = null
    rows.push(eventRow({ org_id: orgId, type: 'identify', user_id: user, timestamp: day('2025-12-01'), traits: { name: `Person ${i}`, plan: i < 20 ? 'internal' : 'customer' } }))
    periods.forEach((period, k) => {
      for (const d of period.features) {
        track(user, 'Logged In', day(d))
        if (random() < 0.5) track(user, 'Dashboard Viewed', day(d, 11), { dashboard: random() < 0.5 ? 'Revenue' : 'Usage' })
      }
      if (k >= integrationFrom) track(user, 'Integration Connected', day(period.features[0]!, 12), { integration: random() < 0.5 ? 'Slack' : 'HubSpot' })
      if (k >= inviteFrom) track(user, 'Invite Sent', day(period.features[1]!, 12))
      const bothFirst = k === Math.max(integrationFrom, inviteFrom)
      if (period.label && !upgraded && random() < (bothFirst ? 0.9 : 0.03)) {
        track(user, 'Plan Upgraded', day(period.label))
        upgraded = period.label
      }
    })
    truth.set(user, { ready: Math.max(integrationFrom, inviteFrom) <= 2 && !upgraded, upgraded })
  }
  return { rows, truth }
}

let t: TestApi
let cookie: string
let stranger: string
let orgId: string
let upgrades: MetricRow
let runner: ScoringRunner
const base = '/api-v2/orgs/acme/scoring'
/**
 * A model predicts who reaches the metric anew: who upgraded in the year
 * before the date range is not learned from, who upgraded in the year to now
 * is not scored.
 */
const { truth: planted } = plantedEvents('')
const upgradedBy = (iso: string) => [...planted.values()].filter((u) => u.upgraded !== null && u.upgraded <= iso).length
const LEARNED_FROM = USERS - upgradedBy('2026-01-31')
const SCORED = USERS - upgradedBy('2026-03-02')

beforeAll(async () => {
  t = await createTestApi()
  t.clock.now = NOW
  ;({ cookie } = await t.signUp('Ada'))
  await t.createOrg(cookie, 'Acme')
  await t.createOrg(cookie, 'Empty Co')
  ;({ cookie: stranger } = await t.signUp('Eve'))
  await t.createOrg(stranger, 'Elsewhere')
  orgId = (await findOrganisationByUrlCode(t.sql, 'acme'))!.id
  await insertEvents(t.events, plantedEvents(orgId).rows)
  upgrades = await createMetric(t.sql, { orgId, name: 'Upgrades', description: '', category: 'revenue', definition: { events: [{ name: 'Plan Upgraded' }] } })
  runner = createScoringRunner({ sql: t.sql, events: t.events, logger: { info() {}, warn() {}, error() {} }, now: () => t.clock.now })
}, 60_000)
afterAll(() => t?.close())

const json = async <T>(res: Response) => (await res.json()) as T
const get = async <T>(path: string, as = cookie) => {
  const res = await t.call('GET', path, { cookie: as })
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200)
  return json<T>(res)
}
async function createModel(body: Record<string, unknown>, org = 'acme') {
  const res = await t.call('POST', `/api-v2/orgs/${org}/scoring/scoring-models/create-new-model`, { cookie, body })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await json<{ analysisId: string }>(res)).analysisId
}
const decode = async (res: Response) => {
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/png')
  return PNG.sync.read(Buffer.from(await res.arrayBuffer()))
}

describe('a model trained on the planted rule', () => {
  let id: string

  it('is created pending, from the run modal, and offered metrics say whether they can label users', async () => {
    await createMetric(t.sql, { orgId, name: 'Nothing', description: '', category: 'other', definition: {} })
    expect(await get<ScoringMetric[]>(`${base}/scoring-models/metrics`)).toEqual([
      { metricId: expect.any(String), name: 'Nothing', isEnabled: false },
      { metricId: upgrades.id, name: 'Upgrades', isEnabled: true },
    ])
    id = await createModel({ name: 'Who upgrades', metricId: upgrades.id, dateRange: 'last30Days' })
    const list = await get<ScoringModelList>(`${base}/scoring-models`)
    expect(list.scoringModels).toEqual([
      { analysisId: id, name: 'Who upgrades', status: 'pending', totalUsers: 0, ratings: expect.any(Array), metricName: 'Upgrades', error: null, createdAt: expect.any(String), verdict: null },
    ])
    expect(await get<ScoringModelDetail>(`${base}/scoring-model/${id}`)).toMatchObject({
      name: 'Who upgrades',
      metricName: 'Upgrades',
      status: 'pending',
      featureSelections: { excludedEvents: [], includedProperties: [] },
      trainedAt: null,
      scoredAt: null,
      refresh: 'daily',
    })
    const early = await t.call('GET', `${base}/scoring-model/${id}/correlation`, { cookie })
    expect([early.status, (await json<{ message: string }>(early)).message]).toEqual([404, 'This scoring model has no results yet'])
  })

  it('trains to completion in the runner, off the request path', async () => {
    const started = performance.now()
    expect(await runner.runOnce()).toBe('completed')
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(await runner.runOnce()).toBe('idle')
    const ratings = await get<ScoringModelRatings>(`${base}/scoring-models/${id}`)
    expect(ratings.status).toBe('completed')
    expect(ratings.totalUsers).toBe(SCORED)
    expect(ratings.ratings.map((r) => r.name)).toEqual(['poor', 'fair', 'good', 'excellent'])
    expect(ratings.ratings.reduce((n, r) => n + r.count, 0)).toBe(SCORED)
    // Ratings by rank: about a tenth excellent, a fifth good (ties fall below, so never more).
    const share = (name: string) => ratings.ratings.find((r) => r.name === name)!.count / SCORED
    expect(share('excellent')).toBeLessThanOrEqual(0.12)
    expect(share('excellent') + share('good')).toBeLessThanOrEqual(0.35)
  })

  it('beats the majority class on held-out users and ranks the planted events first', async () => {
    const c = await get<Correlation>(`${base}/scoring-model/${id}/correlation`)
    expect(c).toMatchObject({ fromTime: '2026-02-01T00:00:00.000Z', toTime: '2026-03-02T09:00:00.000Z', audienceSize: SCORED, trainingDataSize: Math.round(LEARNED_FROM * 0.8) })
    expect(c.trainingDataSize + c.heldOutSize).toBe(LEARNED_FROM)
    expect(c.accuracy).toBeGreaterThanOrEqual(c.baselineAccuracy + 0.01)
    expect(c.auc).toBeGreaterThan(0.8)
    expect(c.balancedAccuracy).toBeGreaterThan(0.7)
    // Events: Logged In, Dashboard Viewed, Integration Connected, Invite Sent; Plan Upgraded is the metric's own.
    expect(c.totalFactors).toBe(4)
    expect(c.leaks).toEqual([{ event: 'Plan Upgraded', leak: 'metric' }])
    // Judged on the held-out users: the planted rule is strong enough for the bar.
    expect(c.quality.users).toBe(c.heldOutSize)
    expect(c.quality.verdict).toBe('met')
    expect(c.quality.topShare).toBeLessThanOrEqual(0.35)
    expect(c.quality.capture).toBeGreaterThanOrEqual(0.6)
    const excellent = c.quality.ratings.find((r) => r.name === 'excellent')!
    expect(excellent.lift).toBeGreaterThan(2)
    expect(c.thresholds.excellent).toBeGreaterThan(c.thresholds.good)
    const activity = await get<ActivityEvents>(`${base}/scoring-model/${id}/correlation/activity/events`)
    expect(activity.totalEvents).toBe(5)
    expect(activity.events.slice(0, 2).map((e) => e.name).sort()).toEqual(['Integration Connected', 'Invite Sent'])
    expect(activity.events.map((e) => e.number)).toEqual([1, 2, 3, 4, 5])
    expect(activity.events[0]!.rating).toBe('excellent')
    expect(activity.events[4]).toMatchObject({ name: 'Plan Upgraded', inModel: false, leak: 'metric', importance: 0 })
    expect(c.ratings.reduce((n, r) => n + r.count, 0)).toBe(4)
    const searched = await get<ActivityEvents>(`${base}/scoring-model/${id}/correlation/activity/events?search=invite&page=1`)
    expect(searched.events.map((e) => e.name)).toEqual(['Invite Sent'])
    expect((await get<ActivityEvents>(`${base}/scoring-model/${id}/correlation/activity/events?page=2`)).events).toEqual([])
  })

  it('scores every user, ranked, paged and searchable, the planted users on top', async () => {
    const { truth } = plantedEvents(orgId)
    const first = await get<ModelOutput>(`${base}/scoring-model/${id}/model-output`)
    expect(first.totalUsers).toBe(SCORED)
    expect(first.images).toEqual(['factors.png', 'score.png'])
    expect(first.users).toHaveLength(20)
    expect(first.users.map((u) => u.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    // A linear model cannot say "both" exactly, but the users ready to upgrade fill the top.
    expect(first.users.filter((u) => truth.get(u.userId)!.ready).length).toBeGreaterThanOrEqual(16)
    // Who upgraded already is not a lead for upgrading.
    expect(first.users.filter((u) => truth.get(u.userId)!.upgraded !== null)).toEqual([])
    for (const u of first.users) expect(u.name).toBe(`Person ${Number(u.userId.slice(5))}`)
    const scores = first.users.map((u) => u.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(first.users[0]!.score).toBeGreaterThan(0.4)
    const page3 = await get<ModelOutput>(`${base}/scoring-model/${id}/model-output?page=3`)
    expect(page3.users[0]!.number).toBe(41)
    const found = await get<ModelOutput>(`${base}/scoring-model/${id}/model-output?search=person%2012`)
    const notUpgraded = [12, ...Array.from({ length: 10 }, (_, i) => 120 + i)].filter((i) => truth.get(`user-${String(i).padStart(3, '0')}`)!.upgraded === null)
    expect(found.users.map((u) => u.name).sort()).toEqual(notUpgraded.map((i) => `Person ${i}`).sort())
    expect(found.totalUsers).toBe(notUpgraded.length)
    const bad = await t.call('GET', `${base}/scoring-model/${id}/model-output?page=0`, { cookie })
    expect([bad.status, (await json<{ message: string }>(bad)).message]).toEqual([400, 'Page must be a whole number from 1'])
  })

  it("draws each user's images as PNG: the factors for and against, the score among all", async () => {
    const top = (await get<ModelOutput>(`${base}/scoring-model/${id}/model-output`)).users[0]!
    expect(await get(`${base}/scoring-model/${id}/model-output/${top.userId}/images`)).toEqual({ images: ['factors.png', 'score.png'] })
    const factors = await decode(await t.call('GET', `${base}/scoring-model/${id}/model-output/${top.userId}/images/factors.png`, { cookie }))
    expect(factors.width).toBe(720)
    expect(factors.height).toBeGreaterThan(120)
    // Green bars (towards the metric) are drawn for the top user.
    let green = 0
    for (let i = 0; i < factors.data.length; i += 4) if (factors.data[i] === 0x16 && factors.data[i + 1] === 0xa3 && factors.data[i + 2] === 0x4a) green++
    expect(green).toBeGreaterThan(100)
    const score = await decode(await t.call('GET', `${base}/scoring-model/${id}/model-output/${top.userId}/images/score.png`, { cookie }))
    expect([score.width, score.height]).toEqual([720, 260])
    const missing = await t.call('GET', `${base}/scoring-model/${id}/model-output/${top.userId}/images/other.png`, { cookie })
    expect([missing.status, (await json<{ message: string }>(missing)).message]).toEqual([404, 'Image not found'])
    const nobody = await t.call('GET', `${base}/scoring-model/${id}/model-output/nobody/images`, { cookie })
    expect([nobody.status, (await json<{ message: string }>(nobody)).message]).toEqual([404, 'This user has no score in this model'])
  })

  it('backtests on the period before: predictions JSON and a prediction-accuracy image', async () => {
    const b = await get<BacktestPredictions>(`${base}/scoring-model/${id}/backtest-predictions`)
    expect(b.trainedOn).toEqual({ fromTime: '2025-01-02T00:00:00.000Z', toTime: '2026-01-31T23:59:59.999Z' })
    expect(b.predicted).toEqual({ fromTime: '2026-02-01T00:00:00.000Z', toTime: '2026-03-02T09:00:00.000Z' })
    expect(b.users).toBe(LEARNED_FROM)
    expect(b.auc).toBeGreaterThan(0.75)
    // The users it put on top really reached the metric far more often than users at large.
    const topReached = b.predictions.slice(0, 100).filter((p) => p.reached).length / 100
    expect(topReached).toBeGreaterThan(2 * b.positiveRate)
    expect(b.buckets).toHaveLength(10)
    expect(b.buckets.reduce((n, x) => n + x.users, 0)).toBe(LEARNED_FROM)
    expect(b.predictions).toHaveLength(LEARNED_FROM)
    expect(b.quality.users).toBe(LEARNED_FROM)
    // Its top tenth reached the metric well above the average rate (a model a period older, so less sharp than the held-out's).
    expect(b.quality.ratings.find((r) => r.name === 'excellent')!.lift).toBeGreaterThan(1.5)
    expect(b.predictions.map((p) => p.score)).toEqual(b.predictions.map((p) => p.score).sort((x, y) => y - x))
    expect(b.predictions[0]).toEqual({ userId: expect.any(String), score: expect.any(Number), predicted: expect.any(Boolean), reached: expect.any(Boolean) })
    const image = await decode(await t.call('GET', `${base}/scoring-model/${id}/backtest-image`, { cookie }))
    expect([image.width, image.height]).toEqual([720, 360])
  })

  it("rebuilds with new selections: an event out, a property's values in", async () => {
    const res = await t.call('POST', `${base}/scoring-model/${id}/rebuild-model`, {
      cookie,
      body: { featureSelections: { excludedEvents: ['Invite Sent'], includedProperties: [{ event: 'Integration Connected', property: 'integration' }] } },
    })
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual({ analysisId: id, status: 'pending' })
    expect(await runner.runOnce()).toBe('completed')
    const detail = await get<ScoringModelDetail>(`${base}/scoring-model/${id}`)
    expect(detail.featureSelections).toEqual({ excludedEvents: ['Invite Sent'], includedProperties: [{ event: 'Integration Connected', property: 'integration' }] })
    const activity = await get<ActivityEvents>(`${base}/scoring-model/${id}/correlation/activity/events`)
    const integration = activity.events.find((e) => e.name === 'Integration Connected')!
    expect(integration.number).toBe(1)
    expect(integration.properties).toEqual([
      { name: 'integration', inModel: true, importance: expect.any(Number), rating: expect.any(String), values: expect.arrayContaining([expect.objectContaining({ name: 'Slack' }), expect.objectContaining({ name: 'HubSpot' })]) },
    ])
    expect(activity.events.at(-1)).toEqual({ name: 'Invite Sent', number: 5, importance: 0, rating: 'poor', inModel: false, properties: [], leak: null })
    // Three events and the two values.
    expect((await get<Correlation>(`${base}/scoring-model/${id}/correlation`)).totalFactors).toBe(5)
  })

  it('saves settings: a new name keeps the results, a new date range trains again', async () => {
    const keep = await t.call('POST', `${base}/scoring-model/${id}/settings/saveSettings`, { cookie, body: { name: 'Upgrade model', metricId: upgrades.id, dateRange: 'last30Days' } })
    expect(await json(keep)).toEqual({ analysisId: id, status: 'completed' })
    const settings = await get<ScoringSettings>(`${base}/scoring-model/${id}/settings`)
    expect(settings).toEqual({
      name: 'Upgrade model',
      metric: { metricId: upgrades.id, name: 'Upgrades' },
      dateRange: 'last30Days',
      excludedAudience: { filters: [], aggregate: 'and', audienceType: 'user' },
      refresh: 'daily',
      metrics: expect.arrayContaining([{ metricId: upgrades.id, name: 'Upgrades', isEnabled: true }]),
    })
    // The refresh alone keeps the results too.
    const weekly = await t.call('POST', `${base}/scoring-model/${id}/settings/saveSettings`, { cookie, body: { name: 'Upgrade model', metricId: upgrades.id, dateRange: 'last30Days', refresh: 'weekly' } })
    expect(await json(weekly)).toEqual({ analysisId: id, status: 'completed' })
    expect((await get<ScoringSettings>(`${base}/scoring-model/${id}/settings`)).refresh).toBe('weekly')
    const bad = await t.call('POST', `${base}/scoring-model/${id}/settings/saveSettings`, { cookie, body: { name: 'Upgrade model', metricId: upgrades.id, refresh: 'hourly' } })
    expect([bad.status, (await json<{ errors: unknown[] }>(bad)).errors]).toEqual([400, [{ name: 'refresh', message: 'Refresh must be one of daily, weekly, off' }]])
    const again = await t.call('POST', `${base}/scoring-model/${id}/settings/saveSettings`, { cookie, body: { name: 'Upgrade model', metricId: upgrades.id, dateRange: 'last7Days' } })
    expect(await json(again)).toEqual({ analysisId: id, status: 'pending' })
  })
})

describe('the excluded audience', () => {
  it("leaves its users out of training and scores, through the audience engine's filters", async () => {
    const id = await createModel({
      name: 'Customers only',
      metricId: upgrades.id,
      excludedAudience: { filters: [{ trait: 'plan', operation: 'is', value: 'internal' }, { trait: 'plan', operation: '', value: '' }], aggregate: 'and', audienceType: 'user' },
    })
    const settings = await get<ScoringSettings>(`${base}/scoring-model/${id}/settings`)
    expect(settings.excludedAudience).toEqual({ filters: [{ trait: 'plan', operation: 'is', value: 'internal' }], aggregate: 'and', audienceType: 'user' })
    while ((await runner.runOnce()) !== 'idle');
    const c = await get<Correlation>(`${base}/scoring-model/${id}/correlation`)
    const internal = [...planted.entries()].filter(([u, x]) => Number(u.slice(5)) < 20 && (x.upgraded === null || x.upgraded > '2026-03-02')).length
    expect(c.audienceSize).toBe(SCORED - internal)
    const output = await get<ModelOutput>(`${base}/scoring-model/${id}/model-output?search=user-00`)
    expect(output.users.map((u) => u.userId).filter((u) => Number(u.slice(5)) < 20)).toEqual([])
  })

  it('refuses a filter that cannot mean anything, naming it', async () => {
    const res = await t.call('POST', `${base}/scoring-models/create-new-model`, {
      cookie,
      body: { name: 'Bad', metricId: upgrades.id, excludedAudience: { filters: [{ trait: 'plan', operation: 'between', value: '5,1' }], aggregate: 'and', audienceType: 'user' } },
    })
    expect(res.status).toBe(400)
    expect((await json<{ errors: unknown[] }>(res)).errors).toEqual([{ name: 'excludedAudience.filters.0.value', message: 'The second value must be greater than the first' }])
  })
})

describe('runs that fail, with the reason', () => {
  it('fails when the metric is deleted before the run', async () => {
    const doomed = await createMetric(t.sql, { orgId, name: 'Doomed', description: '', category: 'other', definition: { events: [{ name: 'Plan Upgraded' }] } })
    const id = await createModel({ name: 'Doomed model', metricId: doomed.id })
    const del = await t.call('DELETE', `/api/orgs/acme/metrics/${doomed.id}`, { cookie })
    expect(del.status).toBe(204)
    expect(await runner.runOnce()).toBe('failed')
    const detail = await get<ScoringModelDetail>(`${base}/scoring-model/${id}`)
    expect(detail).toMatchObject({ status: 'failed', error: 'The metric of this model no longer exists: choose another in the Settings tab.', metricName: 'Unknown' })
    const card = (await get<ScoringModelList>(`${base}/scoring-models`)).scoringModels.find((m) => m.analysisId === id)
    expect(card).toMatchObject({ status: 'failed', error: 'The metric of this model no longer exists: choose another in the Settings tab.', metricName: 'Unknown' })
  })

  it('fails when the organisation has no users to learn from', async () => {
    const emptyOrg = (await findOrganisationByUrlCode(t.sql, 'empty-co'))!.id
    const metric = await createMetric(t.sql, { orgId: emptyOrg, name: 'Upgrades', description: '', category: 'other', definition: { events: [{ name: 'Plan Upgraded' }] } })
    const id = await createModel({ name: 'Nobody', metricId: metric.id }, 'empty-co')
    expect(await runner.runOnce()).toBe('failed')
    const detail = await get<ScoringModelDetail>(`/api-v2/orgs/empty-co/scoring/scoring-model/${id}`)
    expect(detail.status).toBe('failed')
    expect(detail.error).toBe('No user has done an event yet: a model learns from what users did, so send some events first.')
  })

  it('fails when nobody reached the metric', async () => {
    const never = await createMetric(t.sql, { orgId, name: 'Never', description: '', category: 'other', definition: { events: [{ name: 'Account Deleted' }] } })
    const id = await createModel({ name: 'Never model', metricId: never.id })
    expect(await runner.runOnce()).toBe('failed')
    expect((await get<ScoringModelDetail>(`${base}/scoring-model/${id}`)).error).toBe(
      `None of the ${USERS.toLocaleString('en-US')} users active before Feb 1, 2026 reached "Never" between Feb 1, 2026 and Mar 2, 2026, and a model needs at least 5: choose a longer date range or a metric more users reach.`,
    )
  })
})

describe('the runner', () => {
  const quiet = { info() {}, warn() {}, error() {} }
  const status = async (id: string) => (await get<ScoringModelDetail>(`${base}/scoring-model/${id}`)).status

  it('drops a run made moot by a rebuild during training, then trains the rebuild', async () => {
    const id = await createModel({ name: 'Moot', metricId: upgrades.id })
    const fast = createScoringRunner({ sql: t.sql, events: t.events, logger: quiet, now: () => t.clock.now, heartbeatMs: 5 })
    const running = fast.runOnce()
    while ((await status(id)) !== 'running') await new Promise((r) => setTimeout(r, 5))
    const rebuild = await t.call('POST', `${base}/scoring-model/${id}/rebuild-model`, { cookie, body: { featureSelections: { excludedEvents: ['Dashboard Viewed'], includedProperties: [] } } })
    expect(await json(rebuild)).toEqual({ analysisId: id, status: 'pending' })
    expect(await running).toBe('moot')
    expect(await status(id)).toBe('pending')
    expect(await fast.runOnce()).toBe('completed')
    const activity = await get<ActivityEvents>(`${base}/scoring-model/${id}/correlation/activity/events`)
    expect(activity.events.find((e) => e.name === 'Dashboard Viewed')).toMatchObject({ inModel: false })
  })

  it('claims again within a second when a claim fails, however long its poll', async () => {
    const id = await createModel({ name: 'After a failed claim', metricId: upgrades.id })
    // The database fails the runner's first claim, as a passing error would.
    const flaky = failingOnce(t.sql, "UPDATE scoring_models SET status = 'failed'")
    const runner = createScoringRunner({ sql: flaky, events: t.events, logger: quiet, now: () => t.clock.now, pollMs: 3_600_000 })
    runner.start()
    try {
      while ((await status(id)) === 'pending') await new Promise((r) => setTimeout(r, 20))
      expect(flaky.asked()).toBeGreaterThanOrEqual(2)
    } finally {
      await runner.stop()
    }
  }, 30_000)

  it('polls once started, and on stop puts a run under way back in the queue', async () => {
    const id = await createModel({ name: 'Polled', metricId: upgrades.id })
    const polling = createScoringRunner({ sql: t.sql, events: t.events, logger: quiet, now: () => t.clock.now, pollMs: 10 })
    polling.start()
    while ((await status(id)) === 'pending') await new Promise((r) => setTimeout(r, 5))
    await polling.stop()
    // Stopped mid-run: back to pending for the next start (or, had it been quicker, completed).
    expect(['pending', 'completed']).toContain(await status(id))
    const again = createScoringRunner({ sql: t.sql, events: t.events, logger: quiet, now: () => t.clock.now, pollMs: 10 })
    again.start()
    while ((await status(id)) !== 'completed') await new Promise((r) => setTimeout(r, 20))
    await again.stop()
  })
})

describe('the run modal and other organisations', () => {
  it("says the modal's messages word for word", async () => {
    const post = (body: unknown) => t.call('POST', `${base}/scoring-models/create-new-model`, { cookie, body })
    const errors = async (body: unknown) => (await json<{ errors: unknown[] }>(await post(body))).errors
    expect(await errors({ name: ' ', metricId: upgrades.id })).toEqual([{ name: 'name', message: 'Analysis name must be provided' }])
    expect(await errors({ name: 'x'.repeat(51), metricId: upgrades.id })).toEqual([{ name: 'name', message: 'Analysis name must have at most 50 characters' }])
    expect(await errors({ name: 'x' })).toEqual([{ name: 'metricId', message: 'Metric must be given' }])
    expect(await errors({ name: 'x', metricId: 'no-such-metric' })).toEqual([{ name: 'metricId', message: 'Metric not found' }])
  })

  it("refuses another organisation's models and metrics", async () => {
    const [mine] = (await get<ScoringModelList>(`${base}/scoring-models`)).scoringModels
    const id = mine!.analysisId
    // A stranger does not reach the organisation at all.
    const res = await t.call('GET', `${base}/scoring-models`, { cookie: stranger })
    expect([res.status, (await json<{ message: string }>(res)).message]).toEqual([404, 'Organization not found'])
    // In their own organisation, the id of ours is not found, for every call.
    const theirs = '/api-v2/orgs/elsewhere/scoring'
    for (const path of [`/scoring-models/${id}`, `/scoring-model/${id}`, `/scoring-model/${id}/settings`, `/scoring-model/${id}/correlation`, `/scoring-model/${id}/model-output`, `/scoring-model/${id}/backtest-image`]) {
      const r = await t.call('GET', `${theirs}${path}`, { cookie: stranger })
      expect([path, r.status, (await json<{ message: string }>(r)).message]).toEqual([path, 404, 'Scoring model not found'])
    }
    const del = await t.call('DELETE', `${theirs}/scoring-model/${id}`, { cookie: stranger })
    expect(del.status).toBe(404)
    const rebuild = await t.call('POST', `${theirs}/scoring-model/${id}/rebuild-model`, { cookie: stranger, body: { featureSelections: { excludedEvents: [], includedProperties: [] } } })
    expect(rebuild.status).toBe(404)
    const steal = await t.call('POST', `${theirs}/scoring-models/create-new-model`, { cookie: stranger, body: { name: 'x', metricId: upgrades.id } })
    expect([steal.status, (await json<{ message: string }>(steal)).message]).toEqual([400, 'Metric not found'])
    expect((await get<ScoringModelList>(`${theirs}/scoring-models`, stranger)).scoringModels).toEqual([])
  })

  it('deletes a model, its results with it', async () => {
    const id = await createModel({ name: 'Short-lived', metricId: upgrades.id })
    const res = await t.call('DELETE', `${base}/scoring-model/${id}`, { cookie })
    expect(res.status).toBe(204)
    expect((await t.call('GET', `${base}/scoring-model/${id}`, { cookie })).status).toBe(404)
    expect((await get<ScoringModelList>(`${base}/scoring-models`)).scoringModels.map((m) => m.analysisId)).not.toContain(id)
  })
})

/**
 * Leaks, the run dialog's rule and re-scoring, on a second organisation whose
 * data plants what a leaking model would get wrong. The metric is connecting
 * an integration. Who reads the docs connects one for the first time with
 * probability 0.5 a period, anyone else 0.03; who has connected one connects
 * another with probability 0.8 a period (so the metric's own past event
 * would top a model that kept it), and every connection fires 'Sync
 * Completed' a minute later and on every active day after (an event that
 * happens only with the metric). Newcomers sign up in February and connect
 * within days: a funnel starting with 'Signed Up' has no one to learn from.
 */
function leakyEvents(orgId: string) {
  const random = seededRandom(7)
  const rows: IngestedEvent[] = []
  const connectedBefore = new Set<string>()
  const readers = new Set<string>()
  const track = (user: string, event: string, at: Date) => rows.push(eventRow({ org_id: orgId, user_id: user, event, timestamp: at }))
  const periods = [
    { features: ['2025-12-05', '2025-12-20'], label: '2026-01-15' },
    { features: ['2026-01-05', '2026-01-20'], label: '2026-02-15' },
    { features: ['2026-02-05', '2026-02-20'], label: null },
  ]
  for (let i = 0; i < 800; i++) {
    const user = `lk-${String(i).padStart(3, '0')}`
    const docs = random() < 0.4
    if (docs) readers.add(user)
    let connected: string | null = null
    track(user, 'Signed Up', day('2025-11-20'))
    for (const period of periods) {
      for (const d of period.features) {
        track(user, 'Logged In', day(d))
        if (docs && random() < 0.7) track(user, 'Docs Read', day(d, 11))
        if (connected !== null && d > connected) track(user, 'Sync Completed', day(d, 12))
      }
      if (period.label && random() < (connected ? 0.8 : docs ? 0.5 : 0.03)) {
        track(user, 'Integration Connected', day(period.label))
        track(user, 'Sync Completed', new Date(day(period.label).getTime() + 60_000))
        if (period.label < '2026-02-01') connectedBefore.add(user)
        connected ??= period.label
      }
    }
  }
  for (let i = 0; i < 40; i++) {
    const user = `new-${i}`
    track(user, 'Signed Up', day('2026-02-10'))
    track(user, 'Integration Connected', day('2026-02-12'))
  }
  return { rows, connectedBefore, readers }
}

describe('leaks, the run dialog and re-scoring', () => {
  const leaky = '/api-v2/orgs/leaky/scoring'
  let connects: MetricRow
  let connectedBefore: Set<string>
  let readers: Set<string>
  let id: string
  beforeAll(async () => {
    await t.createOrg(cookie, 'Leaky')
    const leakyId = (await findOrganisationByUrlCode(t.sql, 'leaky'))!.id
    const planted = leakyEvents(leakyId)
    connectedBefore = planted.connectedBefore
    readers = planted.readers
    await insertEvents(t.events, planted.rows)
    connects = await createMetric(t.sql, { orgId: leakyId, name: 'Connects', description: '', category: 'other', definition: { events: [{ name: 'Integration Connected' }] } })
  })
  const check = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', `${leaky}/scoring-models/check`, { cookie, body })
    expect(res.status, await res.clone().text()).toBe(200)
    return json<ScoringCheck>(res)
  }

  it('tells before a run whether a metric and date range can be learned, by the rule the trainer applies', async () => {
    const ok = await check({ metricId: connects.id, dateRange: 'last30Days' })
    expect(ok).toMatchObject({ learnable: true, dateRange: 'last30Days', from: '2026-02-01', to: '2026-03-02', firstDay: '2025-11-20' })
    // Who had connected by January is not learned from: the model predicts who connects anew.
    expect(ok.alreadyReached).toBe(connectedBefore.size)
    expect(ok.usersBefore).toBe(800 - connectedBefore.size)
    expect(ok.reachedNew).toBe(40)
    expect(ok.message).toBe(
      `A model learns from the ${ok.usersBefore.toLocaleString('en-US')} users active before Feb 1, 2026 who had not reached it then: ${ok.reached} of them (${((ok.reached / ok.usersBefore) * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%) reached "Connects" between Feb 1, 2026 and Mar 2, 2026.`,
    )
    // Events start on 2025-11-20: a year's range leaves nothing before it.
    const year = await check({ metricId: connects.id, dateRange: 'lastYear' })
    expect(year).toMatchObject({ learnable: false, usersBefore: 0, message: 'Events start on Nov 20, 2025, and a model learns from what users did before the date range (from Mar 3, 2025): choose a shorter date range.' })
    expect(year.ranges.map((r) => [r.dateRange, r.learnable])).toEqual([
      ['last7Days', false],
      ['last30Days', true],
      // From Dec 3: the sign-ups of Nov 20 are history enough.
      ['last3Months', true],
      ['last6Months', false],
      ['lastYear', false],
    ])
    // A funnel that starts with signing up: only newcomers reach it.
    const funnel = await createMetric(t.sql, {
      orgId: connects.org_id,
      name: 'Signed up and connected',
      description: '',
      category: 'other',
      definition: { events: [{ name: 'Signed Up' }, { name: 'Integration Connected' }], operation: 'ordered' },
    })
    const fresh = await check({ metricId: funnel.id, dateRange: 'last30Days' })
    expect(fresh).toMatchObject({ learnable: false, reached: 0, reachedNew: 40 })
    expect(fresh.message).toBe(
      `None of the ${fresh.usersBefore} users active before Feb 1, 2026 who had not reached it then reached "Signed up and connected" between Feb 1, 2026 and Mar 2, 2026; the 40 others who did were new. A model learns only from users with a history before the date range, so choose a metric that users already active reach (a funnel that starts with signing up cannot be learned).`,
    )
    // The run fails with the same sentence.
    const failing = await createModel({ name: 'Funnel', metricId: funnel.id }, 'leaky')
    while ((await runner.runOnce()) !== 'idle');
    expect((await get<ScoringModelDetail>(`${leaky}/scoring-model/${failing}`)).error).toBe(fresh.message)
    // Malformed or foreign input is refused, naming the field.
    const bad = await t.call('POST', `${leaky}/scoring-models/check`, { cookie, body: { metricId: connects.id, dateRange: 'last2Days' } })
    expect([bad.status, (await json<{ errors: Array<{ name: string }> }>(bad)).errors.map((e) => e.name)]).toEqual([400, ['dateRange']])
    const foreign = await t.call('POST', `${base}/scoring-models/check`, { cookie, body: { metricId: connects.id } })
    expect([foreign.status, (await json<{ message: string }>(foreign)).message]).toEqual([400, 'Metric not found'])
    const stranger_ = await t.call('POST', `${leaky}/scoring-models/check`, { cookie: stranger, body: { metricId: connects.id } })
    expect(stranger_.status).toBe(404)
  })

  it("leaves the metric's own events and their companions out, and never puts who already reached it on top", async () => {
    id = await createModel({ name: 'Who connects', metricId: connects.id }, 'leaky')
    while ((await runner.runOnce()) !== 'idle');
    const c = await get<Correlation>(`${leaky}/scoring-model/${id}/correlation`)
    expect(c.leaks).toEqual([
      { event: 'Integration Connected', leak: 'metric' },
      { event: 'Sync Completed', leak: 'companion' },
    ])
    const activity = await get<ActivityEvents>(`${leaky}/scoring-model/${id}/correlation/activity/events`)
    expect(activity.events[0]).toMatchObject({ name: 'Docs Read', inModel: true, leak: null })
    expect(activity.events.filter((e) => e.leak).map((e) => [e.name, e.inModel, e.leak])).toEqual([
      ['Integration Connected', false, 'metric'],
      ['Sync Completed', false, 'companion'],
    ])
    const output = await get<ModelOutput>(`${leaky}/scoring-model/${id}/model-output`)
    expect(output.users.filter((u) => connectedBefore.has(u.userId))).toEqual([])
    // The docs readers fill the top, as the planted rule says.
    expect(output.users.every((u) => readers.has(u.userId))).toBe(true)
    expect(c.auc).toBeGreaterThan(0.75)
  })

  it('re-scores on its schedule: a user new since the run gets a rating, without a rebuild', async () => {
    const before = await get<ScoringModelDetail>(`${leaky}/scoring-model/${id}`)
    expect(before.scoredAt).toBe(before.trainedAt)
    expect(await runner.rescoreOnce()).toBe('idle')
    const leakyId = connects.org_id
    const saved = t.clock.now
    try {
      t.clock.now = new Date(saved.getTime() + 25 * 3_600_000)
      await insertEvents(t.events, [
        eventRow({ org_id: leakyId, user_id: 'late-comer', event: 'Logged In', timestamp: new Date(saved.getTime() + 3_600_000) }),
        eventRow({ org_id: leakyId, user_id: 'late-comer', event: 'Docs Read', timestamp: new Date(saved.getTime() + 2 * 3_600_000) }),
      ])
      expect((await get<ModelOutput>(`${leaky}/scoring-model/${id}/model-output?search=late-comer`)).totalUsers).toBe(0)
      // Other organisations' models are due too: re-score until this one is done.
      while ((await get<ScoringModelDetail>(`${leaky}/scoring-model/${id}`)).scoredAt === before.scoredAt) expect(await runner.rescoreOnce()).not.toBe('idle')
      const after = await get<ScoringModelDetail>(`${leaky}/scoring-model/${id}`)
      expect(after).toMatchObject({ status: 'completed', trainedAt: before.trainedAt, scoredAt: t.clock.now.toISOString() })
      const late = await get<ModelOutput>(`${leaky}/scoring-model/${id}/model-output?search=late-comer`)
      expect(late.users).toEqual([expect.objectContaining({ userId: 'late-comer', rating: expect.stringMatching(/^(excellent|good|fair|poor)$/) })])
      // Reading the docs puts them above the users who do not.
      expect(['excellent', 'good']).toContain(late.users[0]!.rating)
    } finally {
      t.clock.now = saved
    }
  })
})
