import { Hono } from 'hono'
import { preferencesPatchSchema, type CurrentUser, type Preferences } from '@fl0/contracts'
import { getPreferences, listUserOrgs, savePreferences, type Sql, type StoredPreferences, type User } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { sessionUser } from '../guard/index.ts'

export const NOT_A_MEMBER = 'You are not a member of this organization'

const preferencesView = (p: StoredPreferences): Preferences => ({ isMenuCollapsed: p.is_menu_collapsed, defaultOrgUrlCode: p.default_org_url_code })

export async function currentUserView(sql: Sql, user: User): Promise<CurrentUser> {
  const [preferences, orgs] = await Promise.all([getPreferences(sql, user.id), listUserOrgs(sql, user.id)])
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    isStaff: user.is_staff,
    preferences: preferencesView(preferences),
    orgs: orgs.map((o) => ({ id: o.id, name: o.name, url_code: o.url_code, role: o.role })),
  }
}

/** /api/users: the current user and their preferences. */
export function createUsersRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/me', async (c) => c.json(await currentUserView(deps.sql, sessionUser(c))))

  app.patch('/me/preferences', jsonBody(preferencesPatchSchema), async (c) => {
    const user = sessionUser(c)
    const patch = c.req.valid('json')
    const stored: Partial<StoredPreferences> = {}
    if (patch.isMenuCollapsed !== undefined) stored.is_menu_collapsed = patch.isMenuCollapsed
    if (patch.defaultOrgUrlCode !== undefined) {
      // A default the user cannot open would send them to a 404 on every visit.
      if (patch.defaultOrgUrlCode !== null && !(await listUserOrgs(deps.sql, user.id)).some((o) => o.url_code === patch.defaultOrgUrlCode)) {
        throw fieldError('defaultOrgUrlCode', NOT_A_MEMBER)
      }
      stored.default_org_url_code = patch.defaultOrgUrlCode
    }
    return c.json({ preferences: preferencesView(await savePreferences(deps.sql, user.id, stored)) })
  })

  return app
}
