import { Link } from 'react-router'
import { GENERIC_ERROR } from '../../constants.ts'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { Donut } from './Donut.tsx'
import { count } from './numbers.ts'
import { byRating, colorOfRating, percent, ratingLabel } from './ratings.ts'
import type { ScoringModelSummary } from '../../api/types.ts'
import { modelPath, SCORING_MODELS, VERDICT_SHORT } from './text.ts'

const STATUS_TEXT = { pending: 'Waiting to train...', running: 'Training...' } as const

/**
 * A completed model's donut and shares. Its numbers are the model's own call
 * (part 3 §7: GET …/scoring-models/{analysisId} -> ratings, totalUsers),
 * asked once the card shows a completed model and again with the gallery;
 * until it answers, or if it fails, the list's numbers stand in, so the card
 * never waits on a spinner. One small call per completed card: a gallery
 * holds an organisation's few models.
 */
function Completed({ org, model }: { org: string; model: ScoringModelSummary }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.scoring.ratings(org, model.analysisId, signal), [org, model.analysisId], { name: SCORING_MODELS })
  // An answer from a model rebuilt meanwhile has no numbers yet: the list's stay.
  const { ratings: shares, totalUsers } = fetched.status === 'loaded' && fetched.data.status === 'completed' ? fetched.data : model
  const ratings = byRating(shares)
  return (
    <div className="flex items-center gap-5">
      <Donut ratings={ratings} total={totalUsers} label={`Ratings of ${count(totalUsers)} users`} />
      <ul aria-label="Ratings" className="flex-1 space-y-1.5 text-sm">
        {ratings.map((r) => (
          <li key={r.name} className="flex items-center gap-2">
            <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: colorOfRating(r.name) }} />
            <span className="text-slate-700">{ratingLabel(r.name)}</span>
            <span className="ml-auto font-medium tabular-nums text-slate-900">{percent(r.percentage)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Whether the ratings beside it can be trusted, in a line: a model that falls short says so plainly, with the way to its figures. */
function VerdictLine({ org, model }: { org: string; model: ScoringModelSummary }) {
  if (!model.verdict) return null
  if (model.verdict === 'met') {
    return (
      <p data-verdict="met" className="text-xs text-green-800">
        ✓ {VERDICT_SHORT.met}
      </p>
    )
  }
  return (
    <p data-verdict={model.verdict} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900">
      {/* A no-break space: the dash stays at the end of the sentence's line, never starts one. */}
      {VERDICT_SHORT[model.verdict]}{'\u00a0— '}
      <Link to={modelPath(org, model.analysisId)} className="font-medium underline hover:text-amber-700">
        see Correlation
      </Link>
    </p>
  )
}

function Body({ org, model }: { org: string; model: ScoringModelSummary }) {
  if (model.status === 'pending' || model.status === 'running') {
    return (
      <div role="status" aria-label={STATUS_TEXT[model.status]} className="flex flex-1 flex-col items-center justify-center gap-3 py-6 text-sm text-slate-500">
        <span className="h-8 w-8 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />
        {STATUS_TEXT[model.status]}
      </div>
    )
  }
  if (model.status === 'failed') {
    return (
      <div role="alert" className="flex flex-1 items-center rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        {model.error || GENERIC_ERROR}
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-3">
      <Completed org={org} model={model} />
      <VerdictLine org={org} model={model} />
    </div>
  )
}

/** A model in the gallery (part 3 §2): its name, then what its status allows: a loading indicator, the error, or the ratings donut with their verdict. */
export function ModelCard({ org, model }: { org: string; model: ScoringModelSummary }) {
  return (
    <article aria-label={model.name} data-status={model.status} className="flex h-full flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="truncate font-medium">
        <Link to={modelPath(org, model.analysisId)} className="text-slate-900 hover:text-indigo-700 hover:underline">
          {model.name}
        </Link>
      </h2>
      <Body org={org} model={model} />
    </article>
  )
}
