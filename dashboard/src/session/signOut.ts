import type { Api } from '../api/client.ts'
import { idToken } from './token.ts'

/**
 * Sign-out (part 1 §4): the server call (its errors ignored), then out of the
 * identity provider (the built-in one keeps nothing in the browser but the
 * token in transit), then back to the site origin, which leads to sign-in.
 */
export async function signOut(api: Api, go: (url: string) => void = (url) => window.location.assign(url)): Promise<void> {
  try {
    await api.auth.signOut()
  } catch {
    // Ignored by design: the session may already be gone.
  }
  idToken.clear()
  go(window.location.origin + '/')
}
