import { useState } from 'react'
import { REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import type { MetricCategories } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'
import { Modal } from '../../../ui/modal/Modal.tsx'
import { METRICS_TEXT } from '../../metrics/text.ts'

type Category = MetricCategories['categories'][number]

/** The sidebar's entries: All, then each category, each with how many metrics it holds. */
export function sidebarOf(categories: Category[]): Array<{ key: string | null; label: string; count: number }> {
  return [
    { key: null, label: REPORT_TEXT.allCategories, count: categories.reduce((n, c) => n + c.metrics.length, 0) },
    ...categories.map((c) => ({ key: c.category, label: c.category, count: c.metrics.length })),
  ]
}

function Picker({ categories, chosen, onPick }: { categories: Category[]; chosen: ReadonlySet<string>; onPick: (id: string) => void }) {
  const [selected, setSelected] = useState<string | null>(null)
  const shown = selected === null ? categories : categories.filter((c) => c.category === selected)
  const metrics = shown.flatMap((c) => c.metrics.map((m) => ({ ...m, category: c.category })))
  return (
    <div className="flex min-h-80 gap-4">
      <nav aria-label="Categories" className="w-44 shrink-0 border-r border-slate-100 pr-3">
        <ul className="space-y-0.5">
          {sidebarOf(categories).map((entry) => {
            const current = entry.key === selected
            return (
              <li key={entry.key ?? ''}>
                <button
                  type="button"
                  aria-pressed={current}
                  onClick={() => setSelected(entry.key)}
                  className={`flex w-full items-center justify-between gap-2 rounded-md px-2.5 py-1.5 text-left text-sm ${current ? 'bg-indigo-50 font-medium text-indigo-800' : 'text-slate-700 hover:bg-slate-50'}`}
                >
                  <span className="truncate capitalize">{entry.label}</span>
                  <span className="rounded-full bg-slate-100 px-1.5 text-xs tabular-nums text-slate-600">{entry.count}</span>
                </button>
              </li>
            )
          })}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        {metrics.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500">{REPORT_TEXT.noMetrics}</p>
        ) : (
          <ul aria-label="Metrics to add" className="grid max-h-[50vh] grid-cols-1 gap-2 overflow-auto sm:grid-cols-2">
            {metrics.map((m) => {
              const added = chosen.has(m.id)
              return (
                <li key={m.id}>
                  <button
                    type="button"
                    disabled={added}
                    onClick={() => onPick(m.id)}
                    className="flex h-full w-full flex-col items-start gap-1 rounded-lg border border-slate-200 p-3 text-left transition hover:border-indigo-300 hover:shadow-sm disabled:cursor-default disabled:bg-slate-50 disabled:hover:border-slate-200 disabled:hover:shadow-none"
                  >
                    <span className="w-full truncate text-sm font-medium text-slate-900">{m.name}</span>
                    <span className="text-xs capitalize text-slate-500">{m.category}</span>
                    {added && <span className="text-xs text-emerald-700">Added</span>}
                    {!m.valid && <span className="text-xs text-amber-800">{METRICS_TEXT.invalid}</span>}
                  </button>
                </li>
              )
            })}
          </ul>
        )}
      </div>
    </div>
  )
}

/**
 * The add-metric modal (part 3 §2): a category sidebar (All and each
 * category, with counts) beside a grid of the organisation's metrics; a
 * metric already in the report is marked and cannot be added twice. Picking
 * one adds it and closes the modal.
 */
export function AddMetricModal({ org, chosen, onAdd, onClose }: { org: string; chosen: string[]; onAdd: (id: string) => void; onClose: () => void }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.metrics.categories(org, signal), [org])
  return (
    <Modal title="Add metric" onClose={onClose} className="max-w-3xl!">
      <FetchView fetched={fetched}>
        {({ categories }) => (
          <Picker
            categories={categories}
            chosen={new Set(chosen)}
            onPick={(id) => {
              onAdd(id)
              onClose()
            }}
          />
        )}
      </FetchView>
    </Modal>
  )
}
