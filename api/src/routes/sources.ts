import { Hono, type Context } from 'hono'
import { z } from 'zod'
import {
  createSourceSchema,
  SOURCE_ERRORS,
  SOURCE_METRICS_DAYS,
  toFieldErrors,
  updateSegmentSourceSchema,
  updateSnippetSourceSchema,
  webhookPath,
  type SourceMetrics,
  type SourceView,
} from '@fl0/contracts'
import { createSource, deleteSource, getOrgSettings, getSource, listSources, newId, newWriteKey, sourceIdentifiersInUse, updateSource, type Source } from '@fl0/stores'
import { snippetCode } from '@fl0/snippet'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'
import { snippetHost } from './snippet-host.ts'
import { detectedSources } from '../queries/sources/snippet-detection.ts'
import { sourceTotals } from '../queries/sources/totals.ts'
import { sourceDailyEvents } from '../queries/sources/daily-events.ts'

/** A body the route checks against a schema it picks after reading the source (PATCH). */
function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const errors = toFieldErrors(parsed.error)
  throw new ApiError(400, errors[0]?.message ?? 'Invalid request', errors)
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505'

/**
 * /api/orgs/{organization}/sources (spec part 1 §7): the organisation's sources,
 * one source, its metrics from the events store, create, update and delete.
 * The guard has checked membership before any of this runs; every store call
 * is scoped by the organisation, so another organisation's source id is a 404.
 */
export function createSourcesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  function views(c: Context<ApiEnv>, sources: Source[], detected: Set<string>): SourceView[] {
    const apiHost = snippetHost(deps, c)
    return sources.map((s) =>
      s.type === 'snippet'
        ? { id: s.id, type: 'snippet', name: s.name, api_key: s.write_key, url: s.url ?? '', snippet: snippetCode(s.write_key, { apiHost }), detected: detected.has(s.id) }
        : // The webhook's URL and secret (ingest/src/webhook.ts): members only, as the key is.
          { id: s.id, type: 'segment', name: s.name, api_key: s.write_key, webhook_url: `${apiHost}${webhookPath(s.id)}`, webhook_secret: s.webhook_secret ?? '' },
    )
  }

  async function viewsWithDetection(c: Context<ApiEnv>, orgId: string, sources: Source[]): Promise<SourceView[]> {
    const detected = await detectedSources(deps.events, orgId, sources.filter((s) => s.type === 'snippet'))
    return views(c, sources, detected)
  }

  async function sourceOr404(orgId: string, id: string): Promise<Source> {
    const source = await getSource(deps.sql, orgId, id)
    if (!source) throw notFound(SOURCE_ERRORS.notFound)
    return source
  }

  app.get('/', async (c) => {
    const org = currentOrg(c)
    return c.json(await viewsWithDetection(c, org.id, await listSources(deps.sql, org.id)))
  })

  app.get('/:sourceId', async (c) => {
    const org = currentOrg(c)
    const [view] = await viewsWithDetection(c, org.id, [await sourceOr404(org.id, c.req.param('sourceId'))])
    return c.json(view)
  })

  app.get('/:sourceId/metrics', async (c) => {
    const org = currentOrg(c)
    const source = await sourceOr404(org.id, c.req.param('sourceId'))
    // Days are the organisation's (its settings' time zone), as every date grouping of it.
    const { timezone } = await getOrgSettings(deps.sql, org.id)
    const p = { orgId: org.id, sourceId: source.id }
    const [totals, daily] = await Promise.all([
      sourceTotals(deps.events, p),
      sourceDailyEvents(deps.events, { ...p, timeZone: timezone, now: deps.now(), days: SOURCE_METRICS_DAYS }),
    ])
    const body: SourceMetrics = { ...totals, total_30d: daily }
    return c.json(body)
  })

  app.post('/', jsonBody(createSourceSchema), async (c) => {
    const org = currentOrg(c)
    const body = c.req.valid('json')
    // The id and key the defaults call handed out come back from the client: they
    // must have the store's shape (checked by the schema) and never have named a
    // source, here or in any organisation, live or deleted.
    const used = await sourceIdentifiersInUse(deps.sql, { id: body.id, writeKey: body.apiKey })
    if (used.id) throw fieldError('id', SOURCE_ERRORS.idTaken, 409)
    if (used.writeKey) throw fieldError('apiKey', SOURCE_ERRORS.apiKeyTaken, 409)
    let source: Source
    try {
      source = await createSource(deps.sql, {
        orgId: org.id,
        type: body.type,
        name: body.name,
        url: body.type === 'snippet' ? body.url : null,
        id: body.id ?? newId(),
        writeKey: body.apiKey ?? newWriteKey(),
      })
    } catch (error) {
      // Two creations with the same identifiers at once: the second loses here,
      // told which of the two the first one took.
      if (!isUniqueViolation(error)) throw error
      const taken = await sourceIdentifiersInUse(deps.sql, { id: body.id, writeKey: body.apiKey })
      throw taken.writeKey && !taken.id ? fieldError('apiKey', SOURCE_ERRORS.apiKeyTaken, 409) : fieldError('id', SOURCE_ERRORS.idTaken, 409)
    }
    // The snippet may have been pasted before saving: drop the ingest's cached 'unknown key' answer so it is taken at once.
    deps.revokeWriteKey?.(source.write_key)
    deps.revokeWebhook?.(source.id)
    deps.logger.info({ orgId: org.id, sourceId: source.id, type: source.type, by: sessionUser(c).id }, 'source created')
    const [view] = await viewsWithDetection(c, org.id, [source])
    return c.json(view, 201)
  })

  app.patch('/:sourceId', jsonBody(z.looseObject({})), async (c) => {
    const org = currentOrg(c)
    const source = await sourceOr404(org.id, c.req.param('sourceId'))
    const raw = c.req.valid('json')
    // Segment: the name; snippet: the name and the domain (part 1 §7).
    const changes = source.type === 'snippet' ? parseOr400(updateSnippetSourceSchema, raw) : parseOr400(updateSegmentSourceSchema, raw)
    const saved = await updateSource(deps.sql, org.id, source.id, changes)
    if (!saved) throw notFound(SOURCE_ERRORS.notFound)
    const [view] = await viewsWithDetection(c, org.id, [saved])
    return c.json(view)
  })

  app.delete('/:sourceId', async (c) => {
    const org = currentOrg(c)
    const source = await deleteSource(deps.sql, org.id, c.req.param('sourceId'))
    if (!source) throw notFound(SOURCE_ERRORS.notFound)
    // The ingest in this process forgets the key now, rather than when its cache expires.
    deps.revokeWriteKey?.(source.write_key)
    deps.revokeWebhook?.(source.id)
    deps.logger.info({ orgId: org.id, sourceId: source.id, by: sessionUser(c).id }, 'source deleted, write key and webhook revoked')
    return c.body(null, 204)
  })

  return app
}
