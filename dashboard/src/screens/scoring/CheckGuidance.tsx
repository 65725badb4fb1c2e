import { DATE_RANGES, type DateRange } from '../../constants.ts'
import { count } from './numbers.ts'
import type { CheckState } from './useScoringCheck.ts'

export const CHECK_GUIDANCE_ID = 'scoring-check'

const labelOf = (range: DateRange) => DATE_RANGES.find((r) => r.value === range)?.label ?? range

/**
 * What the check says under a model's fields (the run dialog's, the Settings
 * tab's): the server's sentence,
 * green when the model can learn and amber when it cannot, then the other
 * date ranges that would work, by their labels in the Date range picker,
 * each a button that picks it. A failed check is said in grey: it does not
 * say the model cannot learn.
 */
export function CheckGuidance({ state, onDateRange }: { state: CheckState; onDateRange: (range: DateRange) => void }) {
  const { check, error, loading } = state
  if (!check && !error && !loading) return null
  const body = error ? (
    <p className="text-slate-600">{`Could not check whether this model can learn: ${error}`}</p>
  ) : !check ? (
    <p className="text-slate-500">Checking whether this model can learn...</p>
  ) : (
    <>
      <p>{check.message}</p>
      {!check.learnable && <Alternatives ranges={check.ranges.filter((r) => r.learnable && r.dateRange !== check.dateRange)} onDateRange={onDateRange} />}
    </>
  )
  const tone = error || !check ? 'border-slate-200 bg-slate-50' : check.learnable ? 'border-green-200 bg-green-50 text-green-900' : 'border-amber-300 bg-amber-50 text-amber-900'
  return (
    <div
      id={CHECK_GUIDANCE_ID}
      role="status"
      aria-label="Can this model learn?"
      aria-busy={loading || undefined}
      data-learnable={check && !error ? String(check.learnable) : undefined}
      className={`mt-4 space-y-2 rounded-md border px-3 py-2 text-sm transition-opacity ${tone} ${loading && check ? 'opacity-60' : ''}`}
    >
      {body}
    </div>
  )
}

function Alternatives({ ranges, onDateRange }: { ranges: Array<{ dateRange: DateRange; usersBefore: number; reached: number }>; onDateRange: (range: DateRange) => void }) {
  if (ranges.length === 0) return <p>No date range offered can be learned with this metric: choose another metric.</p>
  return (
    <div role="group" aria-label="Date ranges that can be learned" className="flex flex-wrap items-center gap-2">
      <span>Date ranges that can be learned:</span>
      {ranges.map((r) => (
        <button
          key={r.dateRange}
          type="button"
          title={`${count(r.usersBefore)} users active before it, ${count(r.reached)} of whom reached the metric in it`}
          onClick={() => onDateRange(r.dateRange)}
          className="rounded border border-amber-400 bg-white px-2 py-0.5 text-xs font-medium text-amber-900 hover:bg-amber-100"
        >
          {labelOf(r.dateRange)}
        </button>
      ))}
    </div>
  )
}
