import type { TextareaHTMLAttributes } from 'react'
import { controlClass, Field } from './Field.tsx'

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'ref' | 'className'> {
  label: string
  error?: string
  /** From form.field(name). */
  field: {
    name: string
    id: string
    value: string
    onChange: TextareaHTMLAttributes<HTMLTextAreaElement>['onChange']
    ref: (el: HTMLElement | null) => void
  }
}

/** A labelled textarea with its error beside it (part 1 §8): TextField for longer text. */
export function TextAreaField({ label, error, field, ...rest }: Props) {
  return (
    <Field id={field.id} label={label} error={error}>
      <textarea {...rest} {...field} className={controlClass(error)} />
    </Field>
  )
}
