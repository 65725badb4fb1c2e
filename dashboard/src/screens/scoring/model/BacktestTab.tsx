import { useState } from 'react'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'

/** The prediction-accuracy image, drawn by the server; a broken image says so instead of showing an empty frame. */
function AccuracyImage({ src }: { src: string }) {
  const [failed, setFailed] = useState(false)
  if (failed) return <p role="alert" className="text-sm text-red-700">The prediction-accuracy image could not be loaded.</p>
  return <img src={src} alt="Prediction accuracy" onError={() => setFailed(true)} className="max-w-full rounded border border-slate-200 bg-white" />
}

/**
 * Backtest predictions (part 3 §2): a model trained on the period before the
 * date range, scoring the date range; the prediction-accuracy image and the
 * predictions as JSON. A model without a backtest (no history before its
 * date range) gets the server's word for it, and no broken image.
 */
export function BacktestTab({ org, analysisId }: { org: string; analysisId: string }) {
  const api = useApi()
  const predictions = useFetch((signal) => api.scoring.backtestPredictions(org, analysisId, signal), [org, analysisId])
  return (
    <FetchView fetched={predictions}>
      {(data) => (
        <div className="grid items-start gap-5 xl:grid-cols-2">
          <section aria-labelledby="backtest-image" className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="backtest-image" className="mb-3 text-sm font-semibold">
              Prediction accuracy
            </h2>
            <AccuracyImage src={api.scoring.backtestImageUrl(org, analysisId)} />
          </section>
          <section aria-labelledby="backtest-predictions" className="flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="backtest-predictions" className="mb-3 text-sm font-semibold">
              Predictions
            </h2>
            <pre aria-label="Predictions JSON" className="max-h-[36rem] overflow-auto rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">
              {JSON.stringify(data, null, 2)}
            </pre>
          </section>
        </div>
      )}
    </FetchView>
  )
}
