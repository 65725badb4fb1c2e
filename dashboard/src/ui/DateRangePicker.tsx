import { DATE_RANGES, type DateRange } from '../constants.ts'

/** The date ranges every graph offers: 7D, 30D, 3M, 6M, Year (part 1 §3, §9). */
export function DateRangePicker({ value, onChange, label = 'Date range', disabled, title }: { value: DateRange; onChange: (range: DateRange) => void; label?: string; disabled?: boolean; title?: string }) {
  return (
    <div role="radiogroup" aria-label={label} aria-disabled={disabled || undefined} title={disabled ? title : undefined} className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 text-sm">
      {DATE_RANGES.map((r) => (
        <button
          key={r.value}
          type="button"
          role="radio"
          aria-checked={r.value === value}
          disabled={disabled}
          onClick={() => onChange(r.value)}
          className={`rounded px-2.5 py-1 disabled:cursor-not-allowed ${r.value === value ? (disabled ? 'bg-slate-300 text-slate-700' : 'bg-indigo-600 text-white') : 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-transparent'}`}
        >
          {r.label}
        </button>
      ))}
    </div>
  )
}
