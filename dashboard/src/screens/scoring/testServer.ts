import { ratingQuality, ratingsOf, type RatingName } from '@fl0/contracts/scoring'
import type {
  ActivityEvent,
  BacktestPredictions,
  Correlation,
  ModelOutput,
  RatingQuality,
  ScoredUser,
  ScoringCheck,
  ScoringCheckRequest,
  ScoringMetric,
  ScoringModelDetail,
  ScoringModelSummary,
  ScoringSettings,
} from '../../api/types.ts'
import { fakeServer, type Call } from '../../test/fakeServer.ts'

/**
 * An in-memory scoring API for the component tests, keeping the server's
 * rules the screens rely on: models train in the background (here: when the
 * test says so), paging by 20 with search, a rebuild queues a run. The real
 * one runs in the browser test.
 */
export const METRICS: ScoringMetric[] = [
  { metricId: 'm-upgrades', name: 'Upgrades', isEnabled: true },
  { metricId: 'm-active', name: 'Active users', isEnabled: false },
  { metricId: 'm-signups', name: 'Sign-ups', isEnabled: true },
]

export const COMPLETED: ScoringModelSummary = {
  analysisId: 'a1',
  name: 'Who upgrades',
  status: 'completed',
  totalUsers: 200,
  ratings: ratingsOf({ poor: 100, fair: 50, good: 30, excellent: 20 }),
  metricName: 'Upgrades',
  error: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  verdict: 'met',
}

/** Users with known outcomes, per rating: how many, and how many of them reached the metric; measured by the contract's own rule. */
export function qualityOf(per: Record<RatingName, [users: number, reached: number]>): RatingQuality {
  return ratingQuality(
    (Object.keys(per) as RatingName[]).flatMap((rating) => {
      const [users, reached] = per[rating]
      return Array.from({ length: users }, (_, i) => ({ rating, reached: i < reached }))
    }),
  )
}
/** 400 held-out users, 70 reached: the bar met (top 30% hold 80% of them, excellent 60× poor). */
export const MET = qualityOf({ excellent: [40, 30], good: [80, 26], fair: [120, 12], poor: [160, 2] })
/** The same users with ratings that barely sort them: top 30% hold 37.5%. */
export const NOT_MET = qualityOf({ excellent: [40, 10], good: [80, 20], fair: [120, 30], poor: [160, 20] })

const RATING_CYCLE: RatingName[] = ['excellent', 'good', 'fair', 'poor']

/** 45 events: 'Event 01'…'Event 45', the first with two properties and their values; the last two left out as leaks of the answer. */
export const EVENTS: ActivityEvent[] = Array.from({ length: 45 }, (_, i): ActivityEvent => ({
  name: `Event ${String(i + 1).padStart(2, '0')}`,
  number: i + 1,
  rating: RATING_CYCLE[Math.min(3, Math.floor(i / 5))]!,
  importance: 1 - i / 50,
  inModel: true,
  leak: null,
  properties:
    i === 0
      ? [
          { name: 'plan', rating: 'good', importance: 0.3, inModel: true, values: [{ name: 'pro', rating: 'excellent', importance: 0.6 }, { name: 'free', rating: 'poor', importance: -0.2 }] },
          { name: 'source', rating: 'poor', importance: 0, inModel: false, values: [] },
        ]
      : [],
})).map((e, i) => (i < 43 ? e : { ...e, rating: 'poor', importance: 0, inModel: false, leak: i === 43 ? 'metric' : 'companion', properties: [{ name: 'plan', rating: 'poor', importance: 0, inModel: false, values: [] }] }))

export const USERS: ScoredUser[] = Array.from({ length: 30 }, (_, i) => ({
  userId: `user-${i + 1}`,
  name: i === 2 ? '' : `Person ${i + 1}`,
  number: i + 1,
  score: 1 - i / 30,
  rating: RATING_CYCLE[Math.min(3, Math.floor(i / 8))]!,
}))

export const CORRELATION: Correlation = {
  fromTime: '2026-02-01T00:00:00.000Z',
  toTime: '2026-03-02T23:59:59.000Z',
  trainingDataSize: 1600,
  audienceSize: 2000,
  totalFactors: 57,
  accuracy: 0.873,
  ratings: ratingsOf({ excellent: 5, good: 5, fair: 5, poor: 30 }),
  heldOutSize: 400,
  auc: 0.91,
  baselineAccuracy: 0.8,
  balancedAccuracy: 0.82,
  positiveRate: 0.2,
  trainedAt: '2026-03-02T10:00:00.000Z',
  thresholds: { fair: 0.1, good: 0.3, excellent: 0.6 },
  quality: MET,
  leaks: [],
}

/** A model that did learn the period before: 2,400 users, a tenth of score each bucket, 45 top predictions. */
export const BACKTEST: BacktestPredictions = {
  trainedOn: { fromTime: '2026-01-02T12:00:00.000Z', toTime: '2026-01-31T12:00:00.000Z' },
  predicted: { fromTime: '2026-02-01T12:00:00.000Z', toTime: '2026-03-02T12:00:00.000Z' },
  users: 2400,
  accuracy: 0.911,
  baselineAccuracy: 0.868,
  auc: 0.874,
  positiveRate: 0.132,
  buckets: Array.from({ length: 10 }, (_, i) => {
    const users = [1200, 400, 250, 160, 120, 90, 70, 50, 40, 20][i]!
    return { from: i / 10, to: (i + 1) / 10, users, meanScore: i / 10 + 0.04, reached: Math.round(users * Math.min(1, i / 10 + 0.02)) }
  }).map((b, i) => (i === 9 ? { ...b, users: 0, reached: 0, meanScore: 0 } : b)),
  predictions: Array.from({ length: 45 }, (_, i) => ({ userId: `user-${i + 1}`, score: 0.99 - i / 100, predicted: i < 30, reached: i % 3 !== 2 })),
  quality: qualityOf({ excellent: [240, 150], good: [480, 90], fair: [720, 50], poor: [960, 27] }),
}
export const SETTINGS: ScoringSettings = {
  name: 'Who upgrades',
  metric: { metricId: 'm-upgrades', name: 'Upgrades' },
  dateRange: 'last30Days',
  excludedAudience: { filters: [{ trait: 'plan', operation: 'is', value: 'enterprise' }], aggregate: 'and', audienceType: 'user' },
  refresh: 'daily',
  metrics: METRICS,
}

/**
 * The check's answers, in the words of the trainer's rule: Upgrades can be
 * learned over 30 days or more, Sign-ups never (everyone signs up once: no
 * one active before a range signs up in it).
 */
const USERS_BEFORE = { last7Days: 1900, last30Days: 1600, last3Months: 1100, last6Months: 700, lastYear: 300 } as const
export function checkOf(body: ScoringCheckRequest): ScoringCheck {
  const dateRange = body.dateRange ?? 'last30Days'
  const name = METRICS.find((m) => m.metricId === body.metricId)?.name ?? 'Unknown'
  const rangeOf = (r: keyof typeof USERS_BEFORE) => {
    const reached = body.metricId === 'm-signups' ? 0 : r === 'last7Days' ? 3 : Math.round(USERS_BEFORE[r] / 8)
    return { dateRange: r, learnable: reached >= 5, usersBefore: USERS_BEFORE[r], reached }
  }
  const ranges = (Object.keys(USERS_BEFORE) as Array<keyof typeof USERS_BEFORE>).map(rangeOf)
  const here = rangeOf(dateRange)
  const n = (x: number) => x.toLocaleString('en-US')
  const message = here.learnable
    ? `A model learns from the ${n(here.usersBefore)} users active before Feb 1, 2026: ${n(here.reached)} of them (${((here.reached / here.usersBefore) * 100).toFixed(1)}%) reached "${name}" between Feb 1, 2026 and Mar 2, 2026.`
    : body.metricId === 'm-signups'
      ? `None of the ${n(here.usersBefore)} users active before Feb 1, 2026 reached "${name}" between Feb 1, 2026 and Mar 2, 2026; the 1,177 others who did were new. A model learns only from users with a history before the date range, so choose a metric that users already active reach (a funnel that starts with signing up cannot be learned).`
      : `Only ${n(here.reached)} of the ${n(here.usersBefore)} users active before Feb 23, 2026 reached "${name}" between Feb 23, 2026 and Mar 2, 2026, and a model needs at least 5: choose a longer date range or a metric more users reach.`
  return { ...here, message, from: '2026-02-01T00:00:00.000Z', to: '2026-03-02T23:59:59.000Z', alreadyReached: 0, reachedNew: body.metricId === 'm-signups' ? 1177 : 12, firstDay: '2025-06-01', ranges }
}

export const BASE = '/api-v2/orgs/acme/scoring'
const page = <T,>(list: T[], call: Call) => {
  const p = Number(call.query.get('page') ?? '1')
  return list.slice((p - 1) * 20, p * 20)
}
const notFound = { status: 404, body: { success: false, message: 'Scoring model not found', errors: [] } }

export function scoringServer(options: { models?: ScoringModelSummary[]; detail?: Partial<ScoringModelDetail> } = {}) {
  const server = fakeServer()
  let models = [...(options.models ?? [])]
  let next = 1
  const details = new Map<string, ScoringModelDetail>()
  const detailOf = (m: ScoringModelSummary): ScoringModelDetail =>
    details.get(m.analysisId) ?? {
      analysisId: m.analysisId,
      name: m.name,
      metricId: 'm-upgrades',
      metricName: m.metricName,
      dateRange: 'last30Days',
      status: m.status,
      error: m.error,
      featureSelections: { excludedEvents: [], includedProperties: [] },
      createdAt: m.createdAt,
      trainedAt: null,
      scoredAt: null,
      refresh: 'daily',
      ...options.detail,
    }
  const idOf = (call: Call) => decodeURIComponent(call.path.split('/scoring-model/')[1]!.split('/')[0]!)
  const find = (call: Call) => models.find((m) => m.analysisId === idOf(call))

  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api/orgs/acme/audiences/traits', { body: { user_traits: { plan: 'string', seats: 'number', trial: 'boolean' }, company_traits: { industry: 'string' } } })
  server.on('GET', /^\/api\/orgs\/acme\/audiences\/traits\/[^/]+\/[^/]+\/values$/, { body: { values: ['enterprise', 'pro', 'free'] } })
  server.on('GET', `${BASE}/scoring-models`, () => ({ body: { scoringModels: models } }))
  // A model's donut numbers; registered before 'metrics', which is not a model's id and wins over it.
  server.on('GET', /\/scoring-models\/[^/]+$/, (call) => {
    const m = models.find((x) => x.analysisId === decodeURIComponent(call.path.split('/scoring-models/')[1]!))
    return m ? { body: { status: m.status, ratings: m.ratings, totalUsers: m.totalUsers } } : notFound
  })
  server.on('GET', `${BASE}/scoring-models/metrics`, { body: METRICS })
  server.on('POST', `${BASE}/scoring-models/create-new-model`, (call) => {
    const b = call.body as { name: string; metricId: string }
    const m: ScoringModelSummary = { ...COMPLETED, analysisId: `new-${next++}`, name: b.name, status: 'pending', totalUsers: 0, ratings: [], createdAt: '2026-03-03T00:00:00.000Z', verdict: null }
    models = [m, ...models]
    return { status: 201, body: { analysisId: m.analysisId } }
  })
  server.on('GET', /\/scoring-model\/[^/]+$/, (call) => {
    const m = find(call)
    return m ? { body: detailOf(m) } : notFound
  })
  server.on('DELETE', /\/scoring-model\/[^/]+$/, (call) => {
    models = models.filter((m) => m.analysisId !== idOf(call))
    return { status: 204 }
  })
  server.on('POST', /\/scoring-model\/[^/]+\/rebuild-model$/, (call) => {
    const m = find(call)
    if (!m) return notFound
    const { featureSelections } = call.body as { featureSelections: ScoringModelDetail['featureSelections'] }
    details.set(m.analysisId, { ...detailOf(m), featureSelections, status: 'pending' })
    models = models.map((x) => (x.analysisId === m.analysisId ? { ...x, status: 'pending' } : x))
    return { body: { analysisId: m.analysisId, status: 'pending' } }
  })
  server.on('GET', /\/scoring-model\/[^/]+\/settings$/, { body: SETTINGS })
  server.on('POST', /\/scoring-model\/[^/]+\/settings\/saveSettings$/, (call) => ({ body: { analysisId: idOf(call), status: 'completed' } }))
  server.on('GET', /\/scoring-model\/[^/]+\/correlation$/, { body: CORRELATION })
  server.on('GET', /\/correlation\/activity\/events$/, (call) => {
    const q = (call.query.get('search') ?? '').toLowerCase()
    const found = EVENTS.filter((e) => e.name.toLowerCase().includes(q))
    return { body: { events: page(found, call), totalEvents: found.length } }
  })
  server.on('GET', /\/scoring-model\/[^/]+\/model-output$/, (call) => {
    const q = (call.query.get('search') ?? '').toLowerCase()
    const found = USERS.filter((u) => u.name.toLowerCase().includes(q) || u.userId.includes(q))
    const body: ModelOutput = { ratings: ratingsOf({ excellent: 8, good: 8, fair: 8, poor: 6 }), users: page(found, call), totalUsers: found.length, images: ['factors.png', 'score.png'] }
    return { body }
  })
  server.on('GET', /\/model-output\/[^/]+\/images$/, { body: { images: ['factors.png', 'score.png'] } })
  server.on('GET', /\/backtest-predictions$/, { body: BACKTEST })
  server.on('POST', `${BASE}/scoring-models/check`, (call) => ({ body: checkOf(call.body as ScoringCheckRequest) }))

  return {
    server,
    models: () => models,
    /** What the job would do: the model's status changes on the server. */
    setStatus(analysisId: string, status: ScoringModelSummary['status'], error: string | null = null) {
      models = models.map((m) => (m.analysisId === analysisId ? { ...m, status, error, ...(status === 'completed' ? { totalUsers: COMPLETED.totalUsers, ratings: COMPLETED.ratings } : {}) } : m))
      const d = details.get(analysisId)
      if (d) details.set(analysisId, { ...d, status, error })
    },
  }
}
