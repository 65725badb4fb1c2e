import { atom, useSetAtom } from '../../state/jotai.ts'
import { useCallback, useMemo } from 'react'

export type SnackbarKind = 'info' | 'error' | 'ok'

export interface Snackbar {
  id: number
  kind: SnackbarKind
  message: string
  /** The page reloads once this one has gone; input is blocked meanwhile. */
  reloadOnClose?: boolean
}

export const snackbarsAtom = atom<Snackbar[]>([])
let nextId = 1

/** Shows snackbars: info, error, ok, or any of them with reloadOnClose. */
export function useSnackbar() {
  const set = useSetAtom(snackbarsAtom)
  const show = useCallback(
    (snackbar: Omit<Snackbar, 'id'>) => set((list) => [...list, { ...snackbar, id: nextId++ }]),
    [set],
  )
  return useMemo(
    () => ({
      show,
      info: (message: string) => show({ kind: 'info', message }),
      error: (message: string) => show({ kind: 'error', message }),
      ok: (message: string) => show({ kind: 'ok', message }),
    }),
    [show],
  )
}
