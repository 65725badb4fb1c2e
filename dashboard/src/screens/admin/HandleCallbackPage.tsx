import { useState, type FormEvent } from 'react'
import type { CallbackQuery } from '../../api/admin.ts'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { Button } from '../../ui/Button.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { AdminScreen } from './controls.tsx'
import { ADMIN_TEXT } from './text.ts'

const FIELDS = ['puid', 'hem', 'upid'] as const
type Field = (typeof FIELDS)[number]

/** The callback's query from the filled fields only (part 1 §2); each is optional. */
export function callbackQuery(values: Record<Field, string>): CallbackQuery {
  const query: CallbackQuery = {}
  for (const f of FIELDS) if (values[f].trim()) query[f] = values[f].trim()
  return query
}

/**
 * handle-callback: a test form for the identity partner's callback. It builds
 * GET /i/callback from the fields filled in, calls it, then says
 * 'HandleCallback completed' (part 1 §8).
 */
export default function HandleCallbackPage() {
  const api = useApi()
  const snackbar = useSnackbar()
  const [values, setValues] = useState<Record<Field, string>>({ puid: '', hem: '', upid: '' })
  const [sending, setSending] = useState(false)
  const query = callbackQuery(values)
  const preview = `/i/callback${Object.keys(query).length ? `?${new URLSearchParams(query as Record<string, string>)}` : ''}`

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSending(true)
    api.admin
      .callback(query)
      .then(
        () => snackbar.ok(ADMIN_TEXT.callbackCompleted),
        (error) => !isSilentError(error) && snackbar.error(messageOf(error)),
      )
      .finally(() => setSending(false))
  }

  return (
    <AdminScreen heading="Handle callback">
      <form onSubmit={submit} aria-label="Callback" className="flex max-w-xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
        {FIELDS.map((f) => (
          <label key={f} className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {f}
            <input
              name={f}
              value={values[f]}
              placeholder={f === 'upid' ? ADMIN_TEXT.upIdPlaceholder : undefined}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
              className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm font-normal outline-none focus:ring-2 focus:ring-indigo-200"
            />
          </label>
        ))}
        <div className="flex flex-col gap-1">
          <span className="text-sm font-medium text-slate-700">Request</span>
          <code aria-label="Callback request" className="break-all rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800">
            GET {preview}
          </code>
        </div>
        <div>
          <Button type="submit" loading={sending}>
            Send callback
          </Button>
        </div>
      </form>
    </AdminScreen>
  )
}
