import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { verifyEmailSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { isLinkRefused, LinkExpired } from './LinkExpired.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

/**
 * account/verify-email?token=…: the link of a sign-up's confirmation e-mail.
 * The account is made here, with the password chosen at sign-up typed again:
 * whoever the link reaches without having signed up (and mail scanners that
 * open links) makes nothing.
 */
export default function VerifyEmail() {
  const api = useApi()
  const finish = useFinishSignIn()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [refused, setRefused] = useState(!token)
  const form = useForm({
    initial: { token, password: '' },
    schema: verifyEmailSchema,
    submit: async (values) => finish((await api.auth.verifyEmail(values)).token),
    onError: (error) => {
      if (!isLinkRefused(error)) return false
      setRefused(true)
      return true
    },
  })
  if (refused) return <LinkExpired action="confirm" />
  return (
    <AuthCard title="Confirm your email address">
      <p className="text-sm text-slate-700">Enter the password you chose when you signed up, to confirm this address is yours and create your account.</p>
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label="Password" type="password" autoComplete="current-password" field={form.field('password')} error={form.errors.password} />
        <Button type="submit" className="w-full" loading={form.submitting}>
          Confirm and sign in
        </Button>
      </form>
    </AuthCard>
  )
}
