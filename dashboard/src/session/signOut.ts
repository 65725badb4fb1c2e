import type { Api } from '../api/client.ts'
import { idToken } from './token.ts'

/**
 * Sign-out (part 1 §4): the server call (its errors ignored), then out of the
 * identity provider, then back to the site origin, which leads to sign-in.
 * The built-in provider keeps nothing in the browser but the token in transit;
 * an external one is asked to end its session and send the user back here.
 */
export async function signOut(api: Api, go: (url: string) => void = (url) => window.location.assign(url)): Promise<void> {
  try {
    await api.auth.signOut()
  } catch {
    // Ignored by design: the session may already be gone.
  }
  idToken.clear()
  const config = await api.auth.config().catch(() => undefined)
  if (config?.provider === 'oidc') {
    const oidc = await import('./oidc.ts')
    const external = oidc.oidcOf(config)
    if (external) {
      try {
        return await oidc.signOutOfProvider(external, go)
      } catch {
        // The provider is unreachable: the fl0 session is gone all the same.
      }
    }
  }
  go(window.location.origin + '/')
}
