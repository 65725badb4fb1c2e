import { NavLink, Outlet } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { Heading } from '../../ui/Heading.tsx'
import { usePeoplePaths } from './paths.ts'

/**
 * The people area's frame (part 3 §2 "People area with tabs People and
 * Audiences"): the heading and the two tabs, each an address of its own
 * (people/ and people/audiences), the tab's screen below.
 */
export default function PeopleArea() {
  const paths = usePeoplePaths()
  const tabs = [
    { to: paths.base, label: PEOPLE_TEXT.tabs.people, end: true },
    { to: paths.audiences, label: PEOPLE_TEXT.tabs.audiences, end: false },
  ]
  return (
    <div className="p-8">
      <Heading>{PEOPLE_TEXT.heading}</Heading>
      <nav aria-label="People area" className="mb-6 flex gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <NavLink
            key={t.label}
            to={t.to}
            end={t.end}
            className={({ isActive }) =>
              `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${isActive ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`
            }
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  )
}
