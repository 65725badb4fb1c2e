import type { AdminRow } from '../../../api/admin.ts'
import { Modal } from '../../../ui/modal/Modal.tsx'
import { formattedJson } from './cells.ts'

/** A grid row in full: each field with its value as formatted JSON (part 1 §2). */
export function RowDetailModal({ title, row, onClose }: { title: string; row: AdminRow; onClose: () => void }) {
  return (
    <Modal title={title} onClose={onClose} className="max-w-3xl!">
      <dl aria-label="Row fields" className="max-h-[60vh] space-y-3 overflow-y-auto pr-1">
        {Object.entries(row).map(([key, value]) => (
          <div key={key}>
            <dt className="font-mono text-xs font-semibold text-slate-600">{key}</dt>
            <dd className="mt-1">
              <pre className="overflow-x-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs leading-relaxed text-slate-800">{formattedJson(value)}</pre>
            </dd>
          </div>
        ))}
      </dl>
    </Modal>
  )
}
