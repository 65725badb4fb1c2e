import { useEffect, useId, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

interface Props {
  title: ReactNode
  onClose: () => void
  children: ReactNode
  /** 'center' for dialogs, 'right' for drawers (sources, features). */
  side?: 'center' | 'right'
  className?: string
}

/** Open modals, innermost last: Escape closes only the innermost one (a confirmation over a drawer, not both). */
const openModals: object[] = []

/** A modal dialog: a backdrop that closes it, Escape closes it, labelled by its title. */
export function Modal({ title, onClose, children, side = 'center', className = '' }: Props) {
  const titleId = useId()
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose
  // Registered once per opening, so that a re-render does not move a modal above one opened after it.
  useEffect(() => {
    const self = {}
    openModals.push(self)
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && openModals[openModals.length - 1] === self && onCloseRef.current()
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      openModals.splice(openModals.indexOf(self), 1)
    }
  }, [])

  const panel =
    side === 'right'
      ? 'fixed inset-y-0 right-0 flex w-full max-w-xl flex-col bg-white shadow-2xl'
      : // Kept to the window: a tall dialog scrolls inside, its title and its buttons' way out always reachable.
        'relative mx-auto mt-[15vh] flex max-h-[80vh] w-full max-w-md flex-col rounded-lg bg-white shadow-2xl'
  return createPortal(
    <div className="fixed inset-0 z-30">
      <div data-testid="modal-backdrop" className="absolute inset-0 bg-slate-900/40" onClick={onClose} />
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} data-side={side} className={`${panel} ${className}`}>
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <button type="button" aria-label="Close" onClick={onClose} className="rounded p-1 text-slate-500 hover:bg-slate-100">
            ✕
          </button>
        </div>
        <div className={side === 'right' ? 'flex-1 overflow-auto p-5' : 'min-h-0 overflow-auto p-5'}>{children}</div>
      </div>
    </div>,
    document.body,
  )
}

/** A right-side modal (part 1 §2: sources and features open in drawers). */
export function Drawer(props: Omit<Props, 'side'>) {
  return <Modal {...props} side="right" />
}
