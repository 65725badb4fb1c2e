/**
 * The ID token between the sign-in screen and account/callback, kept in
 * sessionStorage (docs/api-session-contract.md) and removed once posted; and
 * where to go after signing in when it is not '/' (an invitation link).
 */
const TOKEN_KEY = 'fl0-id-token'
const NEXT_KEY = 'fl0-after-sign-in'

export const idToken = {
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  take: () => {
    const token = sessionStorage.getItem(TOKEN_KEY)
    sessionStorage.removeItem(TOKEN_KEY)
    return token
  },
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
}

/** Only same-site paths are kept, so a crafted link cannot send the user elsewhere. */
export const afterSignIn = {
  set: (path: string | null) => (path && path.startsWith('/') && !path.startsWith('//') ? sessionStorage.setItem(NEXT_KEY, path) : sessionStorage.removeItem(NEXT_KEY)),
  take: () => {
    const path = sessionStorage.getItem(NEXT_KEY)
    sessionStorage.removeItem(NEXT_KEY)
    return path && path.startsWith('/') && !path.startsWith('//') ? path : '/'
  },
}
