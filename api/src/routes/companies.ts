import { Hono, type Context } from 'hono'
import { COMPANY_TEXT } from '@fl0/contracts/companies'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { currentOrg } from '../guard/index.ts'
import { notFound } from '../http/errors.ts'
import { companyAnalytics, companyDetail, companyDetails, companyVisitors } from '../companies/company.ts'
import { companyById, findCompanyRef } from '../companies/lookup.ts'

/**
 * /api-v2/orgs/{organization}/companies/{company}, {company} being the
 * company's domain or its id (the group id an audience's Companies tab
 * lists): the company page (part 1 §7) and one sub-route per tab whose
 * content the specification leaves to fl0 (contracts/companies.ts). Who
 * belongs to a company is decided in companies/members.ts.
 *
 * GET .../companies/by-id/{id}: an id's domain and name, for the links and
 * the company profile (people/companies/{companyId}) opened by id. Each reads
 * the caller's organisation only: another organisation's id is a 404.
 */
export function createCompaniesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  /** The domain the address names; what is neither a domain nor a known id goes on as typed, for the page to refuse (400). */
  async function domainOf(c: Context<ApiEnv>): Promise<string> {
    const key = c.req.param('company') ?? ''
    const ref = await findCompanyRef(deps.events.client, currentOrg(c).id, key)
    return ref?.domain ?? key
  }

  app.get('/by-id/:id', async (c) => {
    const id = c.req.param('id')
    const ref = await companyById(deps.events.client, currentOrg(c).id, id)
    if (!ref) throw notFound(COMPANY_TEXT.notFound(id))
    return c.json(ref)
  })
  app.get('/:company', async (c) => c.json(await companyDetail(deps, currentOrg(c).id, await domainOf(c))))
  app.get('/:company/visitors', async (c) => c.json(await companyVisitors(deps, currentOrg(c).id, await domainOf(c))))
  app.get('/:company/analytics', async (c) => c.json(await companyAnalytics(deps, currentOrg(c).id, await domainOf(c))))
  app.get('/:company/details', async (c) => c.json(await companyDetails(deps, currentOrg(c).id, await domainOf(c))))
  return app
}
