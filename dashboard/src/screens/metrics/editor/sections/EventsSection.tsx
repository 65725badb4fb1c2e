import { METRIC_LIMITS } from '@fl0/contracts/metrics'
import { EventPicker } from '../../../../ui/EventPicker.tsx'
import { move, newKey, withFilter, withoutFilter, type Draft, type DraftEvent } from '../draft.ts'
import { EventFilter, type FieldWiring } from './EventFilter.tsx'
import type { SetField } from './Options.tsx'
import { Section } from './Section.tsx'

interface Props {
  org: string
  draft: Draft
  set: SetField
  wire: (name: string) => FieldWiring
  /** Clears the errors under a prefix once what they are about changes. */
  clearErrors: (prefix: string) => void
}

const iconButton = 'rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent'

/**
 * The events the metric counts: picked from the known events or typed (a
 * custom event), each with an optional filter; in the ordered operation they
 * are the funnel's steps, moved up and down. "Any event" counts every event.
 */
export function EventsSection({ org, draft, set, wire, clearErrors }: Props) {
  const { events } = draft
  const ordered = draft.operation === 'ordered'
  const setEvents = (next: DraftEvent[]) => {
    clearErrors('definition.events')
    set('events', next)
  }
  const replace = (i: number, e: DraftEvent) => setEvents(events.map((x, k) => (k === i ? e : x)))
  const picker = wire('definition.events')

  return (
    <Section
      title="Events"
      aside={
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={draft.isAnyEvent} onChange={(e) => set('isAnyEvent', e.target.checked)} className="h-4 w-4 rounded border-slate-300 text-indigo-600" />
          Any event
        </label>
      }
    >
      {events.length > 0 && (
        <ol aria-label="Events" className="space-y-2">
          {events.map((e, i) => (
            <li key={e.key} aria-label={e.name} className="rounded-md border border-slate-200 bg-white p-2">
              <div className="flex items-center gap-2">
                <span aria-hidden className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700">
                  {i + 1}
                </span>
                <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800" title={e.name}>
                  {e.name}
                </span>
                {ordered && (
                  <>
                    <button type="button" aria-label={`Move ${e.name} up`} disabled={i === 0} onClick={() => setEvents(move(events, i, -1))} className={iconButton}>
                      ↑
                    </button>
                    <button type="button" aria-label={`Move ${e.name} down`} disabled={i === events.length - 1} onClick={() => setEvents(move(events, i, 1))} className={iconButton}>
                      ↓
                    </button>
                  </>
                )}
                <button
                  type="button"
                  onClick={() => replace(i, e.property || e.occurring ? withoutFilter(e) : withFilter(e))}
                  className="rounded px-1.5 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50"
                  aria-label={`${e.property || e.occurring ? 'Remove filter of' : 'Add filter to'} ${e.name}`}
                >
                  {e.property || e.occurring ? 'Remove filter' : 'Add filter'}
                </button>
                <button type="button" aria-label={`Remove ${e.name}`} onClick={() => setEvents(events.filter((_, k) => k !== i))} className={iconButton}>
                  ✕
                </button>
              </div>
              {e.property && e.occurring && (
                <div className="mt-2">
                  <EventFilter org={org} index={i} event={e} onChange={(next) => replace(i, next)} occurringIgnored={draft.measureBy === 'total'} wire={wire} />
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {events.length === 0 && !draft.isAnyEvent && <p className="text-sm text-slate-500">No events added yet</p>}
      {events.length < METRIC_LIMITS.events && (
        <EventPicker
          org={org}
          label="Add event"
          // A funnel may pass the same event twice (A, B, A); elsewhere a repeat would count nothing new.
          chosen={ordered ? [] : events.map((e) => e.name)}
          onPick={(name) => setEvents([...events, { key: newKey(), name }])}
          buttonRef={picker.ref}
          buttonProps={{ 'aria-invalid': !!picker.error || undefined, 'aria-describedby': picker.error ? 'definition-events-error' : undefined }}
        />
      )}
      {picker.error && (
        <p id="definition-events-error" className="text-xs text-red-600">
          {picker.error}
        </p>
      )}
    </Section>
  )
}
