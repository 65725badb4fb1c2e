import { verifyEmailSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { EmailLinkForm } from './EmailLinkForm.tsx'

/**
 * account/verify-email?token=…: the link of a sign-up's confirmation e-mail.
 * The account is made here, with the password chosen at sign-up typed again:
 * whoever the link reaches without having signed up (and mail scanners that
 * open links) makes nothing.
 */
export default function VerifyEmail() {
  const api = useApi()
  return (
    <EmailLinkForm
      action="confirm"
      title="Confirm your email address"
      intro="Enter the password you chose when you signed up, to confirm this address is yours and create your account."
      passwordLabel="Password"
      autoComplete="current-password"
      submitLabel="Confirm and sign in"
      schema={verifyEmailSchema}
      send={api.auth.verifyEmail}
    />
  )
}
