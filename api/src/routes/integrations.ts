import { Hono } from 'hono'
import { INTEGRATIONS_TEXT, type ParagonUser } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError } from '../http/errors.ts'
import { sessionUser } from '../guard/index.ts'
import { signParagonUserToken } from '../integrations/paragon.ts'

/**
 * /api-v2/orgs/{organization}/integrations: the signed-in user's token for
 * Paragon's Connect SDK (integrations/paragon.ts), with the project id and the
 * SDK's address the screen needs to load and call it.
 *
 * Without a Paragon project configured the answer is a 404 whose message names
 * the settings to make: there is nothing to integrate with on this server. (Not
 * a 5xx: nothing failed, and a 5xx would read as fl0 being broken.)
 */
export function createIntegrationsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/paragon-user', async (c) => {
    const paragon = deps.paragon
    if (!paragon) throw new ApiError(404, INTEGRATIONS_TEXT.notConfigured)
    const { token, expiresAt } = await signParagonUserToken(paragon, sessionUser(c).id, deps.now())
    // A bearer credential: never kept by a cache on the way.
    c.header('Cache-Control', 'no-store')
    return c.json({ token, projectId: paragon.projectId, sdkUrl: paragon.sdkUrl, expiresAt: expiresAt.toISOString() } satisfies ParagonUser)
  })

  return app
}
