import { useApi } from '../../api/context.tsx'
import { messageOf } from '../../api/errors.ts'
import { useDebouncedQuery } from '../../api/useDebouncedQuery.ts'
import type { ScoringCheck, ScoringCheckRequest } from '../../api/types.ts'
import { toWire } from './audienceDraft.ts'
import type { ModelValues } from './ModelFields.tsx'

/**
 * What is asked of a model's fields, the run dialog's or the Settings tab's:
 * what it learns (metric, date range, the excluded audience as sent, unfinished
 * filters left out). No metric chosen yet: nothing to ask.
 */
export function checkRequestOf({ metricId, dateRange, excludedAudience }: Pick<ModelValues, 'metricId' | 'dateRange' | 'excludedAudience'>): ScoringCheckRequest | undefined {
  return metricId ? { metricId, dateRange, excludedAudience: toWire(excludedAudience) } : undefined
}

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
 * Whether the model the fields describe (the run dialog's, the Settings tab's) can learn (POST …/scoring-models/check),
 * asked once its fields stop changing for a moment; a new question aborts the
 * one in flight, whose answer is dropped unseen. `request` undefined (no
 * metric chosen yet): nothing to ask, nothing shown.
 */
export function useScoringCheck(org: string, request: ScoringCheckRequest | undefined): CheckState {
  const api = useApi()
  const q = useDebouncedQuery(request, (body, signal) => api.scoring.check(org, body, signal), { delayMs: CHECK_DEBOUNCE_MS, errorOf: messageOf, loadingFrom: 'change', scope: org })
  return { check: q.data, error: q.error, loading: q.loading }
}

/** The run waits for a model that can learn: held back only by an answer that says it cannot, never by a check that failed. */
export const blocksRun = (state: CheckState) => !state.error && state.check !== undefined && !state.check.learnable
