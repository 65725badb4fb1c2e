import { useState } from 'react'
import { Link } from 'react-router'
import { useApi } from '../api/context.tsx'
import { signOutOnce } from '../session/signOut.ts'
import { useCurrentUser } from '../session/user.ts'
import { Popover } from '../ui/Popover.tsx'
import { Icon } from './icons.tsx'

/**
 * The user menu at the bottom: name, e-mail, Settings and Log out (part 1 §2);
 * for staff (users.is_staff, the rule the API's guard applies to /api-v2/admin/*)
 * an Admin entry too, the only way into the admin area from the screens.
 */
export function UserMenu({ org, collapsed }: { org: string; collapsed: boolean }) {
  const user = useCurrentUser()
  const api = useApi()
  const [leaving, setLeaving] = useState(false)
  const initials = (user.name || user.email)
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase()
  return (
    <Popover
      label="User menu"
      placement="above"
      buttonClassName="flex w-full items-center gap-2 rounded-md p-1 text-left hover:bg-slate-100"
      button={
        <>
          <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700">{initials}</span>
          {!collapsed && (
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium">{user.name}</span>
              <span className="block truncate text-xs text-slate-500">{user.email}</span>
            </span>
          )}
        </>
      }
    >
      {(close) => (
        <>
          <div className="border-b border-slate-100 px-3 py-2">
            <div className="text-sm font-medium">{user.name}</div>
            <div className="text-xs text-slate-500">{user.email}</div>
          </div>
          <Link role="menuitem" to={`/organizations/${encodeURIComponent(org)}/settings`} onClick={close} className="flex items-center gap-2 px-3 py-2 text-sm hover:bg-slate-50">
            <Icon name="settings" className="h-4 w-4" />
            Settings
          </Link>
          {user.isStaff && (
            <Link role="menuitem" to="/admin" onClick={close} className="flex items-center gap-2 px-3 py-2 text-sm hover:bg-slate-50">
              <Icon name="shield" className="h-4 w-4" />
              Admin
            </Link>
          )}
          <button
            type="button"
            role="menuitem"
            disabled={leaving}
            aria-busy={leaving || undefined}
            onClick={() => {
              setLeaving(true)
              void signOutOnce(api)
            }}
            className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-slate-50 disabled:opacity-60"
          >
            {leaving ? <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" /> : <Icon name="logout" className="h-4 w-4" />}
            Log out
          </button>
        </>
      )}
    </Popover>
  )
}
