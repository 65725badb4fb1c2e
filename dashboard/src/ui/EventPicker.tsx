import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useAnchoredPanel } from './anchor.ts'
import { useApi } from '../api/context.tsx'
import type { KnownEvent } from '../api/types.ts'
import { useFetch } from '../api/useFetch.ts'
import { shortNumber } from './format.ts'
import { Spinner } from './Spinner.tsx'

/** How long the search waits after the last key before asking the server. */
export const EVENT_SEARCH_DEBOUNCE_MS = 200

export const EVENT_PICKER_TEXT = {
  search: 'Search events...',
  noEvents: 'No events found',
  custom: 'Add custom event',
  customNamed: (name: string) => `Add custom event "${name}"`,
} as const

interface Props {
  org: string
  onPick: (eventName: string) => void
  /** Names already chosen: not offered again. */
  chosen?: readonly string[]
  /** The button that opens the picker. */
  label?: string
  /** Whether a name typed in the search may be added though no event of that name has arrived yet (default: yes). */
  allowCustom?: boolean
  /** Registers the opening button with a form (useForm's field ref), so errors about the list land beside it. */
  buttonRef?: (el: HTMLElement | null) => void
  buttonProps?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string }
}

/**
 * Picks an event name: the organisation's known events (GET .../events, most
 * frequent first, searched on the server so that every event can be found),
 * or a custom one from the search text when that is not blank (part 1 §5).
 * Used by the feature modal and, later, the metric editor.
 *
 * Escape closes the picker only, not a drawer it sits in; a click outside closes it.
 */
export function EventPicker({ org, onPick, chosen = [], label = 'Add event', allowCustom = true, buttonRef, buttonProps }: Props) {
  const api = useApi()
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState('')
  const [query, setQuery] = useState('')
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  // Fixed to the window beside its button: a form or drawer that scrolls inside would otherwise clip it.
  const placed = useAnchoredPanel(open, button, panel)
  const setButton = useCallback(
    (el: HTMLButtonElement | null) => {
      button.current = el
      buttonRef?.(el)
    },
    [buttonRef],
  )
  const listId = useId()

  // The server is asked once typing pauses; the last answer stays on screen meanwhile.
  useEffect(() => {
    const next = search.trim()
    if (next === query) return
    const timer = setTimeout(() => setQuery(next), EVENT_SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [search, query])
  const fetched = useFetch((signal) => api.events.list(org, query, signal), [org, query], { enabled: open })
  const last = useRef<KnownEvent[] | undefined>(undefined)
  if (fetched.status === 'loaded') last.current = fetched.data.events

  useEffect(() => {
    if (!open) return
    const inside = (n: Node) => root.current?.contains(n) || panel.current?.contains(n)
    const onDown = (e: MouseEvent) => !inside(e.target as Node) && close()
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  function close() {
    setOpen(false)
    setSearch('')
    setQuery('')
    last.current = undefined
  }
  function pick(name: string) {
    onPick(name)
    close()
  }

  const term = search.trim()
  const taken = new Set(chosen)
  const known = (last.current ?? []).filter((e) => !taken.has(e.name))
  // Narrowed here too, so what shows always matches what is typed, before the server's answer arrives.
  const shown = term ? known.filter((e) => e.name.toLowerCase().includes(term.toLowerCase())) : known
  const exact = (last.current ?? []).some((e) => e.name === term)

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape') {
      // Handled here: the drawer around the picker listens for Escape on the window.
      e.stopPropagation()
      e.preventDefault()
      close()
    } else if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
      e.preventDefault()
      const match = shown.find((ev) => ev.name === term)
      if (match) pick(match.name)
      else if (term && allowCustom && !taken.has(term)) pick(term)
    }
  }

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        type="button"
        ref={setButton}
        {...buttonProps}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
        className="inline-flex items-center gap-1 rounded-full border border-dashed border-slate-400 px-3 py-1 text-sm text-slate-700 hover:border-indigo-500 hover:text-indigo-700"
      >
        <span aria-hidden>+</span> {label}
      </button>
      {open && (
        <div ref={panel} data-testid="event-picker" style={placed} className="z-40 flex w-80 flex-col overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg">
          <div className="border-b border-slate-100 p-2">
            <input
              type="search"
              autoFocus
              aria-label="Search events"
              aria-controls={listId}
              placeholder={EVENT_PICKER_TEXT.search}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
            />
          </div>
          {fetched.status === 'error' ? (
            <p role="alert" className="p-3 text-sm text-red-700">
              {fetched.error}
            </p>
          ) : last.current === undefined ? (
            <Spinner label="Loading events" />
          ) : (
            <ul id={listId} aria-label="Known events" aria-busy={fetched.status === 'pending'} className="max-h-64 min-h-0 overflow-y-auto py-1">
              {shown.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{EVENT_PICKER_TEXT.noEvents}</li>}
              {shown.map((e) => (
                <li key={e.name}>
                  <button
                    type="button"
                    aria-label={e.name}
                    title={`${e.name}: ${e.volume} events`}
                    onClick={() => pick(e.name)}
                    className="flex w-full items-center justify-between gap-3 px-3 py-1.5 text-left text-sm hover:bg-indigo-50 focus:bg-indigo-50 focus:outline-none"
                  >
                    <span className="truncate">{e.name}</span>
                    <span className="shrink-0 text-xs tabular-nums text-slate-500">{shortNumber(e.volume)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {allowCustom && (
            <div className="border-t border-slate-100 p-2">
              <button
                type="button"
                disabled={!term || exact || taken.has(term)}
                onClick={() => pick(term)}
                className="w-full truncate rounded px-2 py-1.5 text-left text-sm text-indigo-700 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
              >
                {term && !exact && !taken.has(term) ? EVENT_PICKER_TEXT.customNamed(term) : EVENT_PICKER_TEXT.custom}
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
