import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { passwordResetRequestSchema, type MailedResponse } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { ExternalSignIn } from './ExternalSignIn.tsx'
import { MailSent } from './MailSent.tsx'
import { useAuthConfig } from './useAuthConfig.ts'

const backToSignIn = (
  <Link to="/account/sign-in" className="font-medium text-indigo-700 underline">
    Back to sign in
  </Link>
)

/** account/forgot-password: asks for a reset link. The answer is the same whether the address has an account or not. */
function LocalForgotPassword() {
  const api = useApi()
  const [params] = useSearchParams()
  const [mailed, setMailed] = useState<MailedResponse>()
  const form = useForm({
    initial: { email: params.get('email') ?? '' },
    schema: passwordResetRequestSchema,
    submit: async (values) => setMailed(await api.auth.requestPasswordReset(values)),
  })
  if (mailed) {
    return (
      <MailSent mailed={mailed} footer={backToSignIn}>
        If an account uses <strong>{mailed.email}</strong>, we sent it a link to choose a new password. The link works for an hour.
      </MailSent>
    )
  }
  return (
    <AuthCard title="Reset your password" footer={backToSignIn}>
      <p className="text-sm text-slate-700">Enter the email address of your account, and we will send you a link to choose a new password.</p>
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label="Email" type="email" autoComplete="email" field={form.field('email')} error={form.errors.email} />
        <Button type="submit" className="w-full" loading={form.submitting}>
          Send the link
        </Button>
      </form>
    </AuthCard>
  )
}

export default function ForgotPassword() {
  const config = useAuthConfig()
  return <FetchView fetched={config}>{(c) => (c.provider === 'oidc' ? <ExternalSignIn config={c} /> : <LocalForgotPassword />)}</FetchView>
}
