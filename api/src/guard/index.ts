import { secretId } from '../auth/secrets.ts'
import type { Context, MiddlewareHandler } from 'hono'
import { findMembership, findSessionUser, type Organisation, type OrgRole, type User } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { forbidden, notFound, unauthorized } from '../http/errors.ts'
import { readSessionCookie } from '../http/session-cookie.ts'
import { accessFor, orgCodeOf } from './policy.ts'

export { accessFor } from './policy.ts'

export const ORG_NOT_FOUND = 'Organization not found'
export const ADMINS_ONLY = 'Only organization admins can do this'
export const STAFF_ONLY = 'Only staff can do this'

/**
 * The guard: mounted once on /api/* and /api-v2/* ahead of every router, so no
 * route can be reached around it. No session: 401. /…/orgs/{organization}/* for
 * anyone but a member: 404 with the same body whether the organisation exists
 * or not. /api-v2/admin/* for anyone but staff: 403. Organisation admin-only
 * calls add `requireOrgAdmin` on the route (403 for members).
 */
export function createGuard(deps: ApiDeps): MiddlewareHandler<ApiEnv> {
  return async function guard(c, next) {
    const access = accessFor(c.req.method, c.req.path)
    if (access === 'public') return next()
    const secret = readSessionCookie(c)
    const user = secret ? await findSessionUser(deps.sql, secretId(secret), deps.now()) : undefined
    if (!user) throw unauthorized()
    c.set('user', user)
    if (access === 'staff' && !user.is_staff) throw forbidden(STAFF_ONLY)
    if (access === 'member') {
      const code = orgCodeOf(c.req.path)
      const membership = code ? await findMembership(deps.sql, code, user.id) : undefined
      if (!membership) throw notFound(ORG_NOT_FOUND)
      c.set('org', membership.org)
      c.set('role', membership.role)
    }
    return next()
  }
}

/** On an organisation route: admins only (403 for members). */
export const requireOrgAdmin: MiddlewareHandler<ApiEnv> = async function requireOrgAdmin(c, next) {
  if (orgRole(c) !== 'admin') throw forbidden(ADMINS_ONLY)
  return next()
}

/** The signed-in user; throws 401 if the guard did not set one (a route mounted outside the guard fails closed). */
export function sessionUser(c: Context<ApiEnv>): User {
  const user = c.get('user')
  if (!user) throw unauthorized()
  return user
}

export function currentOrg(c: Context<ApiEnv>): Organisation {
  const org = c.get('org')
  if (!org) throw notFound(ORG_NOT_FOUND)
  return org
}

export function orgRole(c: Context<ApiEnv>): OrgRole {
  const role = c.get('role')
  if (!role) throw notFound(ORG_NOT_FOUND)
  return role
}
