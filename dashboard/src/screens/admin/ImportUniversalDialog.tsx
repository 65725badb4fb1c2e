import { useEffect, useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { Button } from '../../ui/Button.tsx'
import { Modal } from '../../ui/modal/Modal.tsx'
import { gridRefetchName } from './grid/AdminGrid.tsx'
import { ADMIN_TEXT } from './text.ts'

/** The log keeps its last this many characters: an import of millions of rows may say a lot. */
export const LOG_LIMIT = 200_000

/** Appends a chunk to the log as it came, dropping the oldest text past the limit. */
export function appendToLog(log: string, chunk: string, limit = LOG_LIMIT): string {
  const next = log + chunk
  return next.length > limit ? next.slice(next.length - limit) : next
}

type Status = 'idle' | 'running' | 'done' | 'failed'

/**
 * 'Import universal table...' (part 1 §2): the chosen file is sent to the
 * streamed import, and each chunk of progress text the server writes is
 * appended to the log the moment it arrives. Closing the dialog stops
 * reading and cancels the request; the grid loads again after an import.
 */
export function ImportUniversalDialog({ onClose }: { onClose: () => void }) {
  const api = useApi()
  const [file, setFile] = useState<File | null>(null)
  const [status, setStatus] = useState<Status>('idle')
  const [log, setLog] = useState('')
  const controller = useRef<AbortController | null>(null)
  const logRef = useRef<HTMLPreElement>(null)

  // Abort a running import when the dialog goes away.
  useEffect(() => () => controller.current?.abort(), [])

  // Follow the log's end as it grows.
  useEffect(() => {
    const el = logRef.current
    if (el) el.scrollTop = el.scrollHeight
  }, [log])

  const start = () => {
    if (!file) return
    const c = new AbortController()
    controller.current = c
    setStatus('running')
    setLog('')
    api.admin.importUniversalTable(file, (chunk) => !c.signal.aborted && setLog((l) => appendToLog(l, chunk)), c.signal).then(
      () => {
        if (c.signal.aborted) return
        setStatus('done')
        refetch(gridRefetchName('universal-table'))
      },
      (error) => {
        if (c.signal.aborted || isSilentError(error)) return
        setStatus('failed')
        setLog((l) => appendToLog(l, `${l && !l.endsWith('\n') ? '\n' : ''}${messageOf(error)}\n`))
      },
    )
  }

  return (
    <Modal title={ADMIN_TEXT.importUniversalTable.replace(/\.\.\.$/, '')} onClose={onClose} className="max-w-2xl!">
      <div className="flex flex-col gap-4">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Universal table file
          <input
            type="file"
            accept=".csv,.tsv,.txt,.gz,text/csv,text/plain"
            disabled={status === 'running'}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="text-sm font-normal file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:text-slate-800 hover:file:bg-slate-50"
          />
        </label>
        <pre
          ref={logRef}
          role="log"
          aria-label="Import log"
          aria-live="polite"
          data-status={status}
          className="h-64 overflow-auto whitespace-pre-wrap rounded-md bg-slate-900 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100"
        >
          {log}
        </pre>
        <div className="flex items-center justify-end gap-2">
          <span aria-live="polite" className="mr-auto text-sm text-slate-500">
            {status === 'running' ? 'Importing...' : status === 'done' ? 'Import finished' : status === 'failed' ? 'Import failed' : ''}
          </span>
          <Button variant="secondary" onClick={onClose}>
            {status === 'running' ? 'Stop import' : status === 'idle' ? 'Cancel' : 'Done'}
          </Button>
          <Button onClick={start} disabled={!file} loading={status === 'running'}>
            Import
          </Button>
        </div>
      </div>
    </Modal>
  )
}
