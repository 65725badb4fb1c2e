import { useId, type ReactNode } from 'react'

/**
 * One titled part of the form panel, a group named by its title; `aside` sits
 * at the title's right (a toggle). The title is a labelling element rather
 * than a legend, so that the row can hold both without overlapping them.
 */
export function Section({ title, hint, children, aside }: { title: string; hint?: ReactNode; children: ReactNode; aside?: ReactNode }) {
  const id = useId()
  return (
    <fieldset aria-labelledby={id} className="space-y-2 border-b border-slate-100 pb-5">
      <div className="flex min-h-7 items-center justify-between gap-3">
        <span id={id} className="text-sm font-semibold text-slate-800">
          {title}
        </span>
        {aside}
      </div>
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      {children}
    </fieldset>
  )
}
