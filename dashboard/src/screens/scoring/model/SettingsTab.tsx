import { SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import type { ScoringSettings } from '../../../api/types.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { Button } from '../../../ui/Button.tsx'
import { FetchView } from '../../../ui/FetchView.tsx'
import { useForm } from '../../../ui/form/useForm.ts'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { fromWire } from '../audienceDraft.ts'
import { ModelFields, modelSchema, toBody, type ModelValues } from '../ModelFields.tsx'

function SettingsForm({ org, analysisId, settings, onSaved }: { org: string; analysisId: string; settings: ScoringSettings; onSaved: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const form = useForm<ModelValues>({
    initial: { name: settings.name, metricId: settings.metric.metricId, dateRange: settings.dateRange, excludedAudience: fromWire(settings.excludedAudience) },
    schema: modelSchema,
    submit: async (values) => {
      await api.scoring.saveSettings(org, analysisId, toBody(values))
      snackbar.ok('Settings saved')
      onSaved()
    },
  })
  // A deleted metric is still the model's: listed (as the server names it) so the form shows it.
  const metrics = settings.metrics.some((m) => m.metricId === settings.metric.metricId) ? settings.metrics : [{ ...settings.metric, isEnabled: false }, ...settings.metrics]
  return (
    <form onSubmit={form.submit} noValidate aria-label="Model settings" className="max-w-2xl rounded-lg border border-slate-200 bg-white p-6">
      <ModelFields org={org} form={form} metrics={metrics} nameLabel={SCORING_TEXT.fields.modelName} />
      <div className="mt-6 flex justify-end">
        <Button type="submit" loading={form.submitting}>
          Save settings
        </Button>
      </div>
    </form>
  )
}

/**
 * Settings (part 3 §2): Model name, Metric, Date range and Excluded audience,
 * saved with saveSettings. Settings that change what the model learns queue
 * a new run, so the page asks for the model again after a save (its status
 * gate then shows the training view).
 */
export function SettingsTab({ org, analysisId, onSaved }: { org: string; analysisId: string; onSaved: () => void }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.scoring.settings(org, analysisId, signal), [org, analysisId])
  return <FetchView fetched={fetched}>{(settings) => <SettingsForm org={org} analysisId={analysisId} settings={settings} onSaved={onSaved} />}</FetchView>
}
