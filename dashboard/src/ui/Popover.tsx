import { useEffect, useRef, useState, type ReactNode } from 'react'

/** A button that opens a panel; a click outside or Escape closes it. */
/** `align` 'end' lines the panel up with the button's right edge (a button at the right of a card). */
export function Popover({
  label,
  button,
  children,
  placement = 'below',
  align = 'start',
  buttonClassName = '',
}: {
  label: string
  button: ReactNode
  children: (close: () => void) => ReactNode
  placement?: 'below' | 'above'
  align?: 'start' | 'end'
  buttonClassName?: string
}) {
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false)
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    document.addEventListener('mousedown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])
  return (
    <div ref={ref} className="relative">
      <button type="button" aria-label={label} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} className={buttonClassName}>
        {button}
      </button>
      {open && (
        <div role="menu" aria-label={label} className={`absolute ${align === 'end' ? 'right-0' : 'left-0'} z-20 min-w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg ${placement === 'above' ? 'bottom-full mb-1' : 'top-full mt-1'}`}>
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  )
}
