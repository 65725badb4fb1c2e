import { Hono } from 'hono'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { currentOrg } from '../guard/index.ts'
import { companyAnalytics, companyDetail, companyDetails, companyVisitors } from '../companies/company.ts'

/**
 * /api-v2/orgs/{organization}/companies/{company}, {company} being the
 * company's domain: the company page (part 1 §7) and one sub-route per tab
 * whose content the specification leaves to fl0 (contracts/companies.ts).
 * Who belongs to a company is decided in companies/members.ts.
 */
export function createCompaniesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/:company', async (c) => c.json(await companyDetail(deps, currentOrg(c).id, c.req.param('company'))))
  app.get('/:company/visitors', async (c) => c.json(await companyVisitors(deps, currentOrg(c).id, c.req.param('company'))))
  app.get('/:company/analytics', async (c) => c.json(await companyAnalytics(deps, currentOrg(c).id, c.req.param('company'))))
  app.get('/:company/details', async (c) => c.json(await companyDetails(deps, currentOrg(c).id, c.req.param('company'))))
  return app
}
