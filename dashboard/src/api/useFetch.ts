import { useCallback, useEffect, useRef, useState } from 'react'
import { isSilentError, messageOf } from './errors.ts'
import { onRefetch } from './refetch.ts'

export type FetchState<T> =
  | { status: 'pending' }
  | { status: 'error'; error: string }
  | { status: 'loaded'; data: T; refreshing: boolean }

export type Fetched<T> = FetchState<T> & { refetch: () => void }

/**
 * Loads data for a screen (part 1 §4): pending, error (the server's message,
 * else the error's), loaded. It loads again when `deps` change (the address)
 * or when refetched, by the returned function or by `name`; each new load
 * aborts the one in flight, and an aborted load's result or error is dropped
 * without a trace. While a named refetch runs, the loaded data stays on screen.
 */
export function useFetch<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  options: { name?: string; enabled?: boolean } = {},
): Fetched<T> {
  const [state, setState] = useState<FetchState<T>>({ status: 'pending' })
  const [tick, setTick] = useState(0)
  const loadRef = useRef(load)
  loadRef.current = load
  const depsKey = useRef<readonly unknown[]>(deps)
  const enabled = options.enabled ?? true

  useEffect(() => {
    if (!enabled) return
    const controller = new AbortController()
    const sameAddress = depsKey.current.length === deps.length && depsKey.current.every((d, i) => Object.is(d, deps[i]))
    depsKey.current = deps
    setState((s) => (s.status === 'loaded' && sameAddress ? { ...s, refreshing: true } : { status: 'pending' }))
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'loaded', data, refreshing: false })
      },
      (error) => {
        if (controller.signal.aborted || isSilentError(error)) return
        setState({ status: 'error', error: messageOf(error) })
      },
    )
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick, enabled])

  const refetch = useCallback(() => setTick((t) => t + 1), [])
  useEffect(() => (options.name ? onRefetch(options.name, refetch) : undefined), [options.name, refetch])

  return { ...state, refetch }
}
