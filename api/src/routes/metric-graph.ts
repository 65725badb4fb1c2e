import { Hono } from 'hono'
import { METRIC_TOO_SLOW, metricDefinitionSchema } from '@fl0/contracts'
import { getOrgSettings } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg } from '../guard/index.ts'
import { computeMetricGraph, isKnownZone } from '@fl0/query'

/**
 * POST /api-v2/orgs/{organization}/metrics/graph: a metric definition's graph
 * (spec part 2 §7), computed by the metric engine (metrics/engine.ts) in the
 * organisation's time zone.
 *
 * Abortable: the editor cancels a preview when the next one starts. The
 * request's signal aborts the events-store query (a ClickHouse server cancels
 * it; chDB skips it if it has not started, else stops waiting for it), and an
 * aborted request gets no answer and no error in the log: nobody is waiting.
 */
export function createMetricGraphRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.post('/graph', jsonBody(metricDefinitionSchema), async (c) => {
    const org = currentOrg(c)
    const signal = c.req.raw.signal
    const { timezone } = await getOrgSettings(deps.sql, org.id)
    if (!isKnownZone(timezone)) deps.logger.warn({ orgId: org.id, timezone }, 'metric graph: unknown time zone in settings, counting in UTC')
    try {
      const definition = c.req.valid('json')
      const now = deps.now()
      const zone = isKnownZone(timezone) ? timezone : 'UTC'
      const result = await computeMetricGraph(deps.events, { orgId: org.id, definition, now, timezone: zone, signal })
      if (!result.ok) throw new ApiError(400, result.errors[0]!.message, result.errors)
      return c.json(result.graph)
    } catch (err) {
      // 499: nginx's "client closed request"; the client is gone and reads nothing.
      if (signal.aborted) return new Response(null, { status: 499 })
      if ((err as { type?: unknown }).type === 'TIMEOUT_EXCEEDED') throw new ApiError(503, METRIC_TOO_SLOW)
      throw err
    }
  })

  return app
}
