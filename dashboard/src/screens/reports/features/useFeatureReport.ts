import { FEATURE_REPORT_QUERIES, type FeatureReportKey } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import type { FeatureQueryResult, MetricGraph } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'

export type AudienceType = 'user' | 'company'

export interface Figure {
  value: number
  outOf: number
}

/** The ten answers, each in the form its query asked for. */
export interface FeatureReportData {
  figures: Partial<Record<FeatureReportKey, Figure>>
  graphs: Partial<Record<FeatureReportKey, MetricGraph>>
}

function collect(answers: FeatureQueryResult[]): FeatureReportData {
  const data: FeatureReportData = { figures: {}, graphs: {} }
  FEATURE_REPORT_QUERIES.forEach((q, i) => {
    const a = answers[i]!
    if ('currentValue' in a) data.figures[q.key] = a.currentValue
    else data.graphs[q.key] = a.graph
  })
  return data
}

/**
 * The Feature Analysis report's ten queries (contracts' FEATURE_REPORT_QUERIES),
 * sent at once for the chosen audience (part 3 §7). They stand or fall
 * together: the first to fail cancels the others and the report shows the
 * generic error view (part 3 §8). A new audience, or leaving, aborts them.
 */
export function useFeatureReport(org: string, featureId: string, audienceType: AudienceType) {
  const api = useApi()
  return useFetch(
    async (signal) => {
      const all = new AbortController()
      const stop = () => all.abort()
      signal.addEventListener('abort', stop)
      // The first failure is the report's; the calls it cancels fail with it, not with their AbortError.
      let failure: { error: unknown } | undefined
      try {
        const answers = await Promise.all(
          FEATURE_REPORT_QUERIES.map((q) =>
            api.reports.featureQuery(org, featureId, { audienceType, ...q.query }, all.signal).catch((error: unknown) => {
              failure ??= { error }
              all.abort()
              throw failure.error
            }),
          ),
        )
        return collect(answers)
      } finally {
        signal.removeEventListener('abort', stop)
      }
    },
    [org, featureId, audienceType],
  )
}
