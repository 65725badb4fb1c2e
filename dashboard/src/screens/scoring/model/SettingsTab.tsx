import { SCORING_REFRESH, SCORING_REFRESH_LABELS, SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import type { ScoringSettings } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { Button } from '../../../ui/Button.tsx'
import { FetchView } from '../../../ui/FetchView.tsx'
import { Field } from '../../../ui/form/Field.tsx'
import { useForm, type Form } from '../../../ui/form/useForm.ts'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { fromWire } from '../audienceDraft.ts'
import { CHECK_GUIDANCE_ID, CheckGuidance } from '../CheckGuidance.tsx'
import { ModelFields, modelSchema, toBody, type ModelValues } from '../ModelFields.tsx'
import { blocksRun, checkRequestOf, useScoringCheck } from '../useScoringCheck.ts'
import { RatingsRefreshed } from './RatingsRefreshed.tsx'

/** 'Refresh ratings': how often the model re-scores users with what it learned (no retraining), and when it last did. */
function RefreshField({ form, scoredAt }: { form: Form<ModelValues>; scoredAt: string | null }) {
  const field = form.field('refresh')
  return (
    <Field id={field.id} label={SCORING_TEXT.fields.refresh} error={form.errors.refresh} className="mt-4">
      <select {...field} aria-describedby="refresh-hint" className="max-w-xs rounded-md border border-slate-300 bg-white px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200">
        {SCORING_REFRESH.map((r) => (
          <option key={r} value={r}>
            {SCORING_REFRESH_LABELS[r]}
          </option>
        ))}
      </select>
      <p id="refresh-hint" className="text-xs text-slate-500">
        Re-scores every user with the model as trained, so new visitors get a rating without a rebuild.{' '}
        {scoredAt ? <RatingsRefreshed scoredAt={scoredAt} /> : 'Not scored yet.'}
      </p>
    </Field>
  )
}

function SettingsForm({ org, analysisId, settings, scoredAt, onSaved }: { org: string; analysisId: string; settings: ScoringSettings; scoredAt: string | null; onSaved: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const initial: ModelValues = { name: settings.name, metricId: settings.metric.metricId, dateRange: settings.dateRange, excludedAudience: fromWire(settings.excludedAudience), refresh: settings.refresh }
  const form = useForm<ModelValues>({
    initial,
    schema: modelSchema,
    submit: async (values) => {
      await api.scoring.saveSettings(org, analysisId, toBody(values))
      snackbar.ok('Settings saved')
      onSaved()
    },
  })
  // The run dialog's check, on the setting as edited.
  const request = checkRequestOf(form.values)
  const check = useScoringCheck(org, request)
  // Saving a change to what the model learns trains it again (the server re-queues it only then): one the check says
  // cannot be learned is held back, as the run dialog holds back 'Run model', rather than saved to fail its training.
  // The setting as trained is only warned about: saving a new name or schedule keeps the model's results.
  const relearns = JSON.stringify(request) !== JSON.stringify(checkRequestOf(initial))
  const blocked = relearns && blocksRun(check)
  // A deleted metric is still the model's: listed (as the server names it) so the form shows it.
  const metrics = settings.metrics.some((m) => m.metricId === settings.metric.metricId) ? settings.metrics : [{ ...settings.metric, isEnabled: false }, ...settings.metrics]
  return (
    <form onSubmit={blocked ? (e) => e.preventDefault() : form.submit} noValidate aria-label="Model settings" className="max-w-2xl rounded-lg border border-slate-200 bg-white p-6">
      <ModelFields org={org} form={form} metrics={metrics} nameLabel={SCORING_TEXT.fields.modelName} />
      <CheckGuidance state={check} onDateRange={(r) => form.setValue('dateRange', r)} />
      <RefreshField form={form} scoredAt={scoredAt} />
      <div className="mt-6 flex justify-end">
        <Button type="submit" loading={form.submitting} disabled={blocked} aria-describedby={blocked ? CHECK_GUIDANCE_ID : undefined}>
          Save settings
        </Button>
      </div>
    </form>
  )
}

/**
 * Settings (part 3 §2): Model name, Metric, Date range and Excluded audience,
 * and how often the ratings are refreshed, saved with saveSettings. Settings that change what the model learns queue
 * a new run, so the page asks for the model again after a save (its status
 * gate then shows the training view). As in the run dialog, the check says
 * under the fields whether the model as set can learn, and a change it says
 * cannot be learned is not saved.
 */
export function SettingsTab({ org, analysisId, scoredAt, onSaved }: { org: string; analysisId: string; scoredAt: string | null; onSaved: () => void }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.scoring.settings(org, analysisId, signal), [org, analysisId])
  return <FetchView fetched={fetched}>{(settings) => <SettingsForm org={org} analysisId={analysisId} settings={settings} scoredAt={scoredAt} onSaved={onSaved} />}</FetchView>
}
