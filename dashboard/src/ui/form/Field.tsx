import type { ChangeEventHandler, ReactNode } from 'react'

/** What form.field(name) hands a control (useForm). */
export interface FieldBinding<E extends HTMLElement> {
  name: string
  id: string
  value: string
  onChange: ChangeEventHandler<E>
  ref: (el: HTMLElement | null) => void
}

/** A text control's classes (input or textarea), red while its field has an error. */
export const controlClass = (error?: string) =>
  `rounded-md border px-3 py-2 text-sm outline-none focus:ring-2 ${error ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:ring-indigo-200'}`

/**
 * A form field around its control (part 1 §8): the label for `id` above it,
 * the error below it as `{id}-error`, the id the control's aria-describedby names.
 */
export function Field({ id, label, error, className, children }: { id: string; label: ReactNode; error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `flex flex-col gap-1 ${className}` : 'flex flex-col gap-1'}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
