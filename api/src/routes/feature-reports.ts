import { Hono } from 'hono'
import { FEATURE_ERRORS, featureQuerySchema, METRIC_TOO_SLOW } from '@fl0/contracts'
import { findFeature, getOrgSettings } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg } from '../guard/index.ts'
import { isKnownZone } from '@fl0/query'
import { runFeatureQuery } from '../reports/feature-query.ts'

/**
 * POST /api-v2/orgs/{organization}/features/{featureId}/data/query: one of
 * the Feature Analysis report's numbers or lines (spec part 3 §7), from the
 * events store over the feature's events (reports/feature-query.ts), in the
 * organisation's time zone. Mounted beside the features routes, under the
 * same prefix. Another organisation's feature, or none, is a 404.
 *
 * The report sends ten at once and leaves when the user does: a request that
 * went away gets no answer and no error in the log.
 */
export function createFeatureReportsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.post('/:featureId/data/query', jsonBody(featureQuerySchema), async (c) => {
    const org = currentOrg(c)
    const signal = c.req.raw.signal
    const feature = await findFeature(deps.sql, org.id, c.req.param('featureId'))
    if (!feature) throw notFound(FEATURE_ERRORS.notFound)
    const { timezone } = await getOrgSettings(deps.sql, org.id)
    if (!isKnownZone(timezone)) deps.logger.warn({ orgId: org.id, timezone }, 'feature report: unknown time zone in settings, counting in UTC')
    try {
      const outcome = await runFeatureQuery(deps.events, {
        orgId: org.id,
        events: feature.events,
        query: c.req.valid('json'),
        now: deps.now(),
        timezone: isKnownZone(timezone) ? timezone : 'UTC',
        signal,
      })
      if (!outcome.ok) throw new ApiError(400, outcome.errors[0]!.message, outcome.errors)
      return c.json(outcome.result)
    } catch (err) {
      // 499: nginx's "client closed request"; the client is gone and reads nothing.
      if (signal.aborted) return new Response(null, { status: 499 })
      if ((err as { type?: unknown }).type === 'TIMEOUT_EXCEEDED') throw new ApiError(503, METRIC_TOO_SLOW)
      throw err
    }
  })

  return app
}
