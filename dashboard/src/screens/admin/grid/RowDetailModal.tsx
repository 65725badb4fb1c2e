import type { AdminRow } from '../../../api/admin.ts'
import { Modal } from '../../../ui/modal/Modal.tsx'
import { formattedJson } from './cells.ts'

/** A grid row in full: each field with its value as formatted JSON (part 1 §2), field names in a column of their own. */
export function RowDetailModal({ title, row, onClose }: { title: string; row: AdminRow; onClose: () => void }) {
  return (
    <Modal title={title} onClose={onClose} className="max-w-3xl!">
      <dl aria-label="Row fields" className="grid max-h-[65vh] grid-cols-[max-content_minmax(0,1fr)] items-baseline gap-x-4 gap-y-1.5 overflow-y-auto pr-1">
        {Object.entries(row).map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-xs font-semibold text-slate-600">{key}</dt>
            <dd>
              <pre className="overflow-x-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs leading-relaxed text-slate-800">{formattedJson(value)}</pre>
            </dd>
          </div>
        ))}
      </dl>
    </Modal>
  )
}
