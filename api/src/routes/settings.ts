import { Hono } from 'hono'
import { saveSettingsSchema, timezoneList, type OrgSettings } from '@fl0/contracts'
import { getOrgSettings, saveOrgSettings, type StoredOrgSettings } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg } from '../guard/index.ts'
import { createCallbackSecretRoutes } from './callback-secret.ts'

/**
 * /api-v2/orgs/{organization}/settings: timezone and company paths. Served to
 * every member whatever the screen's feature flag (contracts/settings.ts); the
 * specification does not say which roles may change them, and the screen shows
 * the controls to every member when the flag is on, so every member may save.
 */
export function createSettingsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  const timezones = timezoneList()
  const view = (s: StoredOrgSettings): OrgSettings => ({ timezone: s.timezone, timezones, companyPaths: s.company_paths })

  app.get('/', async (c) => c.json(view(await getOrgSettings(deps.sql, currentOrg(c).id))))

  app.post('/save-settings', jsonBody(saveSettingsSchema), async (c) => {
    const { timezone, companyPaths } = c.req.valid('json')
    return c.json(view(await saveOrgSettings(deps.sql, currentOrg(c).id, { timezone, company_paths: companyPaths })))
  })

  // The identity callback's secret: not in the specification (routes/callback-secret.ts).
  app.route('/callback-secret', createCallbackSecretRoutes(deps))

  return app
}
