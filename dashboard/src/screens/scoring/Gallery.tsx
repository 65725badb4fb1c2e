import { useState } from 'react'
import { useParams } from 'react-router'
import { SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { ModelCard } from './ModelCard.tsx'
import { RunModelModal } from './RunModelModal.tsx'
import { usePolled } from './usePoll.ts'
import { SCORING_MODELS } from './text.ts'

const training = (status: string) => status === 'pending' || status === 'running'

/**
 * 'AI Scoring Models' (part 3 §2): 'New model' and a card per model. While a
 * model trains the list is asked for again, so its card turns into the donut
 * (or the error) without a reload.
 */
export default function Gallery() {
  const { organization = '' } = useParams()
  const api = useApi()
  const [creating, setCreating] = useState(false)
  const fetched = useFetch((signal) => api.scoring.list(organization, signal), [organization], { name: SCORING_MODELS })
  const list = usePolled(fetched, organization, (d) => d.scoringModels.some((m) => training(m.status)))

  return (
    <div className="p-8">
      <Heading actions={<Button onClick={() => setCreating(true)}>{SCORING_TEXT.newModel}</Button>}>{SCORING_TEXT.gallery}</Heading>
      <FetchView fetched={list ? { status: 'loaded', data: list, refreshing: false, refetch: fetched.refetch } : fetched}>
        {({ scoringModels }) =>
          scoringModels.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">{SCORING_TEXT.empty}</p>
          ) : (
            <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
              {scoringModels.map((m) => (
                <li key={m.analysisId}>
                  <ModelCard org={organization} model={m} />
                </li>
              ))}
            </ul>
          )
        }
      </FetchView>
      {creating && <RunModelModal org={organization} onClose={() => setCreating(false)} onCreated={() => fetched.refetch()} />}
    </div>
  )
}
