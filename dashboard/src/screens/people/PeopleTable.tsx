import { useState } from 'react'
import { useSettled } from '../../ui/useSettled.ts'
import { Link, useNavigate } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import type { PersonRow } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatDateTime, formatRelative } from '../../ui/format.ts'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { usePage } from '../../ui/grid/usePage.ts'
import { Avatar } from '../companies/Avatar.tsx'
import { formatTraitValue, plural } from '../companies/format.ts'
import { usePeoplePaths } from './paths.ts'
import { PersonIcons } from './PersonIcons.tsx'

const C = PEOPLE_TEXT.columns
/** Two lines at most, broken between words. */
const WRAP = 'line-clamp-2 whitespace-normal break-words'
/** Typing settles for this long before the list is asked again. */
const SEARCH_DEBOUNCE_MS = 300

/** Revenue as the company page shows it: dollars, short ($5M, $1.2B). */
export const formatRevenue = (n: number) => formatTraitValue({ key: 'revenue', icon: 'number', label: 'Revenue', value: n })

function columns(user: (id: string) => string): Column<PersonRow>[] {
  return [
    {
      key: 'visitor',
      header: C.visitor,
      // The widest column: a name and its badges. A name cut at 1280 px shows whole on hover (Role cannot give it
      // room: at 130 px 'Senior Software Engineer' takes three lines).
      width: 230,
      render: (p) => (
        <span className="flex items-center gap-2">
          <Avatar id={p.id} name={p.visitor} anonymous={p.anonymous && p.visitor === 'Anonymous visitor'} />
          <span className="min-w-0">
            <span className="flex items-center gap-2">
              <Link to={user(p.id)} onClick={(e) => e.stopPropagation()} title={p.visitor} className="truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline">
                {p.visitor}
              </Link>
              <PersonIcons person={p} />
            </span>
            {p.email && p.email !== p.visitor && (
              <span className="block truncate text-xs text-slate-500" title={p.email}>
                {p.email}
              </span>
            )}
          </span>
        </span>
      ),
    },
    {
      key: 'company',
      header: C.company,
      width: 170,
      render: (p) => (
        <span className="block min-w-0">
          <span className="block truncate" title={p.company ?? undefined}>
            {p.company ?? '—'}
          </span>
          {p.companyDomain && p.companyDomain !== p.company && (
            <span className="block truncate text-xs text-slate-500" title={p.companyDomain}>
              {p.companyDomain}
            </span>
          )}
        </span>
      ),
    },
    { key: 'activity', header: C.activity, width: 100, render: (p) => plural(p.visits, 'visit') },
    // Role and Last seen wrap onto a second line, as Visitor and Company do, rather than lose their ends.
    { key: 'role', header: C.role, width: 150, render: (p) => <span className={WRAP} title={p.role ?? undefined}>{p.role ?? '—'}</span> },
    {
      key: 'lastSeen',
      header: C.lastSeen,
      width: 130,
      render: (p) =>
        p.lastSeen ? (
          <time className={WRAP} dateTime={p.lastSeen} title={formatDateTime(p.lastSeen)}>
            {formatRelative(p.lastSeen)}
          </time>
        ) : (
          '—'
        ),
    },
    { key: 'employees', header: C.employees, width: 100, numeric: true, render: (p) => (p.employees === null ? '—' : p.employees.toLocaleString('en-US')) },
    { key: 'revenue', header: C.revenue, width: 90, numeric: true, render: (p) => (p.revenue === null ? '—' : formatRevenue(p.revenue)) },
  ]
}

function Empty({ search }: { search: string }) {
  if (search) return <p className="text-base font-medium text-slate-700">{PEOPLE_TEXT.noMatches(search)}</p>
  return (
    <div className="space-y-1">
      <p className="text-base font-medium text-slate-700">{PEOPLE_TEXT.emptyTitle}</p>
      <p>{PEOPLE_TEXT.emptyText}</p>
    </div>
  )
}

/**
 * The People table (part 3 §2 People): the organisation's identified people,
 * most recently seen first, 20 a page from the server; 'Show anonymous users'
 * adds the visitors nobody has identified (the call's ip2company). A row
 * opens the company page when the person's company domain is known; the
 * name opens the person's profile. fl0 adds a search (name, e-mail or
 * company, on the server: the pager and total follow it) and 'Export CSV',
 * the whole list as the search and toggle narrow it.
 */
export function PeopleTable() {
  const api = useApi()
  const navigate = useNavigate()
  const paths = usePeoplePaths()
  const [anonymous, setAnonymous] = useState(false)
  const [text, setText] = useState('')
  const search = useSettled(text.trim(), SEARCH_DEBOUNCE_MS)
  const [page, setPage] = usePage({ anonymous, search })
  const fetched = useFetch((signal) => api.people.list(paths.organization, page, anonymous, search, signal), [paths.organization, page, anonymous, search])
  return (
    <section aria-label="People" className="space-y-3">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <input
          type="search"
          aria-label="Search people"
          placeholder={PEOPLE_TEXT.searchPlaceholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-80 rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
        />
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700">
          <span className="relative inline-flex h-5 w-9 shrink-0">
            {/* The real checkbox lies over the drawn switch, so a click on either is a click on it. */}
            <input type="checkbox" role="switch" aria-describedby="people-counted" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer opacity-0" />
            <span
              aria-hidden
              className="pointer-events-none h-5 w-9 rounded-full bg-slate-300 transition-colors after:absolute after:left-0.5 after:top-0.5 after:h-4 after:w-4 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-indigo-600 peer-checked:after:translate-x-4 peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-400"
            />
          </span>
          {PEOPLE_TEXT.showAnonymous}
        </label>
        {/* A plain link: the browser downloads the file itself (Content-Disposition), with the session's cookie. */}
        <a
          href={api.people.exportUrl(paths.organization, anonymous, search)}
          download
          className="ml-auto inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 transition-colors hover:bg-slate-50"
        >
          {PEOPLE_TEXT.exportCsv}
        </a>
      </div>
      {/* Who the total counts, so it can be told from the admin table's (leads and partner matches counted there). */}
      <p id="people-counted" className="-mt-1 text-xs text-slate-500">
        {anonymous ? PEOPLE_TEXT.whoIsCountedAnonymous : PEOPLE_TEXT.whoIsCounted}
      </p>
      <FetchView fetched={fetched}>
        {({ totalUsers, users }) => (
          <DataGrid
            columns={columns(paths.user)}
            rows={users}
            rowKey={(p) => p.id}
            total={totalUsers}
            page={page}
            onPage={setPage}
            onRowClick={(p) => p.companyDomain && navigate(paths.companyPage(p.companyDomain))}
            empty={<Empty search={search} />}
          />
        )}
      </FetchView>
    </section>
  )
}
