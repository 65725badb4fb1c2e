import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import type { Fetched } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { usePeoplePaths } from '../people/paths.ts'

/** A profile's page, a user's or a company's: the way back to people, then the profile once fetched. */
export function ProfilePage<T>({ fetched, children }: { fetched: Fetched<T>; children: (profile: T) => ReactNode }) {
  const paths = usePeoplePaths()
  return (
    <div className="space-y-5 p-8">
      <Link to={paths.base} className="text-sm text-indigo-700 hover:underline">
        ← {PEOPLE_TEXT.backToPeople}
      </Link>
      <FetchView fetched={fetched}>{children}</FetchView>
    </div>
  )
}
