import { UserManager, WebStorageStateStore } from 'oidc-client-ts'
import type { AuthConfig } from '../api/types.ts'

/**
 * An external OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID on the
 * server), through oidc-client-ts: authorization code with PKCE, the ID token
 * obtained silently (prompt=none in a hidden frame) when the provider still
 * has a session, by a redirect to its sign-in page when it has not. Loaded
 * only when the server says the provider is external.
 */
type Oidc = Required<Pick<AuthConfig, 'issuer' | 'clientId'>>

function userManager({ issuer, clientId }: Oidc): UserManager {
  const callback = `${window.location.origin}/account/callback`
  return new UserManager({
    authority: issuer,
    client_id: clientId,
    redirect_uri: callback,
    silent_redirect_uri: callback,
    post_logout_redirect_uri: `${window.location.origin}/`,
    response_type: 'code',
    scope: 'openid email profile',
    // The server keeps the session; the browser keeps the provider's answer only for this tab.
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    silentRequestTimeoutInSeconds: 5,
    automaticSilentRenew: false,
  })
}

export function oidcOf(config: AuthConfig): Oidc | undefined {
  return config.provider === 'oidc' && config.issuer && config.clientId ? { issuer: config.issuer, clientId: config.clientId } : undefined
}

/** An ID token without leaving the page, or undefined when the provider wants the user to sign in. */
export async function signInSilently(config: Oidc): Promise<string | undefined> {
  try {
    return (await userManager(config).signinSilent())?.id_token
  } catch {
    return undefined
  }
}

/** To the provider's sign-in page; it comes back to account/callback with a code. */
export function signInWithRedirect(config: Oidc): Promise<void> {
  return userManager(config).signinRedirect()
}

/** True when this address is the provider's answer (a code or an error). */
export function isProviderAnswer(search: string = window.location.search): boolean {
  const params = new URLSearchParams(search)
  return params.has('state') && (params.has('code') || params.has('error'))
}

/**
 * account/callback with the provider's answer: the ID token, or undefined in
 * the hidden frame of a silent sign-in (the parent page takes the answer).
 */
export async function finishSignIn(config: Oidc): Promise<string | undefined> {
  const user = await userManager(config).signinCallback()
  return user?.id_token ?? undefined
}

/** Out of the provider too, so that the next visit does not sign in silently again. */
export async function signOutOfProvider(config: Oidc, go: (url: string) => void): Promise<void> {
  const manager = userManager(config)
  await manager.removeUser()
  const endSession = await manager.metadataService.getEndSessionEndpoint().catch(() => undefined)
  if (endSession) await manager.signoutRedirect()
  else go(`${window.location.origin}/`)
}
