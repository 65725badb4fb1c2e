import { useEffect, useRef } from 'react'
import type { Fetched } from '../../api/useFetch.ts'

/** How often a model still training is asked for again. Status changes are the server's (part 3 §4); this is how the screen learns of them. */
export const POLL_MS = 2000

/**
 * What a screen shows of a fetch that is asked for again while a model
 * trains: the answer, or while the next one loads or if it failed, the last
 * answer of the same `key` that was still training (a passing network error
 * during a long training keeps the screen and tries again). The next call
 * goes POLL_MS after the previous one settled, so a slow server is never
 * asked twice at once; it stops once nothing trains.
 */
export function usePolled<T>(fetched: Fetched<T>, key: string, training: (data: T) => boolean): T | undefined {
  const last = useRef<{ key: string; data: T } | null>(null)
  if (fetched.status === 'loaded') last.current = { key, data: fetched.data }
  const kept = last.current?.key === key && training(last.current.data) ? last.current.data : undefined
  const shown = fetched.status === 'loaded' ? fetched.data : kept
  const active = shown !== undefined && training(shown)
  // Changes with every settled call (an answer, or pending → error).
  const version = fetched.status === 'loaded' ? fetched.data : fetched.status
  const { refetch } = fetched
  useEffect(() => {
    if (!active || version === 'pending') return
    const timer = setTimeout(refetch, POLL_MS)
    return () => clearTimeout(timer)
  }, [active, refetch, version])
  return shown
}
