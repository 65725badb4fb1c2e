import { useId, useState } from 'react'
import { Button } from '../../../../ui/Button.tsx'

/** The raw answer for those who want it, closed until asked for: rendered only when open, so a long list costs nothing until then. */
export function JsonToggle({ data, label }: { data: unknown; label: string }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <div className="space-y-2">
      <Button variant="secondary" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide JSON' : 'Show JSON'}
      </Button>
      {open && (
        <pre id={id} aria-label={label} className="max-h-[36rem] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800">
          {JSON.stringify(data, null, 2)}
        </pre>
      )}
    </div>
  )
}
