import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { SIGN_IN_FAILED } from '@fl0/contracts/auth'
import type { AuthConfig } from '../../api/types.ts'
import { idToken } from '../../session/token.ts'
import { Spinner } from '../../ui/Spinner.tsx'
import { AuthCard } from './AuthCard.tsx'

/**
 * Sign-in with an external provider: silently if it still has a session,
 * else by its own sign-in page. Either way the token ends at account/callback.
 */
export function ExternalSignIn({ config }: { config: AuthConfig }) {
  const navigate = useNavigate()
  const [failed, setFailed] = useState(false)
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    void (async () => {
      const oidc = await import('../../session/oidc.ts')
      const external = oidc.oidcOf(config)
      if (!external) return setFailed(true)
      const token = await oidc.signInSilently(external)
      if (token) {
        idToken.set(token)
        navigate('/account/callback', { replace: true })
      } else await oidc.signInWithRedirect(external)
    })().catch(() => setFailed(true))
  }, [config, navigate])
  if (!failed) return <Spinner label="Signing in" />
  return (
    <AuthCard title="Sign in">
      <p role="alert" className="text-sm text-red-700">
        {SIGN_IN_FAILED}
      </p>
    </AuthCard>
  )
}
