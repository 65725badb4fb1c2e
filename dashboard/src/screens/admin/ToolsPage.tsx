import { useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { Button } from '../../ui/Button.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { AdminScreen } from './controls.tsx'
import { TOOLS, type Tool } from './text.ts'

type Outcome = { ok: true; text: string } | { ok: false; text: string }

/** What a finished action says: the answer's own message when it has one, else the tool's. */
export function outcomeText(tool: Tool, result: unknown): string {
  if (typeof result === 'string' && result.trim()) return result.trim()
  if (result && typeof result === 'object' && typeof (result as { message?: unknown }).message === 'string' && (result as { message: string }).message) {
    return (result as { message: string }).message
  }
  return tool.done
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
    api.admin.run(tool.action, file).then(
      (result) => {
        const text = outcomeText(tool, result)
        setOutcome({ ok: true, text })
        snackbar.ok(text)
      },
      (error) => {
        if (isSilentError(error)) return
        const text = messageOf(error)
        setOutcome({ ok: false, text })
        snackbar.error(text)
      },
    ).finally(() => setRunning(false))
  }

  return (
    <li className="flex items-center justify-between gap-6 px-5 py-4">
      <div className="min-w-0">
        <div className="text-sm font-medium text-slate-900">{tool.label.replace(/\.\.\.$/, '')}</div>
        {outcome && (
          <p role={outcome.ok ? 'status' : 'alert'} className={`mt-1 truncate text-xs ${outcome.ok ? 'text-emerald-700' : 'text-red-600'}`} title={outcome.text}>
            {outcome.text}
          </p>
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
