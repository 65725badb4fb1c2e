import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useApi } from '../../api/context.tsx'
import { SIGN_IN_FAILED } from '@fl0/contracts/auth'
import { afterSignIn, idToken } from '../../session/token.ts'
import { useSetCurrentUser } from '../../session/user.ts'
import { Spinner } from '../../ui/Spinner.tsx'
import { AuthCard } from './AuthCard.tsx'

/**
 * account/callback (part 1 §2, §4): posts the ID token to the server, which
 * opens the session, then goes to '/' (or the invitation that sent the user
 * to sign in). Loading meanwhile; 'An error has occurred signing in.' on failure.
 */
export default function Callback() {
  const api = useApi()
  const navigate = useNavigate()
  const setUser = useSetCurrentUser()
  const [failed, setFailed] = useState(false)
  const started = useRef(false)

  useEffect(() => {
    // Once only: the token is taken from storage on the first run (StrictMode runs effects twice).
    if (started.current) return
    started.current = true
    const token = idToken.take()
    if (!token) {
      setFailed(true)
      return
    }
    api.auth.signIn(token).then(
      () => {
        // RequireUser loads the full user (preferences, organisations) on the next screen.
        setUser(null)
        navigate(afterSignIn.take(), { replace: true })
      },
      () => setFailed(true),
    )
  }, [api, navigate, setUser])

  if (!failed) return <Spinner label="Signing in" />
  return (
    <AuthCard title="Sign in">
      <p role="alert" className="text-sm text-red-700">
        {SIGN_IN_FAILED}
      </p>
      <Link to="/account/sign-in" className="text-sm font-medium text-indigo-700 underline">
        Try again
      </Link>
    </AuthCard>
  )
}
