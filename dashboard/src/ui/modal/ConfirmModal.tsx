import { useState, type ReactNode } from 'react'
import { Button } from '../Button.tsx'
import { Modal } from './Modal.tsx'

/** 'Delete...' becomes 'Delete' on the confirming button (part 1 §2). */
export function stripEllipsis(label: string): string {
  return label.replace(/(\.\.\.|…)\s*$/, '')
}

interface Props {
  header: string
  description: ReactNode
  /** The action's label as the screen shows it; a trailing ellipsis is removed. */
  submitLabel: string
  icon?: ReactNode
  danger?: boolean
  onConfirm: () => Promise<unknown> | void
  onClose: () => void
}

/** Confirm modal: icon, header, description, submit and cancel. */
export function ConfirmModal({ header, description, submitLabel, icon = '⚠', danger = true, onConfirm, onClose }: Props) {
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    try {
      await onConfirm()
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal title={header} onClose={onClose}>
      <div className="flex gap-4">
        <div aria-hidden className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full ${danger ? 'bg-red-100 text-red-600' : 'bg-indigo-100 text-indigo-600'}`}>
          {icon}
        </div>
        <div className="text-sm text-slate-700">{description}</div>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant={danger ? 'danger' : 'primary'} loading={busy} onClick={confirm}>
          {stripEllipsis(submitLabel)}
        </Button>
      </div>
    </Modal>
  )
}
