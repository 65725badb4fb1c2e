import { Link } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { usePeoplePaths } from './paths.ts'

/** An address below people/ (or people-ai/) that names nothing: said so under the People heading, with the way back. */
export default function PeopleNotFound() {
  const paths = usePeoplePaths()
  return (
    <div className="p-8">
      <Heading>{PEOPLE_TEXT.heading}</Heading>
      <ErrorPanel message="Page not found" />
      <Link to={paths.base} className="m-4 inline-block text-sm text-indigo-700 hover:underline">
        ← {PEOPLE_TEXT.backToPeople}
      </Link>
    </div>
  )
}
