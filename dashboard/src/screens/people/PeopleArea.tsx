import { Outlet } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { Heading } from '../../ui/Heading.tsx'
import { NavTabs } from '../../ui/Tabs.tsx'
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
      <NavTabs label="People area" tabs={tabs} className="mb-6" />
      <Outlet />
    </div>
  )
}
