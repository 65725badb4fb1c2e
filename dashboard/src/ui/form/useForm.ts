import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { toFieldErrors } from '@fl0/contracts/errors'
import type { z } from 'zod'
import { AUTOSUBMIT_MS } from '../../constants.ts'
import { isSilentError, serverErrors, type FieldError } from '../../api/errors.ts'
import { useSnackbar } from '../snackbar/state.ts'
import { dedupeByField, distributeErrors, requiredErrors } from './errors.ts'

type Values = Record<string, unknown>

export interface FormOptions<V extends Values> {
  initial: V
  /** Checked before sending (part 1 §5); its messages are the contract's. */
  schema?: z.ZodType
  /** Fields under the generic required rule ('must be provided'). */
  required?: ReadonlyArray<keyof V & string>
  submit: (values: V) => Promise<unknown>
  /** Submit 500 ms after the data last changed (part 1 §4). */
  autoSubmit?: boolean
  /** Handles a failure itself (a reload snackbar) by returning true. */
  onError?: (error: unknown) => boolean | void
}

/**
 * A form's values, its errors beside the fields, and submission: validated
 * before sending, errors from the server placed by distributeErrors, the first
 * erroneous field focused, a field's error cleared as soon as it changes.
 */
export function useForm<V extends Values>(options: FormOptions<V>) {
  const [values, setValues] = useState<V>(options.initial)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [submitting, setSubmitting] = useState(false)
  const [changes, setChanges] = useState(0)
  const elements = useRef(new Map<string, HTMLElement>())
  const optionsRef = useRef(options)
  optionsRef.current = options
  const valuesRef = useRef(values)
  valuesRef.current = values
  const snackbar = useSnackbar()
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const show = useCallback(
    (list: FieldError[]) => {
      const placed = distributeErrors(list, new Set(elements.current.keys()))
      setErrors(placed.fields)
      for (const message of placed.snackbars) snackbar.error(message)
      if (placed.focus) elements.current.get(placed.focus)?.focus()
    },
    [snackbar],
  )

  const setValue = useCallback(<K extends keyof V & string>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors((e) => {
      if (!(name in e)) return e
      const { [name]: _cleared, ...rest } = e
      return rest
    })
    setChanges((n) => n + 1)
  }, [])

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault()
      const { schema, required = [], submit: send, onError } = optionsRef.current
      const current = valuesRef.current
      const parsed = schema?.safeParse(current)
      const invalid = dedupeByField([
        ...requiredErrors(current, required),
        ...(parsed && !parsed.success ? toFieldErrors(parsed.error) : []),
      ])
      if (invalid.length > 0) {
        show(invalid)
        return false
      }
      setSubmitting(true)
      try {
        // What the schema made of the values (trimmed, normalised) is what is sent.
        await send(parsed?.success ? (parsed.data as V) : current)
        if (mounted.current) setErrors({})
        return true
      } catch (error) {
        if (isSilentError(error) || !mounted.current) return false
        if (onError?.(error)) return false
        show(serverErrors(error))
        return false
      } finally {
        if (mounted.current) setSubmitting(false)
      }
    },
    [show],
  )

  // Auto-submitting forms send 500 ms after the last change.
  useEffect(() => {
    if (!optionsRef.current.autoSubmit || changes === 0) return
    const timer = setTimeout(() => void submit(), AUTOSUBMIT_MS)
    return () => clearTimeout(timer)
  }, [changes, submit])

  const field = useCallback(
    <K extends keyof V & string>(name: K) => ({
      name,
      id: `field-${name}`,
      value: (valuesRef.current[name] ?? '') as string,
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => setValue(name, e.target.value as V[K]),
      ref: (el: HTMLElement | null) => {
        if (el) elements.current.set(name, el)
        else elements.current.delete(name)
      },
      'aria-invalid': name in errors || undefined,
      'aria-describedby': name in errors ? `field-${name}-error` : undefined,
    }),
    // values is read through the ref; re-create when values or errors change so inputs re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [errors, values, setValue],
  )

  return { values, errors, submitting, setValue, submit, field, setErrors }
}

export type Form<V extends Values> = ReturnType<typeof useForm<V>>
