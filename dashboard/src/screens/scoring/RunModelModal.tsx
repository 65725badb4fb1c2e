import { SCORING_TEXT, type ScoringMetric } from '@fl0/contracts/scoring'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { EMPTY_AUDIENCE } from './audienceDraft.ts'
import { ModelFields, modelSchema, toBody, type ModelValues } from './ModelFields.tsx'

function RunModelForm({ org, metrics, onClose, onCreated }: { org: string; metrics: ScoringMetric[]; onClose: () => void; onCreated: (analysisId: string) => void }) {
  const api = useApi()
  const form = useForm<ModelValues>({
    // The contract's default label window: the last 30 days.
    initial: { name: '', metricId: '', dateRange: 'last30Days', excludedAudience: EMPTY_AUDIENCE },
    schema: modelSchema,
    submit: async (values) => {
      const { analysisId } = await api.scoring.create(org, toBody(values))
      onCreated(analysisId)
      onClose()
    },
  })
  return (
    <form onSubmit={form.submit} noValidate>
      <ModelFields org={org} form={form} metrics={metrics} />
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={form.submitting}>
          Run model
        </Button>
      </div>
    </form>
  )
}

/** 'Run new scoring model' (part 3 §2, §5): the model's name, metric, date range and excluded audience; the new model trains as a job. */
export function RunModelModal({ org, onClose, onCreated }: { org: string; onClose: () => void; onCreated: (analysisId: string) => void }) {
  const api = useApi()
  const metrics = useFetch((signal) => api.scoring.metrics(org, signal), [org])
  return (
    <Modal title={SCORING_TEXT.runTitle} onClose={onClose} className="max-w-xl!">
      <FetchView fetched={metrics}>{(list) => <RunModelForm org={org} metrics={list} onClose={onClose} onCreated={onCreated} />}</FetchView>
    </Modal>
  )
}
