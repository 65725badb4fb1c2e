import { useState } from 'react'
import { LEAK_TEXT, SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../../ui/grid/DataGrid.tsx'
import { usePage } from '../../../ui/grid/usePage.ts'
import { ExpandButton } from '../../lexicon/controls.tsx'
import { RatingChip } from '../RatingChip.tsx'
import { eventInModel, propertyInModel, toggleEvent, toggleProperty, type Selections } from '../selections.ts'
import type { ActivityEvent, ActivityProperty, LeakKind } from '../../../api/types.ts'

/** An 'In model' box; one the trainer decides alone (a leak of the answer) is cleared and disabled, and says why. */
function InModel({ label, checked, onChange, leftOut }: { label: string; checked: boolean; onChange: (on: boolean) => void; leftOut?: string }) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={leftOut ? false : checked}
      disabled={leftOut !== undefined}
      title={leftOut}
      aria-description={leftOut}
      onChange={(e) => onChange(e.target.checked)}
      className="h-4 w-4 align-middle accent-indigo-600 disabled:cursor-not-allowed disabled:opacity-50"
    />
  )
}

const leftOutOf = (e: ActivityEvent) => (e.leak ? LEAK_TEXT[e.leak] : undefined)

/** Why an event is not among the model's features, as a badge beside its name. */
function LeakBadge({ leak }: { leak: LeakKind }) {
  return (
    <span data-leak={leak} className="shrink-0 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset">
      {LEAK_TEXT[leak]}
    </span>
  )
}

function useToggleSet() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const toggle = (key: string) =>
    setOpen((s) => {
      const next = new Set(s)
      if (!next.delete(key)) next.add(key)
      return next
    })
  return [open, toggle] as const
}

function PropertyValues({ event, property }: { event: string; property: ActivityProperty }) {
  if (property.values.length === 0) return <p className="py-1 pl-16 text-sm text-slate-500">No values found</p>
  return (
    <ul aria-label={`Values of ${event} ${property.name}`} className="pb-1 pl-16">
      {property.values.map((v) => (
        <li key={v.name} className="flex items-center justify-between gap-3 border-t border-slate-100 py-1 text-sm">
          <span className="truncate font-mono text-slate-700">{v.name}</span>
          <RatingChip rating={v.rating} />
        </li>
      ))}
    </ul>
  )
}

function EventProperties({ event, selections, onSelections }: { event: ActivityEvent; selections: Selections; onSelections: (s: Selections) => void }) {
  const [open, toggle] = useToggleSet()
  if (event.properties.length === 0) return <p className="pl-8 text-sm text-slate-500">No properties found</p>
  return (
    <ul aria-label={`Properties of ${event.name}`} className="space-y-0.5">
      {event.properties.map((p) => (
        <li key={p.name}>
          <div className="flex items-center gap-3 py-1 pl-8 text-sm">
            <InModel
              label={`In model: ${event.name} ${p.name}`}
              checked={propertyInModel(selections, event.name, p.name)}
              leftOut={leftOutOf(event)}
              onChange={(on) => onSelections(toggleProperty(selections, event.name, p.name, on))}
            />
            <div className="min-w-0 flex-1 font-mono">
              <ExpandButton expanded={open.has(p.name)} onToggle={() => toggle(p.name)}>
                {p.name}
              </ExpandButton>
            </div>
            <RatingChip rating={p.rating} />
          </div>
          {open.has(p.name) && <PropertyValues event={event.name} property={p} />}
        </li>
      ))}
    </ul>
  )
}

/**
 * The Activity table (part 3 §2): In model / Event name / Importance, paged
 * and searched by the server; an event expands to its properties and a
 * property to its values, each with its rating. Ticking and clearing boxes
 * only changes the selections held by the page (part 3 §4). An event the
 * trainer leaves out as a leak of the answer (the metric's own, or one that
 * comes only with it) says so, and its boxes cannot be ticked.
 */
export function ActivityTable({ org, analysisId, search, selections, onSelections }: { org: string; analysisId: string; search: string; selections: Selections; onSelections: (s: Selections) => void }) {
  const api = useApi()
  const [page, setPage] = usePage(search)
  const [open, toggle] = useToggleSet()
  const fetched = useFetch((signal) => api.scoring.activityEvents(org, analysisId, page, search, signal), [org, analysisId, page, search])

  const columns: Column<ActivityEvent>[] = [
    {
      key: 'inModel',
      header: SCORING_TEXT.columns.inModel,
      width: 110,
      render: (e) => <InModel label={`In model: ${e.name}`} checked={eventInModel(selections, e.name)} leftOut={leftOutOf(e)} onChange={(on) => onSelections(toggleEvent(selections, e.name, on))} />,
    },
    {
      key: 'name',
      header: SCORING_TEXT.columns.eventName,
      width: 520,
      render: (e) => (
        <div className="flex min-w-0 items-center gap-2">
          <div className="min-w-0">
            <ExpandButton expanded={open.has(e.name)} onToggle={() => toggle(e.name)}>
              {e.name}
            </ExpandButton>
          </div>
          {e.leak && <LeakBadge leak={e.leak} />}
        </div>
      ),
    },
    { key: 'importance', header: SCORING_TEXT.columns.importance, width: 160, render: (e) => <RatingChip rating={e.rating} /> },
  ]

  return (
    <FetchView fetched={fetched}>
      {({ events, totalEvents }) => (
        <DataGrid
          columns={columns}
          rows={events}
          rowKey={(e) => e.name}
          total={totalEvents}
          page={page}
          onPage={setPage}
          empty={SCORING_TEXT.noEvents}
          expanded={(e) => (open.has(e.name) ? <EventProperties event={e} selections={selections} onSelections={onSelections} /> : undefined)}
        />
      )}
    </FetchView>
  )
}
