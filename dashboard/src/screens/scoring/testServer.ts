import { ratingsOf, type RatingName } from '@fl0/contracts/scoring'
import type { ActivityEvent, Correlation, ModelOutput, ScoredUser, ScoringMetric, ScoringModelDetail, ScoringModelSummary, ScoringSettings } from '../../api/types.ts'
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
}

const RATING_CYCLE: RatingName[] = ['excellent', 'good', 'fair', 'poor']

/** 45 events: 'Event 01'…'Event 45', the first with two properties and their values. */
export const EVENTS: ActivityEvent[] = Array.from({ length: 45 }, (_, i) => ({
  name: `Event ${String(i + 1).padStart(2, '0')}`,
  number: i + 1,
  rating: RATING_CYCLE[Math.min(3, Math.floor(i / 5))]!,
  importance: 1 - i / 50,
  inModel: true,
  properties:
    i === 0
      ? [
          { name: 'plan', rating: 'good', importance: 0.3, inModel: true, values: [{ name: 'pro', rating: 'excellent', importance: 0.6 }, { name: 'free', rating: 'poor', importance: -0.2 }] },
          { name: 'source', rating: 'poor', importance: 0, inModel: false, values: [] },
        ]
      : [],
}))

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
}

export const SETTINGS: ScoringSettings = {
  name: 'Who upgrades',
  metric: { metricId: 'm-upgrades', name: 'Upgrades' },
  dateRange: 'last30Days',
  excludedAudience: { filters: [{ trait: 'plan', operation: 'is', value: 'enterprise' }], aggregate: 'and', audienceType: 'user' },
  metrics: METRICS,
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
    const m: ScoringModelSummary = { ...COMPLETED, analysisId: `new-${next++}`, name: b.name, status: 'pending', totalUsers: 0, ratings: [], createdAt: '2026-03-03T00:00:00.000Z' }
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
  server.on('GET', /\/backtest-predictions$/, { body: { users: 2, accuracy: 0.9, predictions: [{ userId: 'user-1', score: 0.97, predicted: true, reached: true }] } })

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
