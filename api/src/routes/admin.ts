import { Hono } from 'hono'
import { adminUserPatchSchema } from '@fl0/contracts'
import { listOrganisations, listUsers, setStaff } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { sessionUser } from '../guard/index.ts'

export const LAST_STAFF = 'fl0 must keep at least one staff member'

const userView = (u: { id: string; name: string; email: string; is_staff: boolean }) => ({ id: u.id, name: u.name, email: u.email, isStaff: u.is_staff })

/** /api-v2/admin: staff only (the guard answers 403 to anyone else). */
export function createAdminRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  /** The admin grids' organisation picker (part 1 §7). */
  app.get('/orgs', async (c) => c.json((await listOrganisations(deps.sql)).map((o) => ({ value: o.id, text: o.name }))))

  app.get('/users', async (c) => c.json((await listUsers(deps.sql)).map(userView)))

  app.patch('/users/:userId', jsonBody(adminUserPatchSchema), async (c) => {
    const { isStaff } = c.req.valid('json')
    const result = await setStaff(deps.sql, c.req.param('userId'), isStaff)
    if (result === 'last-staff') throw new ApiError(409, LAST_STAFF)
    if (!result) throw notFound('User not found')
    deps.logger.info({ userId: result.id, isStaff, by: sessionUser(c).id }, 'staff flag changed')
    return c.json(userView(result))
  })

  return app
}
