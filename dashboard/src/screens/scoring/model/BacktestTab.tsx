import { SCORING_EXPLAIN } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import type { BacktestPredictions } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'
import { formatDate } from '../../../ui/format.ts'
import { count, share } from '../numbers.ts'
import { explainOn } from '../text.ts'
import { BucketTable } from './backtest/BucketTable.tsx'
import { CalibrationChart, CHART_COLORS } from './backtest/CalibrationChart.tsx'
import { JsonToggle } from './backtest/JsonToggle.tsx'
import { TopPredictions } from './backtest/TopPredictions.tsx'
import { LiftByRating } from './LiftByRating.tsx'
import { BaselineNote, Facts } from './Summary.tsx'

/** Who the backtest's figures are measured on. */
const ON = 'backtest users'

const period = (p: { fromTime: string; toTime: string }) => <span className="whitespace-nowrap text-sm">{`${formatDate(p.fromTime)} – ${formatDate(p.toTime)}`}</span>

function BacktestSummary({ b }: { b: BacktestPredictions }) {
  return (
    <Facts
      label="Backtest summary"
      items={[
        { label: 'Trained on', value: period(b.trainedOn) },
        { label: 'Predicted', value: period(b.predicted) },
        { label: 'Users', value: count(b.users) },
        { label: 'Reached the metric', value: share(b.positiveRate) },
        { label: 'Accuracy', value: share(b.accuracy), note: <BaselineNote accuracy={b.accuracy} baseline={b.baselineAccuracy} positiveRate={b.positiveRate} />, explain: explainOn(SCORING_EXPLAIN.accuracy, ON), wide: true },
        { label: 'AUC', value: share(b.auc), explain: SCORING_EXPLAIN.auc, wide: true },
      ]}
    />
  )
}

function Key({ color, dashed, children }: { color: string; dashed?: boolean; children: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden className="inline-block w-5" style={{ borderTop: `${dashed ? '2px dashed' : '3px solid'} ${color}` }} />
      {children}
    </span>
  )
}

/** The figures drawn in the browser: the chart and, beside it, its numbers. The server's image of the same stays a download. */
function PredictionAccuracy({ b, imageUrl }: { b: BacktestPredictions; imageUrl: string }) {
  return (
    <section aria-labelledby="prediction-accuracy" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="mb-1 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="prediction-accuracy" className="text-sm font-semibold text-slate-900">
          Prediction accuracy
        </h2>
        <a href={imageUrl} download="prediction-accuracy.png" className="text-sm text-indigo-700 hover:underline">
          Download image
        </a>
      </div>
      <p className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <span>Per tenth of score:</span>
        <Key color={CHART_COLORS.predicted} dashed>
          the mean predicted score
        </Key>
        <Key color={CHART_COLORS.reached}>the share that really reached the metric</Key>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-2.5 w-2.5" style={{ backgroundColor: CHART_COLORS.users }} />
          users (right axis)
        </span>
      </p>
      <div className="grid items-start gap-6 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <CalibrationChart buckets={b.buckets} label="Prediction accuracy by score" />
        {/* Stacked under the chart, the numbers keep to a readable width. */}
        <div className="max-w-3xl 2xl:max-w-none">
          <BucketTable buckets={b.buckets} />
        </div>
      </div>
    </section>
  )
}

/**
 * Backtest predictions (part 3 §2): a model trained on the period before the
 * date range, scoring the date range. Its figures as a chart with a table,
 * the lift of its ratings with their verdict, the highest-scored users, and
 * the raw answer behind a toggle; the server's prediction-accuracy image is a
 * download. A model without a backtest (no history before its date range)
 * gets the server's word for it.
 */
export function BacktestTab({ org, analysisId }: { org: string; analysisId: string }) {
  const api = useApi()
  const predictions = useFetch((signal) => api.scoring.backtestPredictions(org, analysisId, signal), [org, analysisId])
  return (
    <FetchView fetched={predictions}>
      {(b) => (
        <div className="space-y-5">
          <BacktestSummary b={b} />
          <PredictionAccuracy b={b} imageUrl={api.scoring.backtestImageUrl(org, analysisId)} />
          <LiftByRating quality={b.quality} on={ON} explain={explainOn(SCORING_EXPLAIN.lift, ON)} />
          <section aria-labelledby="top-predictions" className="space-y-3">
            <h2 id="top-predictions" className="text-sm font-semibold text-slate-900">
              Top predictions
            </h2>
            <TopPredictions org={org} predictions={b.predictions} />
          </section>
          <JsonToggle data={b} label="Predictions JSON" />
        </div>
      )}
    </FetchView>
  )
}
