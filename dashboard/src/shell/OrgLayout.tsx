import { useEffect } from 'react'
import { Link, Outlet, useMatches, useParams } from 'react-router'
import { useCurrentUser, useSavePreferences } from '../session/user.ts'
import { Menu } from './Menu.tsx'

/** Route handle: a screen that hides the left menu (part 1 §2). */
export interface RouteHandle {
  hideMenu?: boolean
}

/**
 * The shell of every organisation screen. Opening an organisation makes it the
 * default one (defaultOrgUrlCode), so '/' returns to where the user was.
 */
export function OrgLayout() {
  const { organization = '' } = useParams()
  const user = useCurrentUser()
  const savePreferences = useSavePreferences()
  const hideMenu = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.hideMenu)
  const member = user.orgs.some((o) => o.url_code === organization)

  useEffect(() => {
    if (member && user.preferences.defaultOrgUrlCode !== organization) void savePreferences({ defaultOrgUrlCode: organization })
  }, [member, organization, user.preferences.defaultOrgUrlCode, savePreferences])

  if (!member) {
    return (
      <main className="mx-auto max-w-lg p-10 text-center">
        <h1 className="text-xl font-semibold">Organization not found</h1>
        <Link to="/" className="mt-4 inline-block text-indigo-700 underline">
          Go to your organization
        </Link>
      </main>
    )
  }
  return (
    <div className="flex h-screen">
      {!hideMenu && <Menu org={organization} />}
      <main className="min-w-0 flex-1 overflow-y-auto">
        <Outlet />
      </main>
    </div>
  )
}
