import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { useApi } from '../../api/context.tsx'
import type { MetricCategories } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { METRICS, METRICS_TEXT, metricsPath } from './text.ts'

type Category = MetricCategories['categories'][number]

/** The categories with the metrics whose name holds the search text (any case); categories left empty go. */
export function searchMetrics(categories: Category[], search: string): Category[] {
  const q = search.trim().toLowerCase()
  return categories
    .map((c) => ({ ...c, metrics: q ? c.metrics.filter((m) => m.name.toLowerCase().includes(q)) : c.metrics }))
    .filter((c) => c.metrics.length > 0)
}

function Categories({ org, categories }: { org: string; categories: Category[] }) {
  if (categories.length === 0) return <p className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500">{METRICS_TEXT.empty}</p>
  return (
    <div className="space-y-8">
      {categories.map((c) => (
        <section key={c.category} aria-label={c.category}>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{c.category}</h2>
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {c.metrics.map((m) => (
              <li key={m.id}>
                <Link
                  to={`${metricsPath(org)}/${encodeURIComponent(m.id)}`}
                  className="flex h-full flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow"
                >
                  <span className="truncate font-medium text-slate-900">{m.name}</span>
                  {!m.valid && (
                    <span className="inline-flex items-center gap-1.5 text-xs text-amber-800">
                      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-amber-500" />
                      {METRICS_TEXT.invalid}
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

/**
 * The metrics list (part 2 §2): the organisation's metrics grouped by
 * category, searched by name on the page (the list is one call, and small).
 */
export default function MetricsList() {
  const { organization = '' } = useParams()
  const api = useApi()
  const [search, setSearch] = useState('')
  const fetched = useFetch((signal) => api.metrics.categories(organization, signal), [organization], { name: METRICS })
  return (
    <div className="p-8">
      <Heading
        actions={
          <Link to={`${metricsPath(organization)}/new`} className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500">
            {METRICS_TEXT.create}
          </Link>
        }
      >
        {METRICS_TEXT.heading}
      </Heading>
      <input
        type="search"
        aria-label="Search metrics"
        placeholder={METRICS_TEXT.search}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="mb-6 w-80 rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
      />
      <FetchView fetched={fetched}>{({ categories }) => <Categories org={organization} categories={searchMetrics(categories, search)} />}</FetchView>
    </div>
  )
}
