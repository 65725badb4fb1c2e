import { useId, type ReactNode } from 'react'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { Heading } from '../../ui/Heading.tsx'

/** An admin screen: its heading (the menu's label), actions beside it, filters above the content. */
export function AdminScreen({ heading, actions, filters, children }: { heading: string; actions?: ReactNode; filters?: ReactNode; children: ReactNode }) {
  return (
    <div className="p-8">
      <Heading actions={actions}>{heading}</Heading>
      {filters && (
        <div role="group" aria-label="Filters" className="mb-4 flex flex-wrap items-end gap-4">
          {filters}
        </div>
      )}
      {children}
    </div>
  )
}

// One height for inputs and selects: Chromium draws a select 2 px shorter than a text field of the same padding, and a row of filters went out of line.
const FIELD = 'h-10 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200'

interface FilterFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  className?: string
  /** Says why the value is not applied yet. */
  invalid?: string
}

/** A labelled text filter of an admin grid. */
export function FilterField({ label, value, onChange, placeholder, className = 'w-64', invalid }: FilterFieldProps) {
  const noteId = useId()
  return (
    <label className="relative flex flex-col gap-1 text-sm font-medium text-slate-700">
      {label}
      <input
        type="search"
        value={value}
        placeholder={placeholder}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? noteId : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={`${FIELD} font-normal ${invalid ? 'border-amber-500' : ''} ${className}`}
      />
      {invalid && (
        <span id={noteId} className="absolute top-full mt-0.5 text-xs font-normal text-amber-700">
          {invalid}
        </span>
      )}
    </label>
  )
}

/** The organisation picker, fed by GET /api-v2/admin/orgs (value and text per option); '' is every organisation. */
export function OrgPicker({ value, onChange }: { value: string; onChange: (orgId: string) => void }) {
  const api = useApi()
  const orgs = useFetch((signal) => api.admin.orgs(signal), [])
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
      Organization
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={orgs.status !== 'loaded'} aria-busy={orgs.status === 'pending' || undefined} className={`${FIELD} w-64 font-normal`}>
        <option value="">All organizations</option>
        {orgs.status === 'loaded' &&
          orgs.data.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
      </select>
      {orgs.status === 'error' && (
        <span role="alert" className="text-xs font-normal text-red-600">
          {orgs.error}
        </span>
      )}
    </label>
  )
}
