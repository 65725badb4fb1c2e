import { useState } from 'react'
import { LEXICON_TEXT } from '@fl0/contracts/lexicon'
import { useApi } from '../../api/context.tsx'
import type { LexiconEvent } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { PAGE_SIZE } from '../../constants.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { usePage } from '../../ui/grid/usePage.ts'
import { shortNumber } from '../../ui/format.ts'
import { ExpandButton, SearchBox } from './controls.tsx'
import { EventProperties } from './EventProperties.tsx'

type SortKey = 'name' | 'volume'
interface Sort {
  key: SortKey
  descending: boolean
}
/** Part 2 §9: by volume, most first. */
const DEFAULT_SORT: Sort = { key: 'volume', descending: true }

export function sortEvents(events: LexiconEvent[], sort: Sort): LexiconEvent[] {
  const byName = (a: LexiconEvent, b: LexiconEvent) => a.name.localeCompare(b.name)
  const compare = sort.key === 'name' ? byName : (a: LexiconEvent, b: LexiconEvent) => a.volume - b.volume || -byName(a, b)
  return [...events].sort((a, b) => (sort.descending ? -compare(a, b) : compare(a, b)))
}

function SortHeader({ label, column, sort, onSort }: { label: string; column: SortKey; sort: Sort; onSort: (s: Sort) => void }) {
  const active = sort.key === column
  // A new column starts the way it reads best: names A to Z, volumes most first.
  const next: Sort = active ? { key: column, descending: !sort.descending } : { key: column, descending: column === 'volume' }
  return (
    <button type="button" onClick={() => onSort(next)} className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-slate-900">
      {label}
      <span aria-hidden className={active ? 'text-slate-700' : 'text-slate-300'}>
        {active && !sort.descending ? '▲' : '▼'}
      </span>
    </button>
  )
}

function EventGrid({ org, events, search }: { org: string; events: LexiconEvent[]; search: string }) {
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT)
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const q = search.trim().toLowerCase()
  const rows = sortEvents(q ? events.filter((e) => e.name.toLowerCase().includes(q)) : events, sort)
  const [page, setPage] = usePage({ q, sort })
  const toggle = (name: string) =>
    setOpen((s) => {
      const next = new Set(s)
      if (!next.delete(name)) next.add(name)
      return next
    })
  const ariaSort = (key: SortKey) => (sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none')
  const columns: Column<LexiconEvent>[] = [
    {
      key: 'name',
      header: <SortHeader label={LEXICON_TEXT.name} column="name" sort={sort} onSort={setSort} />,
      sort: ariaSort('name'),
      width: 520,
      render: (e) => (
        <ExpandButton expanded={open.has(e.name)} onToggle={() => toggle(e.name)}>
          {e.name}
        </ExpandButton>
      ),
    },
    {
      key: 'volume',
      header: <SortHeader label={LEXICON_TEXT.volume} column="volume" sort={sort} onSort={setSort} />,
      sort: ariaSort('volume'),
      width: 200,
      numeric: true,
      render: (e) => <span title={e.volume.toLocaleString('en-US')}>{shortNumber(e.volume)}</span>,
    },
  ]
  return (
    <DataGrid
      columns={columns}
      rows={rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
      rowKey={(e) => e.tagId}
      total={rows.length}
      page={page}
      onPage={setPage}
      empty={LEXICON_TEXT.noEvents}
      expanded={(e) => (open.has(e.name) ? <EventProperties org={org} event={e.name} /> : undefined)}
    />
  )
}

/** The Events tab (part 2 §2): searchable, sortable by name and 30-day volume, a row opens into its properties. */
export function EventsTab({ org }: { org: string }) {
  const api = useApi()
  const [search, setSearch] = useState('')
  const fetched = useFetch((signal) => api.lexicon.events(org, signal), [org])
  return (
    <div className="space-y-4">
      <SearchBox label="Search events" value={search} onChange={setSearch} />
      <FetchView fetched={fetched}>{({ events }) => <EventGrid org={org} events={events} search={search} />}</FetchView>
    </div>
  )
}
