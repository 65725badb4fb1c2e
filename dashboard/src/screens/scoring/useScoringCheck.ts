import { useEffect, useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import type { ScoringCheck, ScoringCheckRequest } from '../../api/types.ts'

/** How long the dialog waits after the last change of its fields before asking. */
export const CHECK_DEBOUNCE_MS = 300

export interface CheckState {
  /** The last answer; it stays while the next one is asked, so the guidance does not flicker. */
  check?: ScoringCheck
  /** The check itself failed: the dialog says so, and does not hold the run back for it. */
  error?: string
  loading: boolean
}

/**
 * Whether the model the dialog describes can learn (POST …/scoring-models/check),
 * asked once its fields stop changing for a moment; a new question aborts the
 * one in flight, whose answer is dropped unseen. `request` undefined (no
 * metric chosen yet): nothing to ask, nothing shown.
 */
export function useScoringCheck(org: string, request: ScoringCheckRequest | undefined): CheckState {
  const api = useApi()
  const [state, setState] = useState<CheckState>({ loading: false })
  const inflight = useRef<AbortController | null>(null)
  const key = request ? JSON.stringify(request) : ''

  useEffect(() => {
    if (!key) {
      inflight.current?.abort()
      setState({ loading: false })
      return
    }
    setState((s) => ({ check: s.check, loading: true }))
    const timer = setTimeout(() => {
      inflight.current?.abort()
      const controller = new AbortController()
      inflight.current = controller
      api.scoring.check(org, JSON.parse(key) as ScoringCheckRequest, controller.signal).then(
        (check) => {
          if (!controller.signal.aborted) setState({ check, loading: false })
        },
        (error: unknown) => {
          if (controller.signal.aborted || isSilentError(error)) return
          setState({ error: messageOf(error), loading: false })
        },
      )
    }, CHECK_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [api, org, key])

  // Closing the dialog abandons the question.
  useEffect(() => () => inflight.current?.abort(), [])
  return state
}

/** The run waits for a model that can learn: held back only by an answer that says it cannot, never by a check that failed. */
export const blocksRun = (state: CheckState) => !state.error && state.check !== undefined && !state.check.learnable
