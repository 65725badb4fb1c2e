import { Link } from 'react-router'
import { GENERIC_ERROR } from '../../constants.ts'
import { Donut } from './Donut.tsx'
import { byRating, colorOfRating, percent, ratingLabel } from './ratings.ts'
import type { ScoringModelSummary } from '../../api/types.ts'
import { modelPath } from './text.ts'

const STATUS_TEXT = { pending: 'Waiting to train...', running: 'Training...' } as const

function Body({ model }: { model: ScoringModelSummary }) {
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
  const ratings = byRating(model.ratings)
  return (
    <div className="flex items-center gap-5">
      <Donut ratings={ratings} total={model.totalUsers} label={`Ratings of ${model.totalUsers.toLocaleString('en-US')} users`} />
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

/** A model in the gallery (part 3 §2): its name, then what its status allows: a loading indicator, the error, or the ratings donut. */
export function ModelCard({ org, model }: { org: string; model: ScoringModelSummary }) {
  return (
    <article aria-label={model.name} data-status={model.status} className="flex h-full flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="truncate font-medium">
        <Link to={modelPath(org, model.analysisId)} className="text-slate-900 hover:text-indigo-700 hover:underline">
          {model.name}
        </Link>
      </h2>
      <Body model={model} />
    </article>
  )
}
