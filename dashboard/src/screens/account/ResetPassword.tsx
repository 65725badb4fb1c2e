import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { passwordResetSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { isLinkRefused, LinkExpired } from './LinkExpired.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

/**
 * account/reset-password?token=…: the link of a reset e-mail. A new password
 * signs the user in; every other session of the account ends.
 */
export default function ResetPassword() {
  const api = useApi()
  const finish = useFinishSignIn()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [refused, setRefused] = useState(!token)
  const form = useForm({
    initial: { token, password: '' },
    schema: passwordResetSchema,
    submit: async (values) => finish((await api.auth.resetPassword(values)).token),
    onError: (error) => {
      if (!isLinkRefused(error)) return false
      setRefused(true)
      return true
    },
  })
  if (refused) return <LinkExpired action="reset" />
  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label="New password" type="password" autoComplete="new-password" field={form.field('password')} error={form.errors.password} />
        <Button type="submit" className="w-full" loading={form.submitting}>
          Save and sign in
        </Button>
      </form>
    </AuthCard>
  )
}
