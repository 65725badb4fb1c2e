import { useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import type { AdminJob } from '../../api/admin.ts'
import { ApiError, isSilentError, messageOf } from '../../api/errors.ts'
import { Button } from '../../ui/Button.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { AdminScreen } from './controls.tsx'
import { TOOLS, type Tool } from './text.ts'

interface Outcome {
  ok: boolean
  text: string
  /** The lines skipped or refused, as the job lists them. */
  details: string[]
}

/** What a finished action says: the job's own message when it has one, else the tool's. */
export function outcomeText(tool: Tool, result: unknown): string {
  const message = result && typeof result === 'object' ? (result as { message?: unknown }).message : undefined
  return typeof message === 'string' && message.trim() ? message.trim() : tool.done
}

function succeeded(tool: Tool, job: AdminJob | undefined): Outcome {
  const errors = Array.isArray(job?.errors) ? job.errors : []
  return { ok: true, text: outcomeText(tool, job), details: errors.map((e) => (e.line === null ? e.message : `line ${e.line}: ${e.message}`)) }
}

function failed(error: unknown): Outcome {
  const details = error instanceof ApiError ? error.errors.map((e) => (e.name ? `${e.name}: ${e.message}` : e.message)) : []
  return { ok: false, text: messageOf(error), details }
}

function ToolRow({ tool }: { tool: Tool }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const chooser = useRef<HTMLInputElement>(null)

  const run = (file?: File) => {
    snackbar.info(tool.progress)
    setRunning(true)
    setOutcome(null)
    api.admin
      .run(tool.action, file)
      .then(
        (job) => {
          const o = succeeded(tool, job)
          setOutcome(o)
          snackbar.ok(o.text)
        },
        (error) => {
          if (isSilentError(error)) return
          const o = failed(error)
          setOutcome(o)
          snackbar.error(o.text)
        },
      )
      .finally(() => setRunning(false))
  }

  return (
    <li className="flex items-center justify-between gap-6 px-5 py-4">
      <div className="min-w-0">
        <h2 className="text-sm font-medium text-slate-900">{tool.title}</h2>
        <p className="mt-0.5 text-sm text-slate-500">{tool.description}</p>
        {outcome && (
          <p role={outcome.ok ? 'status' : 'alert'} className={`mt-1 text-xs ${outcome.ok ? 'text-emerald-700' : 'text-red-600'}`}>
            {outcome.text}
          </p>
        )}
        {outcome && outcome.details.length > 0 && (
          <details className="mt-1 text-xs text-slate-600">
            <summary className="cursor-pointer">{outcome.details.length === 1 ? '1 line reported' : `${outcome.details.length} lines reported`}</summary>
            <ul aria-label={`${tool.label.replace(/\.\.\.$/, '')}: lines reported`} className="mt-1 max-h-40 list-inside list-disc overflow-y-auto font-mono">
              {outcome.details.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
      {tool.upload ? (
        <>
          <input
            ref={chooser}
            type="file"
            aria-label={tool.upload}
            className="hidden"
            onChange={(e) => {
              const file = e.target.files?.[0]
              // Cleared, so that choosing the same file again runs again.
              e.target.value = ''
              if (file) run(file)
            }}
          />
          <Button variant="secondary" loading={running} onClick={() => chooser.current?.click()} className="shrink-0">
            {tool.label}
          </Button>
        </>
      ) : (
        <Button variant="secondary" loading={running} onClick={() => run()} className="shrink-0">
          {tool.label}
        </Button>
      )}
    </li>
  )
}

/**
 * Tools (part 1 §2): the imports, each with its file chooser, and the
 * refreshes and the copy. A click shows its progress notice (part 1 §8), then
 * the outcome, which also stays beside the button.
 */
export default function ToolsPage() {
  return (
    <AdminScreen heading="Tools">
      <ul aria-label="Tools" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
        {TOOLS.map((tool) => (
          <ToolRow key={tool.action} tool={tool} />
        ))}
      </ul>
    </AdminScreen>
  )
}
