import { useEffect, useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { useApi } from '../api/context.tsx'
import { ApiError, isSilentError, messageOf } from '../api/errors.ts'
import { useAtomValue, useSetAtom } from '../state/jotai.ts'
import { ErrorPanel } from '../ui/ErrorPanel.tsx'
import { Spinner } from '../ui/Spinner.tsx'
import { afterSignIn } from './token.ts'
import { currentUserAtom } from './user.ts'

/** Loads the current user for the screens below; without a session, to sign-in. */
export function RequireUser() {
  const api = useApi()
  const user = useAtomValue(currentUserAtom)
  const setUser = useSetAtom(currentUserAtom)
  const [failure, setFailure] = useState<{ unauthorized: boolean; message: string } | null>(null)
  const location = useLocation()

  useEffect(() => {
    if (user) return
    const controller = new AbortController()
    api.me.get(controller.signal).then(setUser, (error) => {
      if (controller.signal.aborted || isSilentError(error)) return
      setFailure({ unauthorized: error instanceof ApiError && error.status === 401, message: messageOf(error) })
    })
    return () => controller.abort()
  }, [api, user, setUser])

  if (failure?.unauthorized) {
    if (location.pathname !== '/') afterSignIn.set(location.pathname + location.search)
    return <Navigate to="/account/sign-in" replace />
  }
  if (failure) return <ErrorPanel message={failure.message} />
  if (!user) return <Spinner />
  return <Outlet />
}
