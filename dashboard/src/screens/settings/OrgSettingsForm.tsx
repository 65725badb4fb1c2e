import { useMemo, useState } from 'react'
import { makeSaveSettingsSchema, SETTINGS_SAVE_FAILED } from '@fl0/contracts/settings'
import { useApi } from '../../api/context.tsx'
import type { OrgSettings } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { useSnackbar } from '../../ui/snackbar/state.ts'

/** Non-blank, trimmed paths: what is saved (part 3 §4). */
export function cleanPaths(paths: string[]): string[] {
  return paths.map((p) => p.trim()).filter(Boolean)
}

function Fields({ org, settings }: { org: string; settings: OrgSettings }) {
  const api = useApi()
  const snackbar = useSnackbar()
  // Checked against the zones the server offers, as the server will check it.
  const schema = useMemo(() => makeSaveSettingsSchema(settings.timezones), [settings.timezones])
  // The form holds what is saved: the timezone and the non-blank, trimmed paths. The
  // entries being edited (blank ones included) are kept beside it, so that adding,
  // clearing or padding an entry is no change to save (part 3 §4).
  const form = useForm({
    initial: { timezone: settings.timezone, companyPaths: cleanPaths(settings.companyPaths) },
    autoSubmit: true,
    schema,
    submit: (v) => api.settings.save(org, { timezone: v.timezone, companyPaths: cleanPaths(v.companyPaths) }),
    // A failed save cannot be retried in place: the page reloads with what the server has.
    onError: () => {
      snackbar.show({ kind: 'error', message: SETTINGS_SAVE_FAILED, reloadOnClose: true })
      return true
    },
  })
  const [paths, setEntries] = useState<string[]>(() => (settings.companyPaths.length ? settings.companyPaths : ['']))
  const setPaths = (next: string[]) => {
    setEntries(next.length ? next : [''])
    const cleaned = cleanPaths(next)
    const saved = form.values.companyPaths
    if (cleaned.length !== saved.length || cleaned.some((p, i) => p !== saved[i])) form.setValue('companyPaths', cleaned)
  }
  return (
    <div className="space-y-6">
      <div className="flex max-w-md flex-col gap-1">
        <label htmlFor="field-timezone" className="text-sm font-medium text-slate-700">
          Timezone
        </label>
        <select {...form.field('timezone')} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
          {settings.timezones.map((tz) => (
            <option key={tz} value={tz}>
              {tz}
            </option>
          ))}
        </select>
        {form.errors.timezone && <p className="text-xs text-red-600">{form.errors.timezone}</p>}
      </div>
      <fieldset className="max-w-md space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">Company paths</legend>
        {paths.map((path, i) => (
          <div key={i} className="flex gap-2">
            <input
              aria-label={`Company path ${i + 1}`}
              value={path}
              onChange={(e) => setPaths(paths.map((p, j) => (j === i ? e.target.value : p)))}
              className="flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
            <Button variant="ghost" aria-label={`Delete company path ${i + 1}`} onClick={() => setPaths(paths.filter((_, j) => j !== i))}>
              ✕
            </Button>
          </div>
        ))}
        <Button variant="secondary" disabled={paths[paths.length - 1]?.trim() === ''} onClick={() => setPaths([...paths, ''])}>
          Add
        </Button>
      </fieldset>
    </div>
  )
}

/** Timezone and company paths, saved 500 ms after a change. */
export function OrgSettingsForm({ org }: { org: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.settings.get(org, signal), [org])
  return (
    <section aria-label="General" className="space-y-4">
      <FetchView fetched={fetched}>{(settings) => <Fields org={org} settings={settings} />}</FetchView>
    </section>
  )
}
