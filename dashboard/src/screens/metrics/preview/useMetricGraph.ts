import { useEffect, useRef, useState } from 'react'
import type { MetricDefinition } from '@fl0/contracts/metrics'
import { useApi } from '../../../api/context.tsx'
import { ApiError, isSilentError } from '../../../api/errors.ts'
import type { MetricGraph } from '../../../api/types.ts'
import { GENERIC_ERROR } from '../../../constants.ts'

/** How long the preview waits after the last change before asking again. */
export const PREVIEW_DEBOUNCE_MS = 300

/**
 * The graph failure's text (part 2 §8): the first message of the response,
 * else 'An error has occurred'. An answer without a body of its own carries
 * only the transport's stand-in ('Request failed (502)'), which is not the
 * response's message.
 */
export function graphError(error: unknown): string {
  if (error instanceof ApiError) {
    const first = error.errors[0]?.message ?? error.message
    return first && first !== `Request failed (${error.status})` ? first : GENERIC_ERROR
  }
  return GENERIC_ERROR
}

export interface GraphState {
  graph?: MetricGraph
  error?: string
  /** A query is in flight. */
  loading: boolean
}

/**
 * The preview's graph query (part 2 §4): made once changes pause, for the
 * definition as it would be sent; a new query aborts the one in flight, whose
 * answer is then dropped unseen. The last graph stays on screen while the
 * next one loads. `definition` undefined: nothing to ask (an empty metric).
 */
export function useMetricGraph(org: string, definition: MetricDefinition | undefined): GraphState {
  const api = useApi()
  const [state, setState] = useState<GraphState>({ loading: false })
  const inflight = useRef<AbortController | null>(null)
  const key = definition ? JSON.stringify(definition) : ''

  useEffect(() => {
    if (!key) {
      inflight.current?.abort()
      setState({ loading: false })
      return
    }
    const timer = setTimeout(() => {
      inflight.current?.abort()
      const controller = new AbortController()
      inflight.current = controller
      setState((s) => ({ graph: s.graph, loading: true }))
      api.metrics.graph(org, JSON.parse(key) as MetricDefinition, controller.signal).then(
        (graph) => {
          if (!controller.signal.aborted) setState({ graph, loading: false })
        },
        (error: unknown) => {
          if (controller.signal.aborted || isSilentError(error)) return
          setState({ error: graphError(error), loading: false })
        },
      )
    }, PREVIEW_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [api, org, key])

  // Leaving the editor abandons the query.
  useEffect(() => () => inflight.current?.abort(), [])
  return state
}
