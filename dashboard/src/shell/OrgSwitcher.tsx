import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'
import { useCurrentUser } from '../session/user.ts'
import { Popover } from '../ui/Popover.tsx'

const CreateOrgModal = lazy(() => import('../screens/orgs/CreateOrgModal.tsx'))

function Initial({ name }: { name: string }) {
  return <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-indigo-600 text-sm font-semibold text-white">{name.slice(0, 1).toUpperCase()}</span>
}

/** The organisation switcher at the top of the menu, with 'Create organization...'. */
export function OrgSwitcher({ org, collapsed }: { org: string; collapsed: boolean }) {
  const user = useCurrentUser()
  const [creating, setCreating] = useState(false)
  const current = user.orgs.find((o) => o.url_code === org)
  const name = current?.name ?? org
  return (
    <>
      <Popover
        label="Switch organization"
        buttonClassName="flex w-full items-center gap-2 rounded-md p-1 text-left hover:bg-slate-100"
        button={
          <>
            <Initial name={name} />
            {!collapsed && <span className="truncate text-sm font-semibold">{name}</span>}
          </>
        }
      >
        {(close) => (
          <>
            {user.orgs.map((o) => (
              <Link
                key={o.url_code}
                role="menuitem"
                to={`/organizations/${encodeURIComponent(o.url_code)}`}
                aria-current={o.url_code === org || undefined}
                onClick={close}
                className={`flex items-center gap-2 px-3 py-2 text-sm hover:bg-slate-50 ${o.url_code === org ? 'font-semibold' : ''}`}
              >
                <Initial name={o.name} />
                <span className="truncate">{o.name}</span>
              </Link>
            ))}
            <div className="my-1 border-t border-slate-100" />
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                close()
                setCreating(true)
              }}
              className="w-full px-3 py-2 text-left text-sm text-indigo-700 hover:bg-slate-50"
            >
              Create organization...
            </button>
          </>
        )}
      </Popover>
      {creating && (
        <Suspense fallback={null}>
          <CreateOrgModal onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  )
}
