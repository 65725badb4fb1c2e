import { useEffect, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useApi } from '../../api/context.tsx'
import { ApiError, isSilentError, messageOf } from '../../api/errors.ts'
import type { CurrentUser } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { useSetCurrentUser } from '../../session/user.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { AuthCard } from '../account/AuthCard.tsx'

/**
 * /invitations/{token}: the link an invitee follows. Signed out, it offers
 * sign-up or sign-in and comes back here; signed in, Accept joins the
 * organisation and opens it.
 */
export default function AcceptInvitation() {
  const { token = '' } = useParams()
  const api = useApi()
  const navigate = useNavigate()
  const setUser = useSetCurrentUser()
  const snackbar = useSnackbar()
  const [me, setMe] = useState<CurrentUser | null | undefined>(undefined)
  const [accepting, setAccepting] = useState(false)
  const invitation = useFetch((signal) => api.invitations.get(token, signal), [token])

  useEffect(() => {
    const controller = new AbortController()
    api.me.get(controller.signal).then(setMe, (error) => {
      if (!controller.signal.aborted && error instanceof ApiError && error.status === 401) setMe(null)
    })
    return () => controller.abort()
  }, [api])

  const accept = async () => {
    setAccepting(true)
    try {
      const { url_code } = await api.invitations.accept(token)
      setUser(null)
      navigate(`/organizations/${encodeURIComponent(url_code)}`, { replace: true })
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
      setAccepting(false)
    }
  }

  const next = `/invitations/${encodeURIComponent(token)}`
  return (
    <FetchView fetched={invitation}>
      {(info) => (
        <AuthCard title={`Join ${info.organization.name}`}>
          {info.status === 'expired' ? (
            <p className="text-sm text-slate-700">This invitation has expired. Ask an admin of {info.organization.name} for a new one.</p>
          ) : info.status === 'accepted' ? (
            <p className="text-sm text-slate-700">This invitation has already been accepted.</p>
          ) : (
            <>
              <p className="text-sm text-slate-700">
                You have been invited to join {info.organization.name} as {info.email}.
              </p>
              {me === undefined ? null : me ? (
                <Button className="w-full" loading={accepting} onClick={accept}>
                  Accept invitation
                </Button>
              ) : (
                <div className="flex gap-2">
                  <Link className="flex-1 rounded-md bg-indigo-600 px-3 py-2 text-center text-sm font-medium text-white" to={`/account/sign-up?${new URLSearchParams({ next, email: info.email })}`}>
                    Sign up
                  </Link>
                  <Link className="flex-1 rounded-md border border-slate-300 px-3 py-2 text-center text-sm font-medium" to={`/account/sign-in?${new URLSearchParams({ next, email: info.email })}`}>
                    Sign in
                  </Link>
                </div>
              )}
            </>
          )}
        </AuthCard>
      )}
    </FetchView>
  )
}
