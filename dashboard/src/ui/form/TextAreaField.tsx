import type { TextareaHTMLAttributes } from 'react'
import { controlClass, Field, type FieldBinding } from './Field.tsx'

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'ref' | 'className'> {
  label: string
  error?: string
  /** From form.field(name). */
  field: FieldBinding<HTMLTextAreaElement>
}

/** A labelled textarea with its error beside it (part 1 §8): TextField for longer text. */
export function TextAreaField({ label, error, field, ...rest }: Props) {
  return (
    <Field id={field.id} label={label} error={error}>
      <textarea {...rest} {...field} className={controlClass(error)} />
    </Field>
  )
}
