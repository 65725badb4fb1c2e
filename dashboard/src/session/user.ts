import { useCallback } from 'react'
import { atom, useAtomValue, useSetAtom } from '../state/jotai.ts'
import { useApi } from '../api/context.tsx'
import { isSilentError, messageOf } from '../api/errors.ts'
import type { CurrentUser, Preferences } from '../api/types.ts'
import { useSnackbar } from '../ui/snackbar/state.ts'

/** The signed-in user, loaded once by RequireUser; null outside it. */
export const currentUserAtom = atom<CurrentUser | null>(null)

export function useCurrentUser(): CurrentUser {
  const user = useAtomValue(currentUserAtom)
  if (!user) throw new Error('useCurrentUser outside RequireUser')
  return user
}

export function useSetCurrentUser() {
  return useSetAtom(currentUserAtom)
}

/**
 * Saves preferences (isMenuCollapsed, defaultOrgUrlCode): the screen follows
 * at once, the PATCH goes through the queue; a failure shows as a snackbar.
 */
export function useSavePreferences() {
  const api = useApi()
  const setUser = useSetAtom(currentUserAtom)
  const snackbar = useSnackbar()
  return useCallback(
    (changes: Partial<Preferences>) => {
      setUser((u) => (u ? { ...u, preferences: { ...u.preferences, ...changes } } : u))
      return api.me.savePreferences(changes).catch((error) => {
        if (!isSilentError(error)) snackbar.error(messageOf(error))
      })
    },
    [api, setUser, snackbar],
  )
}
