import { Link, NavLink, Outlet } from 'react-router'
import { useCurrentUser } from '../../session/user.ts'
import { ADMIN_TEXT } from './text.ts'

/** The admin area's sub-routes (part 1 §2), each with its heading. */
export const ADMIN_ROUTES = [
  { path: '', label: 'Tools' },
  { path: 'people-table', label: 'People table' },
  { path: 'universal-table', label: 'Universal table' },
  { path: 'pages-table', label: 'Pages table' },
  { path: 'identified-visits-table', label: 'Identified visits table' },
  { path: 'ip-to-company-table', label: 'ip_to_company table' },
  { path: 'handle-callback', label: 'Handle callback' },
  { path: 'summary', label: 'Summary' },
] as const

/** What a signed-in member who is not staff sees at /admin: a plain refusal, and the way back. */
function StaffOnly() {
  return (
    <main className="mx-auto max-w-lg p-10 text-center">
      <h1 className="text-xl font-semibold">Admin area</h1>
      <p role="alert" className="mt-3 text-slate-700">
        {ADMIN_TEXT.refused}
      </p>
      <Link to="/" className="mt-4 inline-block text-indigo-700 underline">
        Go home
      </Link>
    </main>
  )
}

/** /admin with its own left menu; staff only (the server refuses /api-v2/admin/* to anyone else too). */
export default function AdminLayout() {
  const user = useCurrentUser()
  if (!user.isStaff) return <StaffOnly />
  return (
    <div className="flex h-screen">
      <aside aria-label="Admin menu" className="w-60 shrink-0 border-r border-slate-200 bg-white p-2">
        <div className="flex items-baseline justify-between px-3 py-2">
          <span className="text-sm font-semibold">Admin</span>
          <Link to="/" className="text-xs text-slate-500 hover:text-indigo-700">
            ← Back to fl0
          </Link>
        </div>
        <nav aria-label="Admin sections">
          {ADMIN_ROUTES.map((r) => (
            <NavLink
              key={r.path}
              end
              to={`/admin${r.path ? `/${r.path}` : ''}`}
              className={({ isActive }) => `block rounded-md px-3 py-2 text-sm ${isActive ? 'bg-indigo-50 font-medium text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              {r.label}
            </NavLink>
          ))}
        </nav>
      </aside>
      <main className="min-w-0 flex-1 overflow-y-auto">
        <Outlet />
      </main>
    </div>
  )
}
