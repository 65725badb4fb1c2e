import { Hono } from 'hono'
import { createOrgSchema, type CreateOrgResponse } from '@fl0/contracts'
import { createOrganisation } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { jsonBody } from '../http/validate.ts'
import { sessionUser } from '../guard/index.ts'

/**
 * POST /api/orgs { name, variant }: rule set A for the 'Create your Organization'
 * form, B for the create modal; answers the new url_code. The creator is its admin.
 */
export function createOrgsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.post('/', jsonBody(createOrgSchema), async (c) => {
    const user = sessionUser(c)
    const { name } = c.req.valid('json')
    const org = await createOrganisation(deps.sql, name, { adminUserId: user.id })
    deps.logger.info({ orgId: org.id, userId: user.id }, 'organisation created')
    const body: CreateOrgResponse = { url_code: org.url_code }
    return c.json(body, 201)
  })

  return app
}
