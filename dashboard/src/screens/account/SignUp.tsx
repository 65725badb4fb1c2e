import { Link, useSearchParams } from 'react-router'
import { localSignUpSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { AuthCard } from './AuthCard.tsx'
import { ExternalSignIn } from './ExternalSignIn.tsx'
import { useAuthConfig } from './useAuthConfig.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

function LocalSignUp() {
  const api = useApi()
  const finish = useFinishSignIn()
  const [params] = useSearchParams()
  const form = useForm({
    initial: { name: '', email: params.get('email') ?? '', password: '' },
    schema: localSignUpSchema,
    submit: async (values) => finish((await api.auth.localSignUp(values)).token),
  })
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
