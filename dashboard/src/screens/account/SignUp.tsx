import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { localSignUpSchema, type MailedResponse } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { ExternalSignIn } from './ExternalSignIn.tsx'
import { useAuthConfig } from './useAuthConfig.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { afterSignIn } from '../../session/token.ts'
import { MailSent } from './MailSent.tsx'

/**
 * The built-in provider's sign-up. The server answers the same whether the
 * address is new or already has an account (it tells the address's owner by
 * e-mail, nobody else), so the screen asks the user to follow the link it sent.
 */
function LocalSignUp() {
  const api = useApi()
  const [params] = useSearchParams()
  const [mailed, setMailed] = useState<MailedResponse>()
  const form = useForm({
    initial: { name: '', email: params.get('email') ?? '', password: '' },
    schema: localSignUpSchema,
    submit: async (values) => {
      const answer = await api.auth.localSignUp(values)
      // Where to go once signed in (an invitation), when the link is opened in this browser.
      afterSignIn.set(params.get('next'))
      setMailed(answer)
    },
  })
  if (mailed) {
    return (
      <MailSent mailed={mailed}>
        We sent a link to <strong>{mailed.email}</strong>. Follow it to confirm your address and sign in.
      </MailSent>
    )
  }
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{' '}
          <Link to={{ pathname: '/account/sign-in', search: params.toString() }} className="font-medium text-indigo-700 underline">
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label="Name" autoComplete="name" field={form.field('name')} error={form.errors.name} />
        <TextField label="Email" type="email" autoComplete="email" field={form.field('email')} error={form.errors.email} />
        <TextField label="Password" type="password" autoComplete="new-password" field={form.field('password')} error={form.errors.password} />
        <Button type="submit" className="w-full" loading={form.submitting}>
          Sign up
        </Button>
      </form>
    </AuthCard>
  )
}

/** The built-in provider's form, or the external provider's sign-in (which also signs new users up). */
export default function SignUp() {
  const config = useAuthConfig()
  return <FetchView fetched={config}>{(c) => (c.provider === 'oidc' ? <ExternalSignIn config={c} /> : <LocalSignUp />)}</FetchView>
}
