import type { ReactNode } from 'react'

/** A row of labelled figures (the Correlation summary). */
export function Facts({ label, items }: { label: string; items: Array<{ label: string; value: ReactNode }> }) {
  return (
    <section aria-label={label}>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {items.map((f) => (
          <div key={f.label} className="rounded-lg border border-slate-200 bg-white px-4 py-3">
            <dt className="text-xs font-medium text-slate-500">{f.label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{f.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
