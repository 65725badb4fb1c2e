import type { ReactNode } from 'react'
import type { MailedResponse } from '@fl0/contracts/auth'
import { AuthCard } from './AuthCard.tsx'

/**
 * After fl0 has e-mailed a link (a sign-up's confirmation, a password reset):
 * where to look for it. With no mail server set up, the link is in fl0's
 * server log, and the screen says so rather than leave the user waiting.
 */
export function MailSent({ mailed, children, footer }: { mailed: MailedResponse; children: ReactNode; footer?: ReactNode }) {
  return (
    <AuthCard title="Check your email" footer={footer}>
      <p className="text-sm text-slate-700">{children}</p>
      {mailed.delivery === 'logged' && (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          This fl0 has no mail server set up (SMTP_URL), so no email was sent: the link was written to fl0's server log instead. Whoever runs fl0 can
          find it there and pass it on.
        </p>
      )}
    </AuthCard>
  )
}
