import { Hono } from 'hono'
import { DEFAULT_CATEGORY, isEmptyMetric, METRIC_NOT_FOUND, metricDefinitionSchema, saveMetricSchema, type MetricCategories, type StoredMetric } from '@fl0/contracts'
import { createMetric, deleteMetric, findMetric, listMetrics, updateMetric, type MetricRow } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'

/**
 * A stored definition is valid when it still parses (one saved by an older
 * version may not) and counts something (events, or any event): the list
 * shows 'Metric properties are not set' for the others.
 */
function readDefinition(stored: unknown) {
  const parsed = metricDefinitionSchema.safeParse(stored)
  return parsed.success ? { definition: parsed.data, valid: !isEmptyMetric(parsed.data) } : { definition: stored, valid: false }
}

const view = (m: MetricRow): StoredMetric => ({
  id: m.id,
  name: m.name,
  description: m.description,
  category: m.category,
  definition: readDefinition(m.definition).definition as StoredMetric['definition'],
})

/** Categories by name, ignoring case; the catch-all 'other' last. */
function byCategory(a: string, b: string): number {
  if (a === b) return 0
  if (a === DEFAULT_CATEGORY) return 1
  if (b === DEFAULT_CATEGORY) return -1
  return a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b)
}

/**
 * /api/orgs/{organization}/metrics: the metrics list by category, and one
 * metric read, created, changed or deleted (spec part 2 §7). Every member may
 * do each. Another organisation's metric, or none, is a 404 'Metric not found'.
 */
export function createMetricsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/category', async (c) => {
    const groups = new Map<string, MetricCategories['categories'][number]['metrics']>()
    for (const m of await listMetrics(deps.sql, currentOrg(c).id)) {
      const list = groups.get(m.category) ?? []
      list.push({ id: m.id, name: m.name, valid: readDefinition(m.definition).valid })
      groups.set(m.category, list)
    }
    const categories = [...groups.keys()].sort(byCategory).map((category) => ({ category, metrics: groups.get(category)! }))
    return c.json({ categories } satisfies MetricCategories)
  })

  app.get('/:metricId', async (c) => {
    const metric = await findMetric(deps.sql, currentOrg(c).id, c.req.param('metricId'))
    if (!metric) throw notFound(METRIC_NOT_FOUND)
    return c.json(view(metric))
  })

  app.post('/', jsonBody(saveMetricSchema), async (c) => {
    const org = currentOrg(c)
    const metric = await createMetric(deps.sql, { orgId: org.id, ...c.req.valid('json') })
    deps.logger.info({ orgId: org.id, metricId: metric.id, by: sessionUser(c).id }, 'metric created')
    return c.json({ metricId: metric.id }, 201)
  })

  app.post('/:metricId', jsonBody(saveMetricSchema), async (c) => {
    const metric = await updateMetric(deps.sql, currentOrg(c).id, c.req.param('metricId'), c.req.valid('json'))
    if (!metric) throw notFound(METRIC_NOT_FOUND)
    return c.json({ metricId: metric.id })
  })

  app.delete('/:metricId', async (c) => {
    const org = currentOrg(c)
    const deleted = await deleteMetric(deps.sql, org.id, c.req.param('metricId'))
    if (!deleted) throw notFound(METRIC_NOT_FOUND)
    deps.logger.info({ orgId: org.id, metricId: deleted.id, by: sessionUser(c).id }, 'metric deleted')
    return c.body(null, 204)
  })

  return app
}
