import { lazy, Suspense } from 'react'
import { Navigate } from 'react-router'
import { readToggle } from '../../toggles.ts'
import { Spinner } from '../../ui/Spinner.tsx'

const HomePage = lazy(() => import('../home/HomePage.tsx'))

/**
 * The organisation's home. With the ai toggle, the specification's redirect
 * to /reports (part 1 §2). Without it the specification redirects to /people;
 * issue 22 asks for a page instead, "who visited this week" (screens/home),
 * which links to People.
 */
export function OrgHome() {
  if (readToggle('ai')) return <Navigate to="reports" replace />
  return (
    <Suspense fallback={<Spinner />}>
      <HomePage />
    </Suspense>
  )
}
