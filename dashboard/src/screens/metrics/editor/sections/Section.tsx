import type { ReactNode } from 'react'

/** One titled part of the form panel; `aside` sits at the title's right (a toggle). */
export function Section({ title, hint, children, aside }: { title: string; hint?: ReactNode; children: ReactNode; aside?: ReactNode }) {
  return (
    <fieldset className="relative space-y-2 border-b border-slate-100 pb-5">
      <legend className="mb-2 text-sm font-semibold text-slate-800">{title}</legend>
      {aside && <div className="absolute right-0 top-0">{aside}</div>}
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      {children}
    </fieldset>
  )
}
