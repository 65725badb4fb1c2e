import type { MetricDefinition } from '@fl0/contracts/metrics'
import { useApi } from '../../../api/context.tsx'
import { ApiError } from '../../../api/errors.ts'
import { useDebouncedQuery } from '../../../api/useDebouncedQuery.ts'
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
  const q = useDebouncedQuery(definition, (body, signal) => api.metrics.graph(org, body, signal), { delayMs: PREVIEW_DEBOUNCE_MS, errorOf: graphError, loadingFrom: 'ask', scope: org })
  return { graph: q.data, error: q.error, loading: q.loading }
}
