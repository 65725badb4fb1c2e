import { useState } from 'react'
import { AUDIENCE_ERRORS, DATE_UNITS, type DateUnit } from '@fl0/contracts/audiences'
import { rangeHolds } from './draft.ts'

export const inputClass = 'min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200'
export const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm'

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v))

/** Relative and action counts have a minimum of 0 (part 3 §5): a negative count is stored as 0. */
export function CountInput({ label, value, onChange }: { label: string; value: unknown; onChange: (v: string) => void }) {
  return (
    <input
      aria-label={label}
      type="number"
      min={0}
      step={1}
      value={text(value)}
      onChange={(e) => onChange(e.target.value !== '' && Number(e.target.value) < 0 ? '0' : e.target.value)}
      className={`${inputClass} w-20`}
    />
  )
}

export function UnitSelect({ label, value, onChange }: { label: string; value: DateUnit | null | undefined; onChange: (u: DateUnit) => void }) {
  return (
    <select aria-label={label} value={value ?? 'day'} onChange={(e) => onChange(e.target.value as DateUnit)} className={selectClass}>
      {DATE_UNITS.map((u) => (
        <option key={u} value={u}>
          {u}s
        </option>
      ))}
    </select>
  )
}

/**
 * Two values of a between (part 3 §5): what is typed shows as typed, but the
 * range is stored only when the second value is greater than the first, or
 * one of them is empty; until then the rule is said beside the inputs.
 */
export function RangeInput({
  label,
  type,
  first,
  second,
  read,
  min,
  onChange,
}: {
  label: string
  type: 'number' | 'date'
  first: unknown
  second: unknown
  read: (v: string) => number | string | undefined
  min?: number
  onChange: (first: string, second: string) => void
}) {
  const [typed, setTyped] = useState<{ first: string; second: string } | undefined>(undefined)
  const shown = typed ?? { first: text(first), second: text(second) }
  const holds = rangeHolds(shown.first, shown.second, read)
  const set = (which: 'first' | 'second', v: string) => {
    const value = min !== undefined && v !== '' && Number(v) < min ? String(min) : v
    const next = { ...shown, [which]: value }
    setTyped(next)
    if (rangeHolds(next.first, next.second, read)) onChange(next.first, next.second)
  }
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <input aria-label={`${label} first value`} type={type} min={min} value={shown.first} onChange={(e) => set('first', e.target.value)} aria-invalid={!holds || undefined} className={`${inputClass} w-36`} />
      <span className="text-xs text-slate-500">and</span>
      <input aria-label={`${label} second value`} type={type} min={min} value={shown.second} onChange={(e) => set('second', e.target.value)} aria-invalid={!holds || undefined} className={`${inputClass} w-36`} />
      {!holds && (
        <p role="alert" className="basis-full text-xs text-red-600">
          {AUDIENCE_ERRORS.range}
        </p>
      )}
    </div>
  )
}
