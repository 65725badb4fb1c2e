/**
 * Who may call a path: decided here, for every /api and /api-v2 path, before any
 * router sees the request. Deny by default: a path that is neither listed as
 * public nor matched below needs a session, so a new route is protected
 * before anyone thinks about it.
 *
 * - public: the sign-in calls, the built-in provider, and reading an invitation
 *   (the invitee has no account yet).
 * - member: /api/orgs/{organization}/* and /api-v2/orgs/{organization}/*.
 * - staff: /api-v2/admin/*.
 * - session: everything else (current user, creating an organisation, accepting an invitation).
 */
export type Access = 'public' | 'session' | 'member' | 'staff'

const PUBLIC: Array<[method: string, path: RegExp]> = [
  ['*', /^\/api\/auth(\/|$)/],
  ['POST', /^\/api\/sign-in$/],
  ['POST', /^\/api\/sign-out$/],
  ['GET', /^\/api\/invitations\/[^/]+$/],
]

const ORG_PATH = /^\/api(?:-v2)?\/orgs\/([^/]+)(?:\/|$)/
const STAFF_PATH = /^\/api-v2\/admin(?:\/|$)/

export function accessFor(method: string, path: string): Access {
  const m = method === 'HEAD' ? 'GET' : method
  if (PUBLIC.some(([pm, re]) => (pm === '*' || pm === m) && re.test(path))) return 'public'
  if (ORG_PATH.test(path)) return 'member'
  if (STAFF_PATH.test(path)) return 'staff'
  return 'session'
}

/** The {organization} url_code of an organisation path. */
export function orgCodeOf(path: string): string | undefined {
  const code = ORG_PATH.exec(path)?.[1]
  return code === undefined ? undefined : code
}
