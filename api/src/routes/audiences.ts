import { Hono } from 'hono'
import {
  AUDIENCE_ERRORS,
  audienceFiltersSchema,
  createAudienceSchema,
  EMPTY_FILTERS,
  previewAudienceSchema,
  updateAudienceSchema,
  type AudienceDetail,
  type AudienceFilters,
  type AudienceList,
  type CreatedAudience,
} from '@fl0/contracts'
import { createAudience, deleteAudience, findAudience, listAudiences, updateAudience, type AudienceRow } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'
import { AudienceFilterError, countAudience, planAudience, previewAudience } from '@fl0/query'
import { audienceMembersCsv, csvDisposition } from '../audiences/members-csv.ts'

/** Stored filters as the api reads them now; filters an older version saved that no longer read are none. */
function storedFilters(row: AudienceRow): AudienceFilters {
  const parsed = audienceFiltersSchema.safeParse(row.filters)
  return parsed.success ? parsed.data : EMPTY_FILTERS
}

/** A loop or too deep a nesting: 400 on the filters, said plainly. */
function refusal(err: unknown): never {
  if (err instanceof AudienceFilterError) throw fieldError(err.field, err.message)
  throw err
}

/** At most this many audiences counted at once: each count reads the organisation's events. */
const COUNT_CONCURRENCY = 2

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/**
 * /api/orgs/{organization}/audiences (part 3 §7): the list with each
 * audience's members counted now, one audience read, created, changed
 * (filters, name and description, or all three) and deleted, and the
 * preview of any filters (POST /filters), and every member as CSV
 * (GET /{audienceId}/members.csv). Every member may do each (part 3
 * §6 has no roles here). Another organisation's audience, or none, is a 404
 * 'Audience not found'.
 *
 * Mounted after the trait look-ups (routes/lookups.ts), which answer
 * GET .../audiences/traits before /:audienceId could.
 */
export function createAudiencesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const org = currentOrg(c)
    const now = deps.now()
    const rows = await listAudiences(deps.sql, org.id)
    const audiences = await mapLimited(rows, COUNT_CONCURRENCY, async (a) => {
      // An audience caught in a loop (two saves at once can make one) counts no one rather than failing the list.
      const counts = await countAudience(deps, { orgId: org.id, filters: storedFilters(a), now, within: [a.id] }).catch((err: unknown) => {
        if (err instanceof AudienceFilterError) return { users: 0, companies: 0 }
        throw err
      })
      return { id: a.id, name: a.name, description: a.description, userCount: counts.users, companyCount: counts.companies }
    })
    return c.json({ audiences } satisfies AudienceList)
  })

  app.post('/', jsonBody(createAudienceSchema), async (c) => {
    const org = currentOrg(c)
    const { name, description } = c.req.valid('json')
    const audience = await createAudience(deps.sql, { orgId: org.id, name, description })
    deps.logger.info({ orgId: org.id, audienceId: audience.id, by: sessionUser(c).id }, 'audience created')
    return c.json({ audience_id: audience.id } satisfies CreatedAudience, 201)
  })

  app.post('/filters', jsonBody(previewAudienceSchema), async (c) => {
    const { filters, page } = c.req.valid('json')
    const results = await previewAudience(deps, { orgId: currentOrg(c).id, filters, page, now: deps.now() }).catch(refusal)
    return c.json(results)
  })

  app.get('/:audienceId', async (c) => {
    const audience = await findAudience(deps.sql, currentOrg(c).id, c.req.param('audienceId'))
    if (!audience) throw notFound(AUDIENCE_ERRORS.notFound)
    const { id, name, description } = audience
    return c.json({ audience: { id, name, description, filters: storedFilters(audience) } } satisfies AudienceDetail)
  })

  // Every member as CSV (?of=users, the default, or ?of=companies), for the audience page's download.
  app.get('/:audienceId/members.csv', async (c) => {
    const org = currentOrg(c)
    const audience = await findAudience(deps.sql, org.id, c.req.param('audienceId'))
    if (!audience) throw notFound(AUDIENCE_ERRORS.notFound)
    const of = c.req.query('of') === 'companies' ? 'companies' : 'users'
    const csv = await audienceMembersCsv(deps, { orgId: org.id, audienceId: audience.id, filters: storedFilters(audience), of }).catch(refusal)
    deps.logger.info({ orgId: org.id, audienceId: audience.id, of, by: sessionUser(c).id }, 'audience exported')
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': csvDisposition(audience.name, of), 'cache-control': 'no-store' })
  })

  app.patch('/:audienceId', jsonBody(updateAudienceSchema), async (c) => {
    const org = currentOrg(c)
    const id = c.req.param('audienceId')
    const changes = c.req.valid('json')
    const saved = await deps.sql
      .transaction(async (tx) => {
        // One save of an organisation's audiences at a time, so two saves cannot each pass the loop check and make a loop together.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`audiences:${org.id}`])
        if (!(await findAudience(tx, org.id, id))) return undefined
        if (changes.filters) await planAudience({ sql: tx }, { orgId: org.id, filters: changes.filters, now: deps.now(), within: [id] })
        return updateAudience(tx, org.id, id, changes)
      })
      .catch(refusal)
    if (!saved) throw notFound(AUDIENCE_ERRORS.notFound)
    return c.json({ audience: { id: saved.id, name: saved.name, description: saved.description, filters: storedFilters(saved) } } satisfies AudienceDetail)
  })

  app.delete('/:audienceId', async (c) => {
    const org = currentOrg(c)
    const deleted = await deleteAudience(deps.sql, org.id, c.req.param('audienceId'))
    if (!deleted) throw notFound(AUDIENCE_ERRORS.notFound)
    deps.logger.info({ orgId: org.id, audienceId: deleted.id, by: sessionUser(c).id }, 'audience deleted')
    return c.body(null, 204)
  })

  return app
}
