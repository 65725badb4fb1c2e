import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { SCORING_TEXT } from '@fl0/contracts/scoring'
import { GENERIC_ERROR } from '../../../constants.ts'
import { useApi } from '../../../api/context.tsx'
import { messageOf } from '../../../api/errors.ts'
import { refetch as refetchNamed } from '../../../api/refetch.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { Button } from '../../../ui/Button.tsx'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { Heading } from '../../../ui/Heading.tsx'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { Spinner } from '../../../ui/Spinner.tsx'
import { NavTabs } from '../../../ui/Tabs.tsx'
import type { Selections } from '../selections.ts'
import { MODEL_TABS, modelPath, SCORING_MODEL, SCORING_MODELS, scoringPath } from '../text.ts'
import { usePolled } from '../usePoll.ts'
import { BacktestTab } from './BacktestTab.tsx'
import { CorrelationTab } from './CorrelationTab.tsx'
import { ModelHeader } from './ModelHeader.tsx'
import { ModelOutputTab } from './ModelOutputTab.tsx'
import { SettingsTab } from './SettingsTab.tsx'

const training = (status: string) => status === 'pending' || status === 'running'

/** pending or running: the model is training. The page asks again until it is done (usePoll). */
function TrainingView({ status }: { status: string }) {
  return (
    <div role="status" aria-label="Training model" data-status={status} className="flex flex-col items-center gap-4 rounded-lg border border-slate-200 bg-white p-12 text-center">
      <span className="h-10 w-10 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />
      <p className="font-medium text-slate-800">{status === 'pending' ? 'Waiting to train the model...' : 'Training the model...'}</p>
      <p className="max-w-md text-sm text-slate-500">This page updates by itself when the model is ready.</p>
    </div>
  )
}

function FailedView({ error }: { error?: string | null }) {
  return (
    <div role="alert" data-status="failed" className="rounded-lg border border-red-200 bg-red-50 p-6 text-sm text-red-800">
      <p className="font-medium">The model could not be trained.</p>
      <p className="mt-1">{error || GENERIC_ERROR}</p>
    </div>
  )
}

/** A model that cannot be shown (not found, or the call failed): said so under the group's heading, with the way back. */
function Unavailable({ org, message }: { org: string; message: string }) {
  return (
    <div className="p-8">
      <Heading>{SCORING_TEXT.gallery}</Heading>
      <p role="alert" className="text-sm text-slate-700">
        {message}.{' '}
        <Link to={scoringPath(org)} className="text-indigo-700 underline">
          All scoring models
        </Link>
      </p>
    </div>
  )
}

function Tabs({ org, analysisId }: { org: string; analysisId: string }) {
  return <NavTabs label="Scoring model" tabs={MODEL_TABS.map((t) => ({ to: modelPath(org, analysisId, t.path), label: t.label, end: true }))} />
}

function Content({
  org,
  analysisId,
  tab,
  scoredAt,
  selections,
  onSelections,
  onSaved,
}: {
  org: string
  analysisId: string
  tab: string
  scoredAt: string | null
  selections: Selections
  onSelections: (s: Selections) => void
  onSaved: () => void
}) {
  switch (tab) {
    case '':
      return <CorrelationTab org={org} analysisId={analysisId} selections={selections} onSelections={onSelections} />
    case 'model-output':
      return <ModelOutputTab org={org} analysisId={analysisId} />
    case 'settings':
      return <SettingsTab org={org} analysisId={analysisId} scoredAt={scoredAt} onSaved={onSaved} />
    case 'backtest-predictions':
      return <BacktestTab org={org} analysisId={analysisId} />
    default:
      return <ErrorPanel message="Page not found" />
  }
}

/**
 * scoring/{analysisId}/* (part 3 §2): the header with Delete and 'Rebuild
 * model', then the status gate: a loading view while the model is pending or
 * running (asked for again until it is done), an error view when it failed,
 * the tabs when it completed. The 'In model' choices made on Correlation are
 * held here, so they survive a change of tab, and only 'Rebuild model' sends
 * them (part 3 §4).
 */
export default function ModelPage() {
  const { organization: org = '', analysisId = '', '*': rest = '' } = useParams()
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const fetched = useFetch((signal) => api.scoring.get(org, analysisId, signal), [org, analysisId], { name: SCORING_MODEL })
  const model = usePolled(fetched, `${org}/${analysisId}`, (m) => training(m.status))
  const [draft, setDraft] = useState<{ id: string; selections: Selections } | null>(null)
  const [rebuilding, setRebuilding] = useState(false)
  const tab = rest.replace(/\/+$/, '')

  if (!model) return fetched.status === 'error' ? <Unavailable org={org} message={fetched.error} /> : <Spinner />
  const m = model
  const selections = draft?.id === analysisId ? draft.selections : m.featureSelections

  const remove = async () => {
    try {
      await api.scoring.remove(org, analysisId)
    } catch (error) {
      snackbar.error(messageOf(error))
      return
    }
    snackbar.ok(SCORING_TEXT.deleted)
    refetchNamed(SCORING_MODELS)
    navigate(scoringPath(org))
  }

  const rebuild = async () => {
    setRebuilding(true)
    try {
      await api.scoring.rebuild(org, analysisId, selections)
      snackbar.ok(SCORING_TEXT.rebuilding)
      setDraft(null)
      fetched.refetch()
      refetchNamed(SCORING_MODELS)
    } catch {
      snackbar.error(SCORING_TEXT.rebuildError)
    } finally {
      setRebuilding(false)
    }
  }

  return (
    <div className="flex flex-col gap-6 p-8">
      <ModelHeader
        org={org}
        name={m.name}
        metricName={m.metricName}
        scoredAt={m.status === 'completed' ? m.scoredAt : null}
        onDelete={remove}
        rebuild={
          <Button onClick={rebuild} loading={rebuilding} disabled={training(m.status)}>
            {SCORING_TEXT.rebuild}
          </Button>
        }
      />
      {training(m.status) ? (
        <TrainingView status={m.status} />
      ) : m.status === 'failed' ? (
        <FailedView error={m.error} />
      ) : (
        <>
          <Tabs org={org} analysisId={analysisId} />
          <Content
            org={org}
            analysisId={analysisId}
            tab={tab}
            scoredAt={m.scoredAt}
            selections={selections}
            onSelections={(s) => setDraft({ id: analysisId, selections: s })}
            onSaved={() => {
              fetched.refetch()
              refetchNamed(SCORING_MODELS)
            }}
          />
        </>
      )}
    </div>
  )
}
