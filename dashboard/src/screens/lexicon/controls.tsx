import type { ReactNode } from 'react'

/** The lexicon's search box: a labelled searchbox, as the other list screens have. */
export function SearchBox({ label, value, onChange, placeholder, maxLength }: { label: string; value: string; onChange: (value: string) => void; placeholder?: string; maxLength?: number }) {
  return (
    <input
      type="search"
      aria-label={label}
      maxLength={maxLength}
      placeholder={placeholder ?? `${label}...`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="w-72 rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
    />
  )
}

/** A labelled select of a filter (Entity, Type). */
export function Filter<V extends string>({ label, value, options, onChange }: { label: string; value: V; options: ReadonlyArray<{ value: V; label: string }>; onChange: (value: V) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as V)} className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm text-slate-900 outline-none focus:ring-2 focus:ring-indigo-200">
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/** A row's name as the button that expands it, with a chevron that says which way. */
export function ExpandButton({ expanded, onToggle, children }: { expanded: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <button type="button" aria-expanded={expanded} onClick={onToggle} className="flex max-w-full items-center gap-2 text-left font-medium text-slate-900 hover:text-indigo-700">
      <span aria-hidden className={`inline-block w-3 text-slate-400 transition-transform ${expanded ? 'rotate-90' : ''}`}>
        ›
      </span>
      <span className="truncate">{children}</span>
    </button>
  )
}

/** A property's or trait's type, as a small label. */
export function TypeBadge({ type }: { type: string }) {
  return <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{type}</span>
}
