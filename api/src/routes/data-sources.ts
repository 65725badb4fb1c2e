import { Hono, type Context } from 'hono'
import { saveDataSourcesSchema, SOURCE_DEFAULT_NAMES, type DataSourcesRecord } from '@fl0/contracts'
import { createSource, listSources, updateSource, type Source } from '@fl0/stores'
import { snippetCode } from '@fl0/snippet'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg } from '../guard/index.ts'
import { snippetHost } from './snippet-host.ts'

/**
 * /api-v2/orgs/{organization}/data-sources: the organisation's website snippet,
 * its domain and the code to paste. The page shows the code at once, so the
 * first read makes the snippet source (named 'js-snippet') if there is none;
 * saving the domain updates that same source.
 */
export function createDataSourcesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  async function snippetSource(orgId: string): Promise<Source> {
    const existing = (await listSources(deps.sql, orgId)).find((s) => s.type === 'snippet')
    return existing ?? createSource(deps.sql, { orgId, type: 'snippet', name: SOURCE_DEFAULT_NAMES.snippet })
  }

  const view = (c: Context<ApiEnv>, source: Source): DataSourcesRecord => ({
    domain: source.url ?? '',
    snippet: snippetCode(source.write_key, { apiHost: snippetHost(deps, c) }),
  })

  app.get('/', async (c) => c.json(view(c, await snippetSource(currentOrg(c).id))))

  app.post('/save-data-sources', jsonBody(saveDataSourcesSchema), async (c) => {
    const org = currentOrg(c)
    const source = await snippetSource(org.id)
    const saved = await updateSource(deps.sql, org.id, source.id, { url: c.req.valid('json').domain })
    return c.json(view(c, saved ?? source))
  })

  return app
}
