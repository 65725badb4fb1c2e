import { useRef, useState, type ReactNode } from 'react'
import { useSettled } from '../../../ui/useSettled.ts'
import { Link } from 'react-router'
import { AUDIENCE_TEXT, type AudienceCell } from '@fl0/contracts/audiences'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import type { AudienceColumn, AudienceFilters, AudienceResults } from '../../../api/types.ts'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { formatRelative } from '../../../ui/format.ts'
import { DataGrid, type Column } from '../../../ui/grid/DataGrid.tsx'
import { usePage } from '../../../ui/grid/usePage.ts'
import { Spinner } from '../../../ui/Spinner.tsx'
import { tabClass } from '../../../ui/Tabs.tsx'
import { usePeoplePaths } from '../../people/paths.ts'

/** How long the preview waits after the last change before asking the server. */
export const PREVIEW_DEBOUNCE_MS = 300

type Tab = 'users' | 'companies'

function show(key: string, value: AudienceCell | undefined) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-400">-</span>
  if (key === 'lastSeen' && typeof value === 'string') return <time dateTime={value} title={value}>{formatRelative(value)}</time>
  return String(value)
}

function columnsOf<Row extends Record<string, AudienceCell>>(first: Column<Row>, columns: AudienceColumn[], own: Partial<Record<string, (row: Row) => ReactNode>> = {}): Column<Row>[] {
  return [first, ...columns.map((c) => ({ key: c.key, header: c.displayName, render: (row: Row) => (own[c.key] ?? ((r: Row) => show(c.key, r[c.key])))(row) }))]
}

const text = (v: AudienceCell | undefined) => (v === null || v === undefined || v === '' ? undefined : String(v))
const linkClass = 'text-indigo-700 hover:underline'

/**
 * The builder's preview (part 3 §3, §4, §9): who the filters take in, as the
 * Users and Companies tabs, 20 rows a page, with both totals. Unfinished
 * filters were left out before they got here. A user row opens the profile.
 */
export function AudiencePreview({ org, filters }: { org: string; filters: AudienceFilters }) {
  const api = useApi()
  const paths = usePeoplePaths()
  const [tab, setTab] = useState<Tab>('users')
  const settled = useSettled(filters, PREVIEW_DEBOUNCE_MS)
  const key = JSON.stringify(settled)
  const [page, setPage] = usePage(key)
  const fetched = useFetch((signal) => api.audiences.preview(org, settled, page, signal), [org, key, page])
  // The last answer stays on screen while the next one loads (a page, a tab, a changed filter): no flicker to a spinner.
  const last = useRef<AudienceResults | undefined>(undefined)
  if (fetched.status === 'loaded') last.current = fetched.data
  const data = fetched.status === 'error' ? undefined : last.current

  const tabs: Array<{ value: Tab; label: string; total?: number }> = [
    { value: 'users', label: AUDIENCE_TEXT.tabs.users, total: data?.totalUsers },
    { value: 'companies', label: AUDIENCE_TEXT.tabs.companies, total: data?.totalCompanies },
  ]

  return (
    <section aria-label="Preview" className="space-y-3">
      <div role="tablist" aria-label="Preview" className="flex gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <button
            key={t.value}
            type="button"
            role="tab"
            aria-selected={tab === t.value}
            onClick={() => {
              setTab(t.value)
              setPage(1)
            }}
            className={tabClass(tab === t.value)}
          >
            {t.label}
            {t.total !== undefined && ' '}
            {t.total !== undefined && <span className="ml-1.5 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t.total.toLocaleString('en')}</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab === 'users' ? AUDIENCE_TEXT.tabs.users : AUDIENCE_TEXT.tabs.companies} aria-busy={fetched.status === 'pending' || (fetched.status === 'loaded' && fetched.refreshing) || undefined}>
        {fetched.status === 'error' ? (
          <ErrorPanel message={fetched.error} />
        ) : !data ? (
          <Spinner />
        ) : tab === 'users' ? (
          <DataGrid
            key={`users-${data.userColumns.map((c) => c.key).join()}`}
            columns={columnsOf({ key: 'userId', header: 'User', render: (r) => <Link to={paths.user(String(r.userId))} className={linkClass}>{String(r.userId)}</Link> }, data.userColumns, {
              // The member's company by name, opening its profile (by its id: the server finds its domain).
              company: (r) => {
                const id = text(r.companyId)
                const label = text(r.company) ?? id
                return id ? (
                  <Link to={paths.companyProfile(id)} title={label} className={linkClass}>
                    {label}
                  </Link>
                ) : (
                  show('company', r.company)
                )
              },
            })}
            rows={data.users}
            rowKey={(r) => String(r.userId)}
            total={data.totalUsers}
            page={page}
            onPage={setPage}
            empty={AUDIENCE_TEXT.noUsers}
          />
        ) : (
          <DataGrid
            key={`companies-${data.companyColumns.map((c) => c.key).join()}`}
            columns={columnsOf(
              {
                key: 'companyId',
                header: 'Company',
                // Named (else its domain), opening its profile: by domain when known, else by id.
                render: (r) => {
                  const label = text(r.name) ?? text(r.domain) ?? String(r.companyId)
                  return (
                    <Link to={paths.companyProfile(text(r.domain) ?? String(r.companyId))} title={label} className={`${linkClass} font-medium`}>
                      {label}
                    </Link>
                  )
                },
              },
              // The name is the first column's.
              data.companyColumns.filter((c) => c.key !== 'name'),
            )}
            rows={data.companies}
            rowKey={(r) => String(r.companyId)}
            total={data.totalCompanies}
            page={page}
            onPage={setPage}
            empty={AUDIENCE_TEXT.noCompanies}
          />
        )}
      </div>
    </section>
  )
}
