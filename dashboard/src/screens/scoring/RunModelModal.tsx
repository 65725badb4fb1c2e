import { SCORING_TEXT, type ScoringMetric } from '@fl0/contracts/scoring'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { EMPTY_AUDIENCE } from './audienceDraft.ts'
import { CHECK_GUIDANCE_ID, CheckGuidance } from './CheckGuidance.tsx'
import { ModelFields, modelSchema, toBody, type ModelValues } from './ModelFields.tsx'
import { blocksRun, checkRequestOf, useScoringCheck } from './useScoringCheck.ts'

function RunModelForm({ org, metrics, onClose, onCreated }: { org: string; metrics: ScoringMetric[]; onClose: () => void; onCreated: (analysisId: string) => void }) {
  const api = useApi()
  const form = useForm<ModelValues>({
    // The contract's default label window: the last 30 days.
    initial: { name: '', metricId: '', dateRange: 'last30Days', excludedAudience: EMPTY_AUDIENCE, refresh: 'daily' },
    schema: modelSchema,
    submit: async (values) => {
      const { analysisId } = await api.scoring.create(org, toBody(values))
      onCreated(analysisId)
      onClose()
    },
  })
  const check = useScoringCheck(org, checkRequestOf(form.values))
  const blocked = blocksRun(check)
  return (
    <form onSubmit={form.submit} noValidate>
      <ModelFields org={org} form={form} metrics={metrics} />
      <CheckGuidance state={check} onDateRange={(r) => form.setValue('dateRange', r)} />
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={form.submitting} disabled={blocked} aria-describedby={blocked ? CHECK_GUIDANCE_ID : undefined}>
          Run model
        </Button>
      </div>
    </form>
  )
}

/**
 * 'Run new scoring model' (part 3 §2, §5): the model's name, metric, date
 * range and excluded audience; the new model trains as a job. As the fields
 * change the dialog asks whether such a model can learn, says so under
 * them, and holds 'Run model' back while the answer is no.
 */
export function RunModelModal({ org, onClose, onCreated }: { org: string; onClose: () => void; onCreated: (analysisId: string) => void }) {
  const api = useApi()
  const metrics = useFetch((signal) => api.scoring.metrics(org, signal), [org])
  return (
    // The dialog grows with its filters and the check's guidance: it keeps to the window and scrolls inside, so 'Run model' is always reachable.
    <Modal title={SCORING_TEXT.runTitle} onClose={onClose} className="mt-[6vh]! max-h-[88vh]! max-w-xl!">
      <FetchView fetched={metrics}>{(list) => <RunModelForm org={org} metrics={list} onClose={onClose} onCreated={onCreated} />}</FetchView>
    </Modal>
  )
}
