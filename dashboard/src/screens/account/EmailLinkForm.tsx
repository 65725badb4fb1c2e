import { useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import type { z } from 'zod'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { isLinkRefused, LinkExpired } from './LinkExpired.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

/**
 * The page an e-mailed link opens (?token=…): one password field, sent with
 * the link's secret; the ID token the answer holds signs the user in. A link
 * the server refuses (used, expired, made up) shows what to do instead.
 */
export function EmailLinkForm(props: {
  action: 'confirm' | 'reset'
  title: string
  intro?: ReactNode
  passwordLabel: string
  autoComplete: 'current-password' | 'new-password'
  submitLabel: string
  schema: z.ZodType<{ token: string; password: string }>
  send: (values: { token: string; password: string }) => Promise<{ token: string }>
}) {
  const finish = useFinishSignIn()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [refused, setRefused] = useState(!token)
  const form = useForm({
    initial: { token, password: '' },
    schema: props.schema,
    submit: async (values) => finish((await props.send(values)).token),
    onError: (error) => {
      if (!isLinkRefused(error)) return false
      setRefused(true)
      return true
    },
  })
  if (refused) return <LinkExpired action={props.action} />
  return (
    <AuthCard title={props.title}>
      {props.intro && <p className="text-sm text-slate-700">{props.intro}</p>}
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label={props.passwordLabel} type="password" autoComplete={props.autoComplete} field={form.field('password')} error={form.errors.password} />
        <Button type="submit" className="w-full" loading={form.submitting}>
          {props.submitLabel}
        </Button>
      </form>
    </AuthCard>
  )
}
