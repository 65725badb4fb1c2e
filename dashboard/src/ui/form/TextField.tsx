import type { InputHTMLAttributes } from 'react'
import { controlClass, Field, type FieldBinding } from './Field.tsx'

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'ref'> {
  label: string
  error?: string
  /** From form.field(name). */
  field: FieldBinding<HTMLInputElement>
}

/** A labelled input with its error beside it (part 1 §8). */
export function TextField({ label, error, field, className, ...rest }: Props) {
  return (
    <Field id={field.id} label={label} error={error} className={className}>
      <input {...rest} {...field} className={controlClass(error)} />
    </Field>
  )
}
