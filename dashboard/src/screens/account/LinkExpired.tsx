import { Link } from 'react-router'
import { EMAIL_LINK_INVALID } from '@fl0/contracts/auth'
import { ApiError } from '../../api/errors.ts'
import { AuthCard } from './AuthCard.tsx'

/** Whether a failed call refused the e-mailed link itself (used, expired, or never made). */
export const isLinkRefused = (error: unknown) => error instanceof ApiError && error.status === 400 && error.errors.some((e) => e.name === 'token')

/** An e-mailed link that no longer works, and what to do instead. */
export function LinkExpired({ action }: { action: 'confirm' | 'reset' }) {
  return (
    <AuthCard
      title="This link no longer works"
      footer={
        <Link to="/account/sign-in" className="font-medium text-indigo-700 underline">
          Back to sign in
        </Link>
      }
    >
      <p className="text-sm text-slate-700">{EMAIL_LINK_INVALID}.</p>
      <p className="text-sm text-slate-700">
        {action === 'confirm' ? 'If you have not signed in since, ' : 'Ask for a new one: '}
        <Link to={action === 'confirm' ? '/account/sign-up' : '/account/forgot-password'} className="font-medium text-indigo-700 underline">
          {action === 'confirm' ? 'sign up again' : 'reset your password'}
        </Link>
        {action === 'confirm' && ' to get a new link.'}
      </p>
    </AuthCard>
  )
}
