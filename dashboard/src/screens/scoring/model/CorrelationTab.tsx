import { useState } from 'react'
import { SCORING_EXPLAIN, SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { formatDate } from '../../../ui/format.ts'
import { Segmented } from '../../../ui/Segmented.tsx'
import { Spinner } from '../../../ui/Spinner.tsx'
import { count, share } from '../numbers.ts'
import { byRating, colorOfRating, ratingLabel } from '../ratings.ts'
import type { Selections } from '../selections.ts'
import type { Correlation } from '../../../api/types.ts'
import { ActivityTable } from './ActivityTable.tsx'
import { LiftByRating } from './LiftByRating.tsx'
import { BaselineNote, Facts } from './Summary.tsx'
import { SearchBox } from '../../lexicon/controls.tsx'

const S = SCORING_TEXT.summary

/**
 * The spec's five figures, then what a reader needs to judge the model:
 * accuracy beside the baseline of always answering the commoner outcome
 * (a rare outcome makes a high accuracy cheap) and AUC, each explained.
 */
function CorrelationSummary({ c }: { c: Correlation }) {
  return (
    <Facts
      label="Summary"
      items={[
        { label: S.dateRange, value: <span className="whitespace-nowrap text-sm">{`${formatDate(c.fromTime)} – ${formatDate(c.toTime)}`}</span> },
        { label: S.trainingDataSize, value: count(c.trainingDataSize) },
        { label: S.audienceSize, value: count(c.audienceSize) },
        { label: S.totalFactors, value: count(c.totalFactors) },
        {
          label: S.accuracy,
          value: share(c.accuracy),
          note: <BaselineNote accuracy={c.accuracy} baseline={c.baselineAccuracy} positiveRate={c.positiveRate} />,
          explain: (
            <>
              <span className="block">{SCORING_EXPLAIN.accuracy}</span>
              <span className="block">{`Baseline: ${SCORING_EXPLAIN.baselineAccuracy}`}</span>
            </>
          ),
          wide: true,
        },
        { label: 'AUC', value: share(c.auc), note: `on ${count(c.heldOutSize)} held-out users`, explain: SCORING_EXPLAIN.auc, wide: true },
      ]}
    />
  )
}

function RatingCounts({ ratings }: { ratings: Correlation['ratings'] }) {
  return (
    <ul aria-label="Rating counts" className="flex flex-wrap items-center gap-3 text-sm">
      {byRating(ratings).map((r) => (
        <li key={r.name} data-rating={r.name} className="flex items-center gap-1.5">
          <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: colorOfRating(r.name) }} />
          <span className="text-slate-600">{ratingLabel(r.name)}</span>
          <span className="font-medium tabular-nums text-slate-900">{count(r.count)}</span>
        </li>
      ))}
    </ul>
  )
}

/**
 * Correlation (part 3 §2): the summary, the ratings' lift on held-out users
 * with the verdict, the mode selector (Fit is not offered; Activity is the
 * mode shown), search, the rating counts, and the events by importance with
 * their 'In model' boxes.
 */
export function CorrelationTab({ org, analysisId, selections, onSelections }: { org: string; analysisId: string; selections: Selections; onSelections: (s: Selections) => void }) {
  const api = useApi()
  const [search, setSearch] = useState('')
  const correlation = useFetch((signal) => api.scoring.correlation(org, analysisId, signal), [org, analysisId])
  return (
    <div className="space-y-5">
      {correlation.status === 'pending' ? (
        <Spinner />
      ) : correlation.status === 'error' ? (
        <ErrorPanel message={correlation.error} />
      ) : (
        <>
          <CorrelationSummary c={correlation.data} />
          <LiftByRating quality={correlation.data.quality} on="held-out users" explain={SCORING_EXPLAIN.lift} />
        </>
      )}
      <div className="flex flex-wrap items-center gap-4">
        <Segmented
          label="Mode"
          value="activity"
          onChange={() => {}}
          options={[
            { value: 'fit', label: SCORING_TEXT.modes.fit, disabled: true, reason: 'Not available for this model' },
            { value: 'activity', label: SCORING_TEXT.modes.activity },
          ]}
        />
        <SearchBox label="Search events" value={search} onChange={setSearch} />
        <div className="ml-auto">{correlation.status === 'loaded' && <RatingCounts ratings={correlation.data.ratings} />}</div>
      </div>
      <section aria-label="Events">
        <ActivityTable org={org} analysisId={analysisId} search={search.trim()} selections={selections} onSelections={onSelections} />
      </section>
    </div>
  )
}
