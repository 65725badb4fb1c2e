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

  /**
   * The built-in provider's token, left by the sign-in screen; or an external
   * provider's: from its answer in this address, else silently, else by its
   * sign-in page. null: nothing to do here (the hidden frame of a silent sign-in,
   * or a redirect to the provider is under way).
   */
  const obtainToken = async (): Promise<string | null | undefined> => {
    const token = idToken.take()
    if (token) return token
    const config = await api.auth.config()
    if (config.provider !== 'oidc') return undefined
    const oidc = await import('../../session/oidc.ts')
    const external = oidc.oidcOf(config)
    if (!external) return undefined
    if (oidc.isProviderAnswer()) {
      const answer = await oidc.finishSignIn(external)
      return answer ?? (window.parent !== window ? null : undefined)
    }
    const silent = await oidc.signInSilently(external)
    if (silent) return silent
    await oidc.signInWithRedirect(external)
    return null
  }

  useEffect(() => {
    // Once only: the token is taken from storage on the first run (StrictMode runs effects twice).
    if (started.current) return
    started.current = true
    obtainToken().then((token) => {
      if (token === null) return
      if (!token) throw new Error('no token')
      return api.auth.signIn(token)
    }).then(
      (signedIn) => {
        if (!signedIn) return
        // RequireUser loads the full user (preferences, organisations) on the next screen.
        setUser(null)
        navigate(afterSignIn.take(), { replace: true })
      },
      () => setFailed(true),
    )
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
