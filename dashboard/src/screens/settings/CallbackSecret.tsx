import { useState } from 'react'
import { CALLBACK_SECRET_TEXT as TEXT } from '@fl0/contracts/callback'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'

export const CALLBACK_SECRET = 'callback-secret'

/**
 * The identity callback's secret (not in the specification; docs/identification.md,
 * "Signed callbacks"): whether callbacks must be signed, the organization id
 * partners send as `org`, and for admins a secret to generate, rotate or
 * remove. A new secret is shown here once, right after it is made, with a
 * copy button: the server never shows it again.
 */
export function CallbackSecret({ org, isAdmin }: { org: string; isAdmin: boolean }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const fetched = useFetch((signal) => api.settings.callbackSecret(org, signal), [org], { name: CALLBACK_SECRET })
  const [fresh, setFresh] = useState<string | null>(null)
  const [confirming, setConfirming] = useState<'rotate' | 'remove' | null>(null)

  const change = async (action: 'generate' | 'rotate' | 'remove') => {
    try {
      if (action === 'remove') {
        await api.settings.removeCallbackSecret(org)
        setFresh(null)
        snackbar.ok(TEXT.removed)
      } else {
        setFresh((await api.settings.newCallbackSecret(org)).secret ?? null)
        snackbar.ok(TEXT.generated)
      }
      refetch(CALLBACK_SECRET)
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
    } finally {
      setConfirming(null)
    }
  }

  return (
    <section aria-labelledby="callback-secret-heading" className="space-y-4">
      <h2 id="callback-secret-heading" className="text-lg font-semibold">
        {TEXT.heading}
      </h2>
      <FetchView fetched={fetched}>
        {(state) => (
          // As wide as the team list above it, the boxes' right edges in line; only the prose keeps a reading width.
          <div className="space-y-4 text-sm">
            <p className="text-slate-700">
              {state.configured ? TEXT.signed : TEXT.unsigned}
              {state.createdAt && <span className="text-slate-500"> Secret made {new Date(state.createdAt).toLocaleString()}.</span>}
            </p>
            <p className="max-w-2xl text-xs text-slate-500">
              An identity partner signs each callback with the secret and sends the organization id as <span className="font-mono">org</span>. Keep the
              secret on the partner&apos;s servers, never in a page.
            </p>
            <div className="space-y-2">
              <p id="callback-org-id-label" className="text-xs font-medium text-slate-600">
                Organization id
              </p>
              <code aria-labelledby="callback-org-id-label" className="block break-all rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-slate-800">
                {state.orgId}
              </code>
              <CopyButton text={state.orgId} label="Organization Id" copiedMessage="Organization Id copied to clipboard" />
            </div>
            {fresh && (
              <div role="status" aria-label="New callback secret" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
                <p className="font-medium text-amber-900">{TEXT.shownOnce}</p>
                <code aria-label="Callback secret" className="block break-all font-mono text-slate-800">
                  {fresh}
                </code>
                <CopyButton text={fresh} label="Callback Secret" copiedMessage="Callback Secret copied to clipboard" />
              </div>
            )}
            {isAdmin && (
              <div className="flex gap-2">
                {state.configured ? (
                  <>
                    <Button variant="secondary" onClick={() => setConfirming('rotate')}>
                      {TEXT.rotate}
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirming('remove')}>
                      {TEXT.remove}
                    </Button>
                  </>
                ) : (
                  <Button onClick={() => void change('generate')}>{TEXT.generate}</Button>
                )}
              </div>
            )}
          </div>
        )}
      </FetchView>
      {confirming && (
        <ConfirmModal
          header={confirming === 'rotate' ? TEXT.rotate : TEXT.remove}
          description={confirming === 'rotate' ? TEXT.confirmRotate : TEXT.confirmRemove}
          submitLabel={confirming === 'rotate' ? 'Rotate' : 'Remove'}
          onConfirm={() => change(confirming)}
          onClose={() => setConfirming(null)}
        />
      )}
    </section>
  )
}
