import { Hono } from 'hono'
import { adminUserPatchSchema, IDENTIFICATION_TEXT } from '@fl0/contracts'
import { findAdminJob, listAdminJobs, listOrganisations, listUsers, setStaff } from '@fl0/stores'
import { filterOf, pageOf } from '../admin/grids/page.ts'
import { ipRangesTable } from '../admin/grids/ip-ranges.ts'
import { pagesTable } from '../admin/grids/pages.ts'
import { peopleTable } from '../admin/grids/people.ts'
import { summaryTable } from '../admin/grids/summary.ts'
import { universalTable } from '../admin/grids/universal.ts'
import { visitsTable } from '../admin/grids/visits.ts'
import { jobOf } from '@fl0/workers'
import { followUniversalImport, runImport, runRefresh, runUniversalImport } from '../admin/tools.ts'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { sessionUser } from '../guard/index.ts'

export const LAST_STAFF = 'fl0 must keep at least one staff member'

const userView = (u: { id: string; name: string; email: string; is_staff: boolean }) => ({ id: u.id, name: u.name, email: u.email, isStaff: u.is_staff })

/**
 * /api-v2/admin: staff only (the guard answers 403 to anyone else). The
 * admin area's grids, each a page of 20 as { data, total }, and its Tools
 * (imports, refreshes, the copy) run as jobs: docs/identification.md.
 */
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

  const client = deps.events.client
  app.get('/summary', async (c) => c.json(await summaryTable(client, deps.sql)))
  app.get('/universal-table', async (c) => c.json(await universalTable(client, filterOf(c.req.query('upId')), pageOf(c.req.query('page')))))
  app.get('/identified-visits-table', async (c) => c.json(await visitsTable(client, filterOf(c.req.query('orgId')), pageOf(c.req.query('page')))))
  app.get('/pages-table', async (c) => c.json(await pagesTable(client, filterOf(c.req.query('orgId')), pageOf(c.req.query('page')))))
  app.get('/people-table', async (c) =>
    c.json(
      await peopleTable(
        client,
        { orgId: filterOf(c.req.query('orgId')), showIp2Company: c.req.query('showIp2Company') === 'true', name: filterOf(c.req.query('name')) },
        pageOf(c.req.query('page')),
      ),
    ),
  )
  app.get('/ip-to-company-table', async (c) =>
    c.json(await ipRangesTable(client, { ipAddress: filterOf(c.req.query('ipAddress')), orgId: filterOf(c.req.query('orgId')) }, pageOf(c.req.query('page')))),
  )

  app.post('/import-cookies', (c) => runImport(deps, c, 'import-cookies'))
  app.post('/import-ip-to-company', (c) => runImport(deps, c, 'import-ip-to-company'))
  app.post('/import-business-intents', (c) => runImport(deps, c, 'import-business-intents'))
  app.post('/refresh-sessions', (c) => runRefresh(deps, c, 'refresh-sessions'))
  app.post('/refresh-pages-and-activities', (c) => runRefresh(deps, c, 'refresh-pages-and-activities'))
  app.post('/copy-pages-to-supabase', (c) => runRefresh(deps, c, 'copy-pages-to-supabase'))
  app.post('/universal-table/import', (c) => runUniversalImport(deps, c))
  app.get('/universal-table/import', (c) => followUniversalImport(deps, c))

  app.get('/jobs', async (c) => {
    const { limit, offset } = pageOf(c.req.query('page'))
    const { rows, total } = await listAdminJobs(deps.sql, { limit, offset })
    return c.json({ data: rows.map(jobOf), total })
  })
  app.get('/jobs/:id', async (c) => {
    const job = await findAdminJob(deps.sql, c.req.param('id'))
    if (!job) throw notFound(IDENTIFICATION_TEXT.jobNotFound)
    return c.json(jobOf(job))
  })

  return app
}
