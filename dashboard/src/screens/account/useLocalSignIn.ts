import { useNavigate, useSearchParams } from 'react-router'
import { afterSignIn, idToken } from '../../session/token.ts'

/**
 * The built-in provider hands back an ID token; like an external provider's,
 * it goes to account/callback, which registers the session with the server.
 */
export function useFinishSignIn() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  return (token: string) => {
    idToken.set(token)
    const next = params.get('next')
    if (next) afterSignIn.set(next)
    navigate('/account/callback', { replace: true })
  }
}
