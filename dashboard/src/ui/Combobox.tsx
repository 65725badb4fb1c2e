import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useFetch } from '../api/useFetch.ts'
import { Spinner } from './Spinner.tsx'

/** Pickers show at most this many suggestions, then say how many there were (part 3 §9). */
export const SUGGESTION_LIMIT = 100
const noSuggestions = async (): Promise<string[]> => []
export const moreResults = (total: number) => `${SUGGESTION_LIMIT} of ${total} results shown`

interface Props {
  /** The input's accessible name. */
  label: string
  value: string
  onChange: (value: string) => void
  /** Loads the suggestions, the first time the list opens and whenever `deps` change… */
  load?: (signal: AbortSignal) => Promise<string[]>
  deps?: readonly unknown[]
  /** …or the suggestions, when the screen has them already. */
  options?: readonly string[]
  /** Shown when no suggestion matches ('No values found'). */
  empty: string
  placeholder?: string
  disabled?: boolean
  type?: 'text' | 'number' | 'date'
  inputRef?: (el: HTMLElement | null) => void
  invalid?: boolean
  describedBy?: string
  className?: string
}

/**
 * A text input with suggestions from a look-up (trait names and values,
 * property paths and values): free text is always allowed, the suggestions
 * narrow as one types, and they are fetched only once the list is opened.
 */
export function Combobox({ label, value, onChange, load, deps = [], options, empty, placeholder, disabled, type = 'text', inputRef, invalid, describedBy, className = '' }: Props) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const root = useRef<HTMLDivElement>(null)
  const listId = useId()
  const fetched = useFetch(load ?? noSuggestions, deps, { enabled: open && !options })

  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false)
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  const all = options ?? (fetched.status === 'loaded' ? fetched.data : [])
  const term = value.trim().toLowerCase()
  // What was typed exactly is still offered among the rest: narrowing only when it is not one of them.
  const matching = term && !all.some((s) => s.toLowerCase() === term) ? all.filter((s) => s.toLowerCase().includes(term)) : all
  const shown = matching.slice(0, SUGGESTION_LIMIT)

  function choose(s: string) {
    onChange(s)
    setOpen(false)
    setActive(-1)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setActive((i) => Math.min(i + 1, shown.length - 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((i) => Math.max(i - 1, 0))
    } else if (e.key === 'Enter') {
      // Enter picks a suggestion or closes the list; it never submits the form around it.
      e.preventDefault()
      if (open && active >= 0 && shown[active] !== undefined) choose(shown[active]!)
      else setOpen(false)
    } else if (e.key === 'Escape' && open) {
      // Only the list closes, not a dialog around it.
      e.stopPropagation()
      setOpen(false)
    }
  }

  return (
    <div ref={root} className={`relative ${className}`}>
      <input
        ref={inputRef}
        type={type}
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        placeholder={placeholder}
        disabled={disabled}
        value={value}
        onChange={(e) => {
          onChange(e.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        className={`w-full rounded-md border bg-white px-2 py-1.5 text-sm outline-none focus:ring-2 disabled:bg-slate-50 disabled:text-slate-400 ${invalid ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:ring-indigo-200'}`}
      />
      {open && !disabled && (
        <div className="absolute left-0 top-full z-40 mt-1 w-full min-w-48 rounded-md border border-slate-200 bg-white shadow-lg">
          {options ? null : fetched.status === 'error' ? (
            <p role="alert" className="p-2 text-sm text-red-700">
              {fetched.error}
            </p>
          ) : fetched.status === 'pending' ? (
            <Spinner label={`Loading ${label}`} />
          ) : null}
          {(options || fetched.status === 'loaded') && (
            <ul id={listId} role="listbox" aria-label={label} className="max-h-56 overflow-y-auto py-1">
              {shown.length === 0 && <li className="px-3 py-1.5 text-sm text-slate-500">{empty}</li>}
              {shown.map((s, i) => (
                <li
                  key={s}
                  role="option"
                  aria-selected={i === active}
                  // mousedown, so the choice lands before the input's blur.
                  onMouseDown={(e) => {
                    e.preventDefault()
                    choose(s)
                  }}
                  className={`cursor-pointer truncate px-3 py-1.5 text-sm ${i === active ? 'bg-indigo-50' : 'hover:bg-indigo-50'}`}
                >
                  {s}
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
