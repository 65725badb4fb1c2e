import { useState } from 'react'
import { LEXICON_SEARCH_MAX, LEXICON_TEXT, normaliseSelections } from '@fl0/contracts/lexicon'
import { useApi } from '../../api/context.tsx'
import { messageOf } from '../../api/errors.ts'
import type { FeatureSelections, MappingEvent } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { usePage } from '../../ui/grid/usePage.ts'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { ExpandButton, SearchBox, TypeBadge } from './controls.tsx'

const isIncluded = (s: FeatureSelections, event: string, property: string) => s.includedProperties.some((p) => p.event === event && p.property === property)

/** An event in or out of the model. Out takes its included properties with it (part 2 §4). */
export function withEvent(s: FeatureSelections, event: string, inModel: boolean): FeatureSelections {
  const excludedEvents = inModel ? s.excludedEvents.filter((e) => e !== event) : [...s.excludedEvents, event]
  return normaliseSelections({ excludedEvents, includedProperties: s.includedProperties })
}

export function withProperty(s: FeatureSelections, event: string, property: string, included: boolean): FeatureSelections {
  const others = s.includedProperties.filter((p) => !(p.event === event && p.property === property))
  return { ...s, includedProperties: included ? [...others, { event, property }] : others }
}

function MappingProperties({ event, selections, onChange }: { event: MappingEvent; selections: FeatureSelections; onChange: (s: FeatureSelections) => void }) {
  const inModel = !selections.excludedEvents.includes(event.name)
  if (event.properties.length === 0) return <p className="pl-5 text-sm text-slate-500">{LEXICON_TEXT.noProperties}</p>
  return (
    <ul aria-label={`Properties of ${event.name}`} className="grid grid-cols-1 gap-x-8 gap-y-1 pl-5 sm:grid-cols-2">
      {event.properties.map((p) => (
        <li key={p.name} className="flex items-center justify-between gap-3 py-1 text-sm">
          <label className={`flex min-w-0 items-center gap-2 ${inModel ? '' : 'text-slate-400'}`}>
            <input
              type="checkbox"
              disabled={!inModel}
              checked={inModel && isIncluded(selections, event.name, p.name)}
              onChange={(e) => onChange(withProperty(selections, event.name, p.name, e.target.checked))}
              className="h-4 w-4 accent-indigo-600"
            />
            <span className="truncate font-mono">{p.name}</span>
          </label>
          <TypeBadge type={p.propertyType} />
        </li>
      ))}
    </ul>
  )
}

function MappingGrid({ org, initial }: { org: string; initial: FeatureSelections }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [selections, setSelections] = useState(initial)
  const [search, setSearch] = useState('')
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const q = search.trim()
  const [page, setPage] = usePage(q)
  const fetched = useFetch((signal) => api.lexicon.mappingEvents(org, page, q, signal), [org, page, q])

  // Saved at once, the whole selection each time (part 2 §4); the queue keeps the saves in order.
  const change = (next: FeatureSelections) => {
    setSelections(next)
    api.lexicon.saveMapping(org, next).catch((error) => snackbar.error(messageOf(error)))
  }
  const toggle = (name: string) =>
    setOpen((s) => {
      const next = new Set(s)
      if (!next.delete(name)) next.add(name)
      return next
    })

  const columns: Column<MappingEvent>[] = [
    {
      key: 'name',
      header: LEXICON_TEXT.name,
      width: 520,
      render: (e) => (
        <ExpandButton expanded={open.has(e.name)} onToggle={() => toggle(e.name)}>
          {e.name}
        </ExpandButton>
      ),
    },
    {
      key: 'inModel',
      header: LEXICON_TEXT.inModel,
      width: 160,
      render: (e) => (
        <label className="inline-flex items-center gap-2">
          <input
            type="checkbox"
            checked={!selections.excludedEvents.includes(e.name)}
            onChange={(ev) => change(withEvent(selections, e.name, ev.target.checked))}
            className="h-4 w-4 accent-indigo-600"
          />
          {LEXICON_TEXT.inModel}
        </label>
      ),
    },
  ]

  return (
    <div className="space-y-4">
      {/* The server refuses longer search text (no event name is longer). */}
      <SearchBox label="Search events" value={search} onChange={setSearch} maxLength={LEXICON_SEARCH_MAX} />
      <FetchView fetched={fetched}>
        {({ events, totalEvents }) => (
          <DataGrid
            columns={columns}
            rows={events}
            rowKey={(e) => e.name}
            total={totalEvents}
            page={page}
            onPage={setPage}
            empty={LEXICON_TEXT.noEvents}
            expanded={(e) => (open.has(e.name) ? <MappingProperties event={e} selections={selections} onChange={change} /> : undefined)}
          />
        )}
      </FetchView>
    </div>
  )
}

/**
 * The Mapping tab (part 2 §2): which events are in the data model ('In model')
 * and which of their properties, saved on every change with no save button.
 * The list is the server's, 20 a page (MAPPING_PAGE_SIZE), searched by name.
 */
export function MappingTab({ org }: { org: string }) {
  const api = useApi()
  // Read behind the saves still queued: a choice made just before the tab was left (or while the server is
  // slow) would otherwise come back unticked, and the next change, which sends the whole selection, would undo it.
  const fetched = useFetch((signal) => api.http.queue.run(() => api.lexicon.mapping(org, signal)), [org])
  return <FetchView fetched={fetched}>{({ featureSelections }) => <MappingGrid org={org} initial={featureSelections} />}</FetchView>
}

