import { useEffect, useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { Button } from '../../ui/Button.tsx'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
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

/** How an import's log ended: its last line starts 'Done:' or 'Failed:' (docs/identification.md). */
export function logOutcome(log: string): 'done' | 'failed' | null {
  const last = log.trimEnd().split('\n').pop() ?? ''
  return last.startsWith('Failed:') ? 'failed' : last.startsWith('Done:') ? 'done' : null
}

/** 'last': the log of the running or last import, read on opening; the others, of the import started here. */
type Status = 'last' | 'running' | 'done' | 'failed'

const STATUS_TEXT: Record<Status, string> = { last: 'Last import', running: 'Importing...', done: 'Import finished', failed: 'Import failed' }

/**
 * 'Import universal table...' (part 1 §2). On opening, it shows the log of
 * the running or last import (GET, streamed). Import sends the chosen file to
 * the streamed import (POST), and each chunk of progress text the server
 * writes is appended to the log the moment it arrives; the grid loads again
 * after an import. Closing the dialog during an import asks first, then
 * aborts the request.
 */
export function ImportUniversalDialog({ onClose }: { onClose: () => void }) {
  const api = useApi()
  const [file, setFile] = useState<File | null>(null)
  const [status, setStatus] = useState<Status>('last')
  const [log, setLog] = useState('')
  const [note, setNote] = useState('')
  const [confirmClose, setConfirmClose] = useState(false)
  const controller = useRef<AbortController | null>(null)
  const logRef = useRef<HTMLPreElement>(null)

  /** Reads one streamed log into the dialog; a newer read aborts the older. */
  const read = (start: (onChunk: (text: string) => void, signal: AbortSignal) => Promise<void>, onEnd: (log: string) => void, onError: (message: string) => void) => {
    controller.current?.abort()
    const c = new AbortController()
    controller.current = c
    let text = ''
    setLog('')
    setNote('')
    start((chunk) => {
      if (c.signal.aborted) return
      text = appendToLog(text, chunk)
      setLog(text)
    }, c.signal).then(
      () => !c.signal.aborted && onEnd(text),
      (error) => !c.signal.aborted && !isSilentError(error) && onError(messageOf(error)),
    )
  }

  // On opening, the running or last import's log; 'No universal table import has run yet' when none has.
  useEffect(() => {
    read((onChunk, signal) => api.admin.universalTableImportLog(onChunk, signal), () => {}, setNote)
    return () => controller.current?.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // Follow the log's end as it grows.
  useEffect(() => {
    const el = logRef.current
    if (el) el.scrollTop = el.scrollHeight
  }, [log])

  const start = () => {
    if (!file) return
    setStatus('running')
    read(
      (onChunk, signal) => api.admin.importUniversalTable(file, onChunk, signal),
      (text) => {
        setStatus(logOutcome(text) ?? 'done')
        refetch(gridRefetchName('universal-table'))
      },
      (message) => {
        setStatus('failed')
        setLog((l) => appendToLog(l, `${l && !l.endsWith('\n') ? '\n' : ''}${message}\n`))
      },
    )
  }

  // While the file is going up, closing would cut it short: ask first.
  const requestClose = () => (status === 'running' ? setConfirmClose(true) : onClose())

  return (
    <Modal title={ADMIN_TEXT.importUniversalTable.replace(/\.\.\.$/, '')} onClose={requestClose} className="max-w-2xl!">
      <div className="flex flex-col gap-4">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Universal table file
          <input
            type="file"
            accept=".csv,text/csv"
            disabled={status === 'running'}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="text-sm font-normal file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:text-slate-800 hover:file:bg-slate-50"
          />
        </label>
        <div className="flex flex-col gap-1">
          <span aria-live="polite" data-status={status} className="text-sm font-medium text-slate-700">
            {STATUS_TEXT[status]}
          </span>
          <pre
            ref={logRef}
            role="log"
            aria-label="Import log"
            className="h-64 overflow-auto whitespace-pre-wrap rounded-md bg-slate-900 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100"
          >
            {log}
            {!log && note && <span className="text-slate-400">{note}</span>}
          </pre>
        </div>
        <div className="flex items-center justify-end gap-2">
          <Button onClick={start} disabled={!file} loading={status === 'running'}>
            Import
          </Button>
        </div>
      </div>
      {confirmClose && (
        <ConfirmModal
          header="Close during the import?"
          description="Closing cancels the request: a file not yet sent in full is imported only in part. Open the dialog again to see how the import ended."
          submitLabel="Close anyway"
          onConfirm={onClose}
          onClose={() => setConfirmClose(false)}
        />
      )}
    </Modal>
  )
}
