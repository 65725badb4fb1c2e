import { Modal } from '../../ui/modal/Modal.tsx'
import { TYPE_LABEL } from './SourceGraph.tsx'
import type { SourceModal } from './sourceModal.ts'

const CHOICES = [
  { modal: 'segment-modal', type: 'segment', description: 'Send events from a Segment-compatible pipeline or server library, with an API key.' },
  { modal: 'snippet-modal', type: 'snippet', description: 'Paste a script into your website to track page views and identify visitors.' },
] as const

/** The add-source modal (part 1 §2): Segment, or a snippet on a website. */
export function AddSourceModal({ onChoose, onClose }: { onChoose: (modal: SourceModal) => void; onClose: () => void }) {
  return (
    <Modal title="Add source" onClose={onClose}>
      <ul className="space-y-3">
        {CHOICES.map((c) => (
          <li key={c.modal}>
            <button
              type="button"
              onClick={() => onChoose(c.modal)}
              className="flex w-full items-start gap-3 rounded-lg border border-slate-200 p-4 text-left transition hover:border-indigo-300 hover:bg-indigo-50/40"
            >
              <span className="min-w-0">
                <span className="block font-medium text-slate-900">{TYPE_LABEL[c.type]}</span>
                <span className="mt-0.5 block text-sm text-slate-600">{c.description}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  )
}
