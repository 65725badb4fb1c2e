import { passwordResetSchema } from '@fl0/contracts/auth'
import { useApi } from '../../api/context.tsx'
import { EmailLinkForm } from './EmailLinkForm.tsx'

/**
 * account/reset-password?token=…: the link of a reset e-mail. A new password
 * signs the user in; every other session of the account ends.
 */
export default function ResetPassword() {
  const api = useApi()
  return (
    <EmailLinkForm
      action="reset"
      title="Choose a new password"
      passwordLabel="New password"
      autoComplete="new-password"
      submitLabel="Save and sign in"
      schema={passwordResetSchema}
      send={api.auth.resetPassword}
    />
  )
}
