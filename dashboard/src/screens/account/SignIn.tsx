import { Link, useSearchParams } from 'react-router'
import { localSignInSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { ExternalSignIn } from './ExternalSignIn.tsx'
import { useAuthConfig } from './useAuthConfig.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

function LocalSignIn() {
  const api = useApi()
  const finish = useFinishSignIn()
  const [params] = useSearchParams()
  const form = useForm({
    initial: { email: params.get('email') ?? '', password: '' },
    schema: localSignInSchema,
    submit: async (values) => finish((await api.auth.localSignIn(values)).token),
  })
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          No account yet?{' '}
          <Link to={{ pathname: '/account/sign-up', search: params.toString() }} className="font-medium text-indigo-700 underline">
            Sign up
          </Link>
        </>
      }
    >
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <TextField label="Email" type="email" autoComplete="email" field={form.field('email')} error={form.errors.email} />
        <TextField label="Password" type="password" autoComplete="current-password" field={form.field('password')} error={form.errors.password} />
        <div className="text-right text-sm">
          <Link to={{ pathname: '/account/forgot-password', search: form.values.email ? `email=${encodeURIComponent(form.values.email)}` : '' }} className="text-indigo-700 underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={form.submitting}>
          Sign in
        </Button>
      </form>
    </AuthCard>
  )
}

/** The built-in provider's form, or the external provider's sign-in. */
export default function SignIn() {
  const config = useAuthConfig()
  return <FetchView fetched={config}>{(c) => (c.provider === 'oidc' ? <ExternalSignIn config={c} /> : <LocalSignIn />)}</FetchView>
}
