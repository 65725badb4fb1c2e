import { saveMetricSchema, type MetricGraph, type StoredMetric } from '@fl0/contracts/metrics'
import { toFieldErrors } from '@fl0/contracts/errors'
import { fakeServer, type Call } from './fakeServer.ts'

/**
 * An in-memory metrics API for the metrics screens' component tests, with the
 * server's rules the screens rely on (the browser tests run the real one):
 * categories, metrics validated by the contract, the look-ups, and a graph
 * route whose answer the test decides.
 */
export const KNOWN_EVENTS = [
  { name: 'Signed Up', volume: 60 },
  { name: 'Integration Connected', volume: 30 },
  { name: 'Invite Sent', volume: 25 },
  { name: 'Plan Upgraded', volume: 9 },
]

export const lineGraph = (name = 'Unique users', values = [3, 5]): MetricGraph => ({
  type: 'line',
  header: { name },
  data: { labels: values.map((_, i) => `2026-11-0${i + 1}`), datasets: [{ label: name, data: values }] },
})

export function metricsServer(initial: StoredMetric[] = [], options: { valid?: (m: StoredMetric) => boolean } = {}) {
  const server = fakeServer()
  let metrics = [...initial]
  let next = 1
  const o = '/api/orgs/acme'
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  server.on('GET', '/api-v2/orgs/acme/events', (call) => {
    const q = (call.query.get('search') ?? '').toLowerCase()
    return { body: { events: KNOWN_EVENTS.filter((e) => e.name.toLowerCase().includes(q)) } }
  })
  server.on('GET', `${o}/audiences/traits`, { body: { user_traits: { plan: 'string', employees: 'number', beta: 'boolean' }, company_traits: { industry: 'string' } } })
  server.on('GET', /^\/api\/orgs\/acme\/audiences\/traits\/[^/]+\/[^/]+\/values$/, (call) => {
    const trait = decodeURIComponent(call.path.split('/').at(-2)!)
    return { body: { values: trait === 'plan' ? ['free', 'pro', 'enterprise'] : [] } }
  })
  server.on('GET', /^\/api\/orgs\/acme\/events\/[^/]+\/properties$/, (call) => {
    const event = decodeURIComponent(call.path.split('/').at(-2)!)
    return { body: { items: event === 'Plan Upgraded' ? [{ path: 'plan' }, { path: 'mrr' }] : [] } }
  })
  server.on('GET', /^\/api\/orgs\/acme\/events\/[^/]+\/properties\/[^/]+\/values$/, (call) => {
    const path = decodeURIComponent(call.path.split('/').at(-2)!)
    return { body: { items: path === 'plan' ? [{ value: 'pro' }, { value: 'enterprise' }] : [] } }
  })
  // Later routes win: the category list is registered after the one-metric route it would match.
  server.on('GET', /^\/api\/orgs\/acme\/metrics\/[^/]+$/, (call) => {
    const m = metrics.find((x) => x.id === call.path.split('/').pop())
    return m ? { body: m } : { status: 404, body: { success: false, message: 'Metric not found', errors: [] } }
  })
  server.on('GET', `${o}/metrics/category`, () => {
    const groups = new Map<string, Array<{ id: string; name: string; valid: boolean }>>()
    for (const m of metrics) groups.set(m.category, [...(groups.get(m.category) ?? []), { id: m.id, name: m.name, valid: options.valid?.(m) ?? m.definition.events.length > 0 }])
    return { body: { categories: [...groups].map(([category, list]) => ({ category, metrics: list })) } }
  })
  const save = (call: Call, id: string) => {
    const parsed = saveMetricSchema.safeParse(call.body)
    if (!parsed.success) return { status: 400, body: { success: false, message: 'Invalid metric', errors: toFieldErrors(parsed.error) } }
    metrics = [...metrics.filter((m) => m.id !== id), { id, ...parsed.data }]
    return { status: 200, body: { metricId: id } }
  }
  server.on('POST', `${o}/metrics`, (call) => save(call, `m${next++}`))
  server.on('POST', /^\/api\/orgs\/acme\/metrics\/[^/]+$/, (call) => save(call, call.path.split('/').pop()!))
  server.on('DELETE', /^\/api\/orgs\/acme\/metrics\/[^/]+$/, (call) => {
    metrics = metrics.filter((m) => m.id !== call.path.split('/').pop())
    return { status: 204 }
  })
  server.on('POST', '/api-v2/orgs/acme/metrics/graph', () => ({ body: lineGraph() }))
  return { ...server, graphCalls: () => server.callsTo('POST', '/api-v2/orgs/acme/metrics/graph'), metrics: () => metrics }
}
export type MetricsServer = ReturnType<typeof metricsServer>
