import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { SCORING_TEXT } from '@fl0/contracts/scoring'
import { Button } from '../../../ui/Button.tsx'
import { ConfirmModal } from '../../../ui/modal/ConfirmModal.tsx'
import { scoringPath } from '../text.ts'
import { RatingsRefreshed } from './RatingsRefreshed.tsx'

function DeleteModel({ name, onDelete }: { name: string; onDelete: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <Button variant="secondaryDanger" onClick={() => setConfirming(true)}>
        {SCORING_TEXT.delete}
      </Button>
      {confirming && (
        <ConfirmModal
          header="Delete scoring model"
          description={SCORING_TEXT.deleteConfirm(name)}
          submitLabel={SCORING_TEXT.delete}
          onConfirm={() => onDelete().finally(() => setConfirming(false))}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  )
}

/** The model page's header (part 3 §2): breadcrumb, name, metric name (and when the ratings were last refreshed), Delete and 'Rebuild model'. */
export function ModelHeader({ org, name, metricName, scoredAt, onDelete, rebuild }: { org: string; name: string; metricName?: string; scoredAt?: string | null; onDelete: () => Promise<void>; rebuild: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <nav aria-label="Breadcrumbs">
          <ol className="flex items-center gap-2 text-sm text-slate-500">
            <li>
              <Link to={scoringPath(org)} className="hover:text-slate-800 hover:underline">
                {SCORING_TEXT.gallery}
              </Link>
            </li>
            <li aria-hidden>/</li>
            <li aria-current="page" className="max-w-md truncate text-slate-800">
              {name}
            </li>
          </ol>
        </nav>
        <h1 className="mt-1 max-w-2xl truncate text-2xl font-semibold tracking-tight">{name}</h1>
        {metricName && (
          <p className="mt-0.5 text-sm text-slate-600">
            <span className="text-slate-500">Metric: </span>
            <span data-testid="metric-name" className="font-medium text-slate-800">
              {metricName}
            </span>
            {scoredAt && (
              <>
                <span aria-hidden className="mx-2 text-slate-300">
                  ·
                </span>
                <span className="text-slate-500">
                  <RatingsRefreshed scoredAt={scoredAt} />
                </span>
              </>
            )}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <DeleteModel name={name} onDelete={onDelete} />
        {rebuild}
      </div>
    </div>
  )
}
