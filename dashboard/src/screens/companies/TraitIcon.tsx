import type { CompanyTrait } from '../../api/types.ts'

/** The icon of a trait's data type (part 1 §3): text, number, date, yes/no, list. */
const PATHS: Record<CompanyTrait['icon'], string> = {
  string: 'M4 7V5h16v2M12 5v14M9 19h6',
  number: 'M10 3 8 21M16 3l-2 18M4 9h17M3 15h17',
  date: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  boolean: 'M8 7h8a5 5 0 0 1 0 10H8A5 5 0 0 1 8 7M16 14a2 2 0 1 0 0-4 2 2 0 0 0 0 4',
  stringArray: 'M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01',
}

export function TraitIcon({ type }: { type: CompanyTrait['icon'] }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden data-icon={type} className="h-4 w-4 shrink-0 text-slate-400">
      <path d={PATHS[type]} />
    </svg>
  )
}
