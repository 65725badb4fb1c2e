import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Button.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { serverErrors } from '../../api/errors.ts'
import { AuthCard } from './AuthCard.tsx'
import { isLinkRefused, LinkExpired } from './LinkExpired.tsx'
import { useFinishSignIn } from './useLocalSignIn.ts'

/**
 * account/verify-email?token=…: the link of a sign-up's confirmation e-mail.
 * Confirming is a click, not the page's opening: mail scanners that open
 * links must not use up the user's link.
 */
export default function VerifyEmail() {
  const api = useApi()
  const finish = useFinishSignIn()
  const snackbar = useSnackbar()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [refused, setRefused] = useState(!token)
  const [confirming, setConfirming] = useState(false)
  if (refused) return <LinkExpired action="confirm" />
  const confirm = async () => {
    setConfirming(true)
    try {
      finish((await api.auth.verifyEmail(token)).token)
    } catch (error) {
      setConfirming(false)
      if (isLinkRefused(error)) setRefused(true)
      else for (const e of serverErrors(error)) snackbar.error(e.message)
    }
  }
  return (
    <AuthCard title="Confirm your email address">
      <p className="text-sm text-slate-700">Confirm that this address is yours, and sign in to fl0.</p>
      <Button className="w-full" loading={confirming} onClick={() => void confirm()}>
        Confirm and sign in
      </Button>
    </AuthCard>
  )
}
