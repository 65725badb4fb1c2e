import { lazy, Suspense } from 'react'
import { Navigate } from 'react-router'
import { useCurrentUser } from '../../session/user.ts'
import { Spinner } from '../../ui/Spinner.tsx'

const CreateOrgForm = lazy(() => import('./CreateOrgForm.tsx'))

/**
 * '/' and the organisation root (part 1 §2): to the default organisation if the
 * user still belongs to it, else the first one, else 'Create your Organization'.
 */
export function OrgRoot() {
  const user = useCurrentUser()
  const preferred = user.orgs.find((o) => o.url_code === user.preferences.defaultOrgUrlCode) ?? user.orgs[0]
  if (preferred) return <Navigate to={`/organizations/${encodeURIComponent(preferred.url_code)}`} replace />
  return (
    <Suspense fallback={<Spinner />}>
      <CreateOrgForm />
    </Suspense>
  )
}
