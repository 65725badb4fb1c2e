import { useCallback, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { saveMetricSchema } from '@fl0/contracts/metrics'
import { z } from 'zod'
import { useApi } from '../../../api/context.tsx'
import { refetch } from '../../../api/refetch.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { readToggle } from '../../../toggles.ts'
import { Button } from '../../../ui/Button.tsx'
import { TextAreaField } from '../../../ui/form/TextAreaField.tsx'
import { TextField } from '../../../ui/form/TextField.tsx'
import { useForm } from '../../../ui/form/useForm.ts'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { MetricPreview } from '../preview/MetricPreview.tsx'
import { METRICS, METRICS_TEXT, metricsPath } from '../text.ts'
import { change, toDefinition, type Draft } from './draft.ts'
import { AudienceSection } from './sections/AudienceSection.tsx'
import { BreakdownSection } from './sections/BreakdownSection.tsx'
import { EventsSection } from './sections/EventsSection.tsx'
import { AudienceTypeSection, DateRangeSection, GraphSection, MeasureSection, OccurringSection, OperationSection, type SetField } from './sections/Options.tsx'
import { Section } from './sections/Section.tsx'

export interface MetricFormValues extends Record<string, unknown> {
  name: string
  description: string
  category: string
  draft: Draft
}

/** What is checked and sent: the draft as the contract reads it (empty filters out, traits without a value dropped). */
const formSchema = z.preprocess((v) => {
  const values = v as MetricFormValues
  return { name: values.name, description: values.description, category: values.category, definition: toDefinition(values.draft) }
}, saveMetricSchema)
type SaveBody = z.output<typeof saveMetricSchema>

function Details({ form, categories }: { form: ReturnType<typeof useForm<MetricFormValues>>; categories: string[] }) {
  const listId = useId()
  return (
    <Section title="Metric">
      <TextField label="Name" field={form.field('name')} error={form.errors.name} />
      <TextAreaField label="Description" field={form.field('description')} error={form.errors.description} rows={2} />
      <TextField label="Category" field={form.field('category')} error={form.errors.category} list={listId} placeholder="other" />
      <datalist id={listId}>
        {categories.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
    </Section>
  )
}

/**
 * The metric editor's form panel and, beside it, the preview of what it
 * defines. Every change to the definition goes through the seven rules
 * (draft.ts `change`), and what the rules moved is said under the form.
 * An option a rule would undo at once is disabled with its reason (total and
 * All without events, Ordered without events, conversion rate and the funnel
 * without Ordered, weekly and monthly for 7 days), so a choice never bounces
 * back silently; the rules then act on what follows from other changes
 * (removing the last event, leaving Ordered, choosing 7D). Total stays open in
 * an ordered metric: the contract lets the user's choice stand there and the
 * operation give way (rule 3).
 * Saving a new metric lands on its own address (/metrics/{metricId}), so the
 * page can be reloaded and shared and the back button returns to the list.
 */
export function MetricForm({ org, metricId, initial, onSaved }: { org: string; metricId?: string; initial: MetricFormValues; onSaved?: () => void }) {
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const [notes, setNotes] = useState<string[]>([])
  const breakdownOn = readToggle('metrics-breakdown')
  const form = useForm<MetricFormValues>({
    initial,
    schema: formSchema,
    submit: async (values) => {
      const body = values as unknown as SaveBody
      if (metricId) await api.metrics.update(org, metricId, body)
      else {
        const created = await api.metrics.create(org, body)
        navigate(`${metricsPath(org)}/${encodeURIComponent(created.metricId)}`, { replace: true })
      }
      snackbar.ok(METRICS_TEXT.saved(body.name))
      refetch(METRICS)
      onSaved?.()
    },
  })
  const draft = useRef(form.values.draft)
  draft.current = form.values.draft

  const traits = useFetch((signal) => api.lookups.traits(org, signal), [org])
  const categories = useFetch((signal) => api.metrics.categories(org, signal), [org])
  const types = traits.status === 'loaded' ? (form.values.draft.audienceType === 'company' ? traits.data.company_traits : traits.data.user_traits) : undefined

  const { setErrors, setValue } = form
  const clearErrors = useCallback(
    (prefix: string) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(prefix)))),
    [setErrors],
  )
  const set: SetField = (field, value) => {
    const next = change(draft.current, field, value)
    draft.current = next.draft
    setValue('draft', next.draft)
    setNotes(next.notes)
    clearErrors(`definition.${String(field)}`)
  }
  const wire = (name: string) => ({ ref: form.field(name).ref, error: form.errors[name] })
  const d = form.values.draft

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-6 lg:flex-row">
      <form onSubmit={form.submit} noValidate aria-label="Metric" className="flex min-h-0 w-full shrink-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm lg:w-[30rem]">
        <div className="min-h-0 flex-1 space-y-5 overflow-y-auto p-5">
          <Details form={form} categories={categories.status === 'loaded' ? categories.data.categories.map((c) => c.category) : []} />
          <AudienceTypeSection draft={d} set={set} />
          <MeasureSection draft={d} set={set} />
          <EventsSection org={org} draft={d} set={set} wire={wire} clearErrors={clearErrors} />
          <OperationSection draft={d} set={set} />
          <OccurringSection draft={d} set={set} />
          <AudienceSection org={org} draft={d} set={set} types={types} />
          <DateRangeSection draft={d} set={set} />
          <GraphSection draft={d} set={set} />
          {breakdownOn && <BreakdownSection org={org} draft={d} set={set} types={types} />}
        </div>
        <div className="border-t border-slate-200 p-4">
          <div role="status" aria-label="Rules applied" className="mb-2 empty:hidden">
            {notes.map((n) => (
              <p key={n} className="text-xs text-amber-800">
                {n}
              </p>
            ))}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => navigate(metricsPath(org))}>
              {METRICS_TEXT.cancel}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {METRICS_TEXT.save}
            </Button>
          </div>
        </div>
      </form>
      <div className="min-w-0 flex-1">
        <MetricPreview org={org} definition={toDefinition(d)} />
      </div>
    </div>
  )
}
