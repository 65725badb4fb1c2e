import { Hono } from 'hono'
import type { CallbackSecretState } from '@fl0/contracts'
import { getCallbackSecret, removeCallbackSecret, setCallbackSecret, type CallbackSecretRow } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { currentOrg, requireOrgAdmin, sessionUser } from '../guard/index.ts'
import { setSignedCallbacksOnly } from '../identification/callback-policy.ts'

/**
 * /api-v2/orgs/{organization}/settings/callback-secret: the organisation's
 * secret for signed identity callbacks (docs/identification.md, "Signed
 * callbacks"). The specification has no such setting; it behaves as secrets
 * of this kind do elsewhere:
 * - GET (members): whether one is set, and since when; never the secret.
 * - POST (admins): a new secret, replacing any other at once (rotation), in
 *   this answer only: it is shown once. From then on only callbacks signed
 *   with it are linked to the organisation.
 * - DELETE (admins): no secret; unsigned callbacks count for the organisation
 *   again.
 * The ingest sees a change within its cache's time to live (2 s,
 * ingest/src/callback/secrets.ts); the resolution at once.
 */
export function createCallbackSecretRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  const view = (orgId: string, row: CallbackSecretRow | undefined): CallbackSecretState => ({
    orgId,
    configured: row !== undefined,
    createdAt: row ? row.created_at.toISOString() : null,
  })

  app.get('/', async (c) => {
    const org = currentOrg(c)
    return c.json(view(org.id, await getCallbackSecret(deps.sql, org.id)))
  })

  app.post('/', requireOrgAdmin, async (c) => {
    const org = currentOrg(c)
    const user = sessionUser(c)
    const now = deps.now()
    await setSignedCallbacksOnly(deps.events.client, org.id, true, now)
    const row = await setCallbackSecret(deps.sql, org.id, { createdBy: user.id, now })
    deps.logger.info({ orgId: org.id, userId: user.id }, 'identity callback secret set')
    return c.json({ ...view(org.id, row), secret: row.secret } satisfies CallbackSecretState)
  })

  app.delete('/', requireOrgAdmin, async (c) => {
    const org = currentOrg(c)
    const user = sessionUser(c)
    await setSignedCallbacksOnly(deps.events.client, org.id, false, deps.now())
    if (await removeCallbackSecret(deps.sql, org.id)) deps.logger.info({ orgId: org.id, userId: user.id }, 'identity callback secret removed')
    return c.json(view(org.id, undefined))
  })

  return app
}
