import { useEffect, useId, useRef, useState } from 'react'
import { AUDIENCE_TEXT } from '@fl0/contracts/audiences'
import { moreResults, SUGGESTION_LIMIT } from '../../../ui/Combobox.tsx'
import { Spinner } from '../../../ui/Spinner.tsx'

export interface PickerItem {
  value: string
  label: string
}

interface Props {
  /** The button's accessible name. */
  label: string
  value: string
  /** undefined while loading; an error's message instead of items when the look-up failed. */
  items: PickerItem[] | undefined
  error?: string
  onChange: (value: string) => void
  empty: string
  placeholder: string
}

/**
 * Picks one of a list by name, searched as one types: saved audiences and
 * features. At most 100 are shown, then '100 of N results shown' (part 3 §9).
 * A value the list does not have (an audience deleted since) reads 'Unknown'.
 */
export function Picker({ label, value, items, error, onChange, empty, placeholder }: Props) {
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState('')
  const root = useRef<HTMLDivElement>(null)
  const listId = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false)
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  const chosen = items?.find((i) => i.value === value)
  const shownLabel = !value ? placeholder : chosen ? chosen.label : items ? AUDIENCE_TEXT.unknown : '…'
  const term = search.trim().toLowerCase()
  const matching = (items ?? []).filter((i) => i.label.toLowerCase().includes(term))
  const shown = matching.slice(0, SUGGESTION_LIMIT)

  return (
    <div ref={root} className="relative min-w-0 flex-1">
      <button
        type="button"
        aria-label={label}
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={`w-full truncate rounded-md border border-slate-300 bg-white px-2 py-1.5 text-left text-sm ${value ? 'text-slate-900' : 'text-slate-400'}`}
      >
        {shownLabel}
      </button>
      {open && (
        <div
          className="absolute left-0 top-full z-40 mt-1 w-full min-w-56 rounded-md border border-slate-200 bg-white shadow-lg"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation()
              setOpen(false)
            }
          }}
        >
          <input
            autoFocus
            aria-label={`Search ${label}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search..."
            className="w-full border-b border-slate-100 px-3 py-2 text-sm outline-none"
          />
          {error ? (
            <p role="alert" className="p-2 text-sm text-red-700">
              {error}
            </p>
          ) : !items ? (
            <Spinner label={`Loading ${label}`} />
          ) : (
            <ul id={listId} role="listbox" aria-label={label} className="max-h-56 overflow-y-auto py-1">
              {shown.length === 0 && <li className="px-3 py-1.5 text-sm text-slate-500">{empty}</li>}
              {shown.map((i) => (
                <li
                  key={i.value}
                  role="option"
                  aria-selected={i.value === value}
                  onMouseDown={(e) => {
                    e.preventDefault()
                    onChange(i.value)
                    setOpen(false)
                    setSearch('')
                  }}
                  className="cursor-pointer truncate px-3 py-1.5 text-sm hover:bg-indigo-50"
                >
                  {i.label}
                </li>
              ))}
              {matching.length > SUGGESTION_LIMIT && <li className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500">{moreResults(matching.length)}</li>}
            </ul>
          )}
        </div>
      )}
    </div>
  )
}
