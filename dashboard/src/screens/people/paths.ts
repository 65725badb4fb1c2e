import { useLocation, useParams } from 'react-router'

/**
 * Where the people area is mounted: /organizations/{organization}/people, or
 * /people-ai (part 3 §2: the same screens, mounted twice). Links between its
 * screens stay in the mount they start from.
 */
export function peopleBase(pathname: string, organization: string): string {
  const mount = /^\/organizations\/[^/]+\/(people(?:-ai)?)(?:\/|$)/.exec(pathname)?.[1] ?? 'people'
  return `/organizations/${encodeURIComponent(organization)}/${mount}`
}

export function usePeoplePaths() {
  const { organization = '' } = useParams()
  const { pathname } = useLocation()
  const base = peopleBase(pathname, organization)
  return {
    organization,
    base,
    audiences: `${base}/audiences`,
    user: (userId: string) => `${base}/users/${encodeURIComponent(userId)}`,
    userEvents: (userId: string) => `${base}/users/${encodeURIComponent(userId)}/events`,
    companyProfile: (domain: string) => `${base}/companies/${encodeURIComponent(domain)}`,
    /** The company page (part 1 §2), outside the people area. */
    companyPage: (domain: string) => `/organizations/${encodeURIComponent(organization)}/companies/${encodeURIComponent(domain)}`,
  }
}
