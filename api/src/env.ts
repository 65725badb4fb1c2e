import type { Organisation, OrgRole, User } from '@fl0/stores'

/**
 * What the guard puts on the context. `user` is set on every route that needs a
 * session, `org` and `role` on every organisation route; handlers read them
 * through the accessors in guard/index.ts, which fail closed if they are missing.
 */
export interface ApiEnv {
  Variables: {
    user: User
    org: Organisation
    role: OrgRole
  }
}
