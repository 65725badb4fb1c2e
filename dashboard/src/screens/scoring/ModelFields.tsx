import { z } from 'zod'
import { createScoringModelSchema, SCORING_TEXT, type CreateScoringModel, type ScoringMetric, type ScoringRefresh } from '@fl0/contracts/scoring'
import type { DateRange } from '../../constants.ts'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { DateRangePicker } from '../../ui/DateRangePicker.tsx'
import type { Form } from '../../ui/form/useForm.ts'
import { TextField } from '../../ui/form/TextField.tsx'
import { toWire, type AudienceDraft } from './audienceDraft.ts'
import { ExcludedAudienceEditor } from './ExcludedAudienceEditor.tsx'

const T = SCORING_TEXT.fields

export type ModelValues = {
  name: string
  metricId: string
  dateRange: DateRange
  excludedAudience: AudienceDraft
  /** How often the ratings are refreshed: set in Settings; a new model takes the default. */
  refresh: ScoringRefresh
}

/** The contract's rules for the run modal and the settings (part 3 §5): the name trimmed, then checked; a metric chosen. */
export const modelSchema = createScoringModelSchema.extend({ excludedAudience: z.custom<AudienceDraft>() })

/** The call's body: the excluded audience in its wire shape, unfinished filters left out (part 3 §5). */
export function toBody(values: ModelValues): CreateScoringModel {
  return { ...values, excludedAudience: toWire(values.excludedAudience) }
}

/**
 * Name, Metric, Date range and Excluded audience: the run modal's fields and
 * the Settings tab's (there the name reads 'Model name'). Choosing a metric
 * fills an empty name with the metric's (part 3 §5). A metric the server
 * marks as not enabled is listed, but cannot be chosen.
 */
export function ModelFields({ org, form, metrics, nameLabel = T.name }: { org: string; form: Form<ModelValues>; metrics: ScoringMetric[]; nameLabel?: string }) {
  const api = useApi()
  const traits = useFetch((signal) => api.lookups.traits(org, signal), [org])
  const metricField = form.field('metricId')
  const chooseMetric = (metricId: string) => {
    form.setValue('metricId', metricId)
    const chosen = metrics.find((m) => m.metricId === metricId)
    if (chosen && form.values.name.trim() === '') form.setValue('name', chosen.name)
  }
  return (
    <div className="space-y-4">
      <TextField label={nameLabel} field={form.field('name')} error={form.errors.name} autoComplete="off" />
      <div className="flex flex-col gap-1">
        <label htmlFor={metricField.id} className="text-sm font-medium text-slate-700">
          {T.metric}
        </label>
        <select
          {...metricField}
          onChange={(e) => chooseMetric(e.target.value)}
          className={`rounded-md border bg-white px-3 py-2 text-sm outline-none focus:ring-2 ${form.errors.metricId ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:ring-indigo-200'}`}
        >
          <option value="" disabled>
            Choose a metric
          </option>
          {metrics.map((m) => (
            <option key={m.metricId} value={m.metricId} disabled={!m.isEnabled}>
              {m.isEnabled ? m.name : `${m.name} (counts no events)`}
            </option>
          ))}
        </select>
        {form.errors.metricId && (
          <p id={`${metricField.id}-error`} className="text-xs text-red-600">
            {form.errors.metricId}
          </p>
        )}
      </div>
      <div className="flex flex-col items-start gap-1">
        <span id="field-dateRange-label" className="text-sm font-medium text-slate-700">
          {T.dateRange}
        </span>
        <DateRangePicker label={T.dateRange} value={form.values.dateRange} onChange={(r) => form.setValue('dateRange', r)} />
      </div>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium text-slate-700">{T.excludedAudience}</legend>
        <ExcludedAudienceEditor org={org} traits={traits} value={form.values.excludedAudience} onChange={(a) => form.setValue('excludedAudience', a)} />
      </fieldset>
    </div>
  )
}
