import { useRef, useState, type ReactNode } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { REPORT_ERRORS, REPORT_LIMITS, REPORT_TEXT } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import { isSilentError, messageOf } from '../../../api/errors.ts'
import { refetch } from '../../../api/refetch.ts'
import { useFetch } from '../../../api/useFetch.ts'
import { Button } from '../../../ui/Button.tsx'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { controlClass, Field } from '../../../ui/form/Field.tsx'
import { ConfirmModal } from '../../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { Spinner } from '../../../ui/Spinner.tsx'
import { ReportCrumbs } from '../ReportCrumbs.tsx'
import { ReportSwitcher } from '../ReportSwitcher.tsx'
import { reportPath, REPORTS, reportsPath } from '../text.ts'
import { AddMetricModal } from './AddMetricModal.tsx'
import { MetricCard } from './MetricCard.tsx'
import { useReportSaver, type ReportValues, type SaveStatus } from './useReportSaver.ts'

/** The page around the editor: breadcrumbs, title, the report switcher and the actions. */
function Frame({ org, title, actions, children }: { org: string; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-6 p-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <ReportCrumbs org={org} current={title} truncate />
          <h1 className="mt-1 max-w-2xl truncate text-2xl font-semibold tracking-tight">{title}</h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ReportSwitcher org={org} />
          {actions}
        </div>
      </div>
      {children}
    </div>
  )
}

function DeleteReport({ name, onDelete }: { name: string; onDelete: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <Button variant="secondaryDanger" onClick={() => setConfirming(true)}>
        {REPORT_TEXT.delete}
      </Button>
      {confirming && (
        <ConfirmModal
          header={REPORT_TEXT.deleteHeader}
          description={REPORT_TEXT.deleteConfirm(name)}
          submitLabel={REPORT_TEXT.delete}
          onConfirm={() => onDelete().finally(() => setConfirming(false))}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  )
}

const SAVE_NOTES: Record<SaveStatus, string> = { idle: '', saving: 'Saving...', saved: 'All changes saved' }

/** Whether what is on screen is saved: there is no save button, so the editor says so. */
function SaveNote({ status }: { status: SaveStatus }) {
  return (
    <p aria-live="polite" data-save-status={status} className="min-w-32 text-right text-xs text-slate-500">
      {SAVE_NOTES[status]}
    </p>
  )
}

/**
 * The custom report editor (part 3 §2, §4, §5): name and description saved
 * 500 ms after a change, the metric list at once, the report created by the
 * first save once named and its address then replaced with its id.
 */
function Editor({ org, reportId, initial, onCreated }: { org: string; reportId?: string; initial: ReportValues; onCreated?: (id: string) => void }) {
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const [values, setValues] = useState(initial)
  const [savedId, setSavedId] = useState(reportId)
  const [nameError, setNameError] = useState<string>()
  const [adding, setAdding] = useState(false)
  const saver = useReportSaver(initial, {
    org,
    reportId,
    onCreated: (id) => {
      setSavedId(id)
      onCreated?.(id)
    },
    onNameMissing: () => setNameError(REPORT_ERRORS.nameRequired),
  })

  const setText = (field: 'name' | 'description', value: string) => {
    const next = { ...values, [field]: value }
    setValues(next)
    if (field === 'name' && value.trim()) setNameError(undefined)
    saver.later(next)
  }
  const setMetrics = (metricIds: string[]) => {
    const next = { ...values, metricIds }
    setValues(next)
    void saver.now(next)
  }

  const remove = async () => {
    const id = saver.id()
    if (!id) return
    await saver.close()
    try {
      await api.reports.remove(org, id)
      snackbar.ok(REPORT_TEXT.deleted(values.name))
      refetch(REPORTS)
      navigate(reportsPath(org))
    } catch (error) {
      saver.reopen()
      if (!isSilentError(error)) snackbar.error(messageOf(error))
    }
  }

  return (
    <Frame
      org={org}
      title={values.name.trim() || REPORT_TEXT.newReport}
      actions={
        <>
          <SaveNote status={saver.status} />
          <Button variant="secondary" onClick={() => setAdding(true)}>
            {REPORT_TEXT.addMetric}
          </Button>
          {savedId && <DeleteReport name={values.name} onDelete={remove} />}
        </>
      }
    >
      <form className="grid max-w-3xl grid-cols-1 gap-4" onSubmit={(e) => e.preventDefault()}>
        <Field id="report-name" label="Name" error={nameError}>
          <input
            id="report-name"
            value={values.name}
            maxLength={REPORT_LIMITS.name}
            placeholder="Report name"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'report-name-error' : undefined}
            onChange={(e) => setText('name', e.target.value)}
            className={controlClass(nameError)}
          />
        </Field>
        <Field id="report-description" label="Description">
          <textarea
            id="report-description"
            value={values.description}
            maxLength={REPORT_LIMITS.description}
            rows={2}
            placeholder="What this report is for"
            onChange={(e) => setText('description', e.target.value)}
            className="rounded-md border px-3 py-2 text-sm outline-none focus:ring-2 resize-y border-slate-300 focus:ring-indigo-200"
          />
        </Field>
      </form>

      <section aria-label="Metrics">
        {values.metricIds.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500">
            <p>This report has no metrics yet.</p>
            <Button variant="secondary" className="mt-3" onClick={() => setAdding(true)}>
              {REPORT_TEXT.addMetric}
            </Button>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
            {values.metricIds.map((id) => (
              <li key={id}>
                <MetricCard org={org} metricId={id} onRemove={() => setMetrics(values.metricIds.filter((m) => m !== id))} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {adding && <AddMetricModal org={org} chosen={values.metricIds} onAdd={(id) => setMetrics([...values.metricIds, id])} onClose={() => setAdding(false)} />}
    </Frame>
  )
}

function SavedReport({ org, reportId }: { org: string; reportId: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.reports.get(org, reportId, signal), [org, reportId])
  if (fetched.status !== 'loaded') {
    return (
      <Frame org={org} title={REPORT_TEXT.heading}>
        {fetched.status === 'pending' ? <Spinner /> : <ErrorPanel message={fetched.error} />}
      </Frame>
    )
  }
  const r = fetched.data
  return <Editor org={org} reportId={r.id} initial={{ name: r.name, description: r.description, metricIds: r.metrics }} />
}

const BLANK: ReportValues = { name: '', description: '', metricIds: [] }

/**
 * reports/new and reports/{reportId}, one route. Each arrival gets its own
 * editor (keyed), except one: when the editor at 'new' creates the report and
 * replaces the address with the report's id, it is the same editor going on,
 * with whatever was typed meanwhile, so it keeps its key. Any other arrival
 * at a report (a link, back, a reload) loads it.
 */
export default function ReportEditorRoute() {
  const { organization = '', reportId = 'new' } = useParams()
  const location = useLocation()
  const navigate = useNavigate()
  const last = useRef<{ key: string; createdId?: string }>({ key: '' })
  const continued = reportId !== 'new' && last.current.createdId === reportId
  const key = reportId === 'new' ? `new:${location.key}` : continued ? last.current.key : `report:${reportId}`
  if (last.current.key !== key) last.current = { key }
  const onCreated = (id: string) => {
    last.current = { key, createdId: id }
    navigate(reportPath(organization, id), { replace: true })
  }
  return key.startsWith('new:') ? (
    <Editor key={key} org={organization} initial={BLANK} onCreated={onCreated} />
  ) : (
    <SavedReport key={key} org={organization} reportId={reportId} />
  )
}
