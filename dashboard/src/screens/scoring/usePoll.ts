import { useEffect } from 'react'

/** How often a model still training is asked for again. Status changes are the server's (part 3 §4); this is how the screen learns of them. */
export const POLL_MS = 2000

/**
 * Calls `refetch` every POLL_MS while `active` (a model pending or running),
 * each time after the previous answer has landed: `version` changes with
 * every answer, so a slow server is never asked twice at once.
 */
export function usePoll(active: boolean, refetch: () => void, version: unknown) {
  useEffect(() => {
    if (!active) return
    const timer = setTimeout(refetch, POLL_MS)
    return () => clearTimeout(timer)
  }, [active, refetch, version])
}
