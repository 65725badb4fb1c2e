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

let leaving: Promise<void> | undefined

/**
 * signOut, at most once a page. The user menu's Log out ends the session on
 * the server first; a screen's requests still in flight then come back 401,
 * and each 401 signs out too (part 1 §6). Each sign-out ends in a navigation,
 * and a second one cut the first short (the browser aborts it): they share
 * one here. `go` is the first caller's.
 */
export function signOutOnce(api: Api, go?: (url: string) => void): Promise<void> {
  return (leaving ??= signOut(api, go))
}
