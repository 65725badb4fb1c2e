import type { ReactNode } from 'react'
import { baselineText, beatsBaseline } from '../numbers.ts'

export interface Fact {
  label: string
  value: ReactNode
  /** A figure to read it against, beside the value (the baseline beside accuracy). */
  note?: ReactNode
  /** What the figure means, in a line under it: shown, not only on hover. */
  explain?: ReactNode
  /** Takes two columns: a figure with its explanation. */
  wide?: boolean
}

/** A grid of labelled figures (the Correlation summary, the backtest's). Each term's first description is its value. */
export function Facts({ label, items }: { label: string; items: Fact[] }) {
  return (
    <section aria-label={label}>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {items.map((f) => (
          <div key={f.label} data-fact={f.label} className={`rounded-lg border border-slate-200 bg-white px-4 py-3 ${f.wide ? 'col-span-2' : ''}`}>
            <dt className="text-xs font-medium text-slate-500">{f.label}</dt>
            <dd className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
              <span className="text-lg font-semibold tabular-nums text-slate-900">{f.value}</span>
              {f.note && <span className="text-sm tabular-nums text-slate-600">{f.note}</span>}
            </dd>
            {f.explain && <dd className="mt-1.5 space-y-0.5 text-xs leading-snug text-slate-500">{f.explain}</dd>}
          </div>
        ))}
      </dl>
    </section>
  )
}

/** Beside an accuracy: the baseline it must beat, and plainly when it does not. */
export function BaselineNote({ accuracy, baseline, positiveRate }: { accuracy: number; baseline: number; positiveRate: number }) {
  return (
    <>
      {baselineText(baseline, positiveRate)}
      {!beatsBaseline(accuracy, baseline) && <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset">no better than the baseline</span>}
    </>
  )
}
