export interface SegmentOption<T extends string> {
  value: T
  label: string
  disabled?: boolean
  /** Why the option is disabled: shown on hover and read with the option. */
  reason?: string
}

interface Props<T extends string> {
  /** The group's accessible name. */
  label: string
  value: T
  options: ReadonlyArray<SegmentOption<T>>
  onChange: (value: T) => void
  /** The whole group (the date range for the metric and funnel graph types). */
  disabled?: boolean
  id?: string
}

/**
 * A row of mutually exclusive choices (a radio group drawn as segments). A
 * disabled option keeps its place and says why, so a choice is never refused
 * without a reason.
 */
export function Segmented<T extends string>({ label, value, options, onChange, disabled, id }: Props<T>) {
  return (
    <div id={id} role="radiogroup" aria-label={label} aria-disabled={disabled || undefined} className="inline-flex flex-wrap rounded-md border border-slate-300 bg-white p-0.5 text-sm">
      {options.map((o) => {
        const off = disabled || o.disabled
        const checked = o.value === value
        return (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={off}
            title={o.disabled ? o.reason : undefined}
            aria-description={o.disabled ? o.reason : undefined}
            onClick={() => !checked && onChange(o.value)}
            className={`rounded px-2.5 py-1 disabled:cursor-not-allowed ${
              checked ? (off ? 'bg-slate-300 text-slate-700' : 'bg-indigo-600 text-white') : 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-transparent'
            }`}
          >
            {o.label}
          </button>
        )
      })}
    </div>
  )
}
