import type { InputHTMLAttributes } from 'react'

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'ref'> {
  label: string
  error?: string
  /** From form.field(name). */
  field: {
    name: string
    id: string
    value: string
    onChange: InputHTMLAttributes<HTMLInputElement>['onChange']
    ref: (el: HTMLElement | null) => void
  }
}

/** A labelled input with its error beside it (part 1 §8). */
export function TextField({ label, error, field, className = '', ...rest }: Props) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={field.id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        {...rest}
        {...field}
        className={`rounded-md border px-3 py-2 text-sm outline-none focus:ring-2 ${error ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:ring-indigo-200'}`}
      />
      {error && (
        <p id={`${field.id}-error`} className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
