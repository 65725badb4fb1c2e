import type { PersonRow } from '../../api/types.ts'

/**
 * The People table's icons (part 3 §2): the professional-network link, and
 * the flags for a business e-mail, a personal e-mail and a hashed e-mail.
 * Each flag shows only when it holds, named for screen readers and on hover.
 */
export const FLAG_LABELS = { business: 'Business email', personal: 'Personal email', hashed: 'Hashed email' } as const

/** Distinct shapes, not colour alone: a briefcase for work, an envelope for personal, a hash for hashed. */
const SHAPES = {
  business: 'M4 8h16v11H4zM9 8V6a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2M4 13h16',
  personal: 'M3 6h18v12H3zM3 7l9 6 9-6',
  hashed: 'M10 3 8 21M16 3l-2 18M4 9h17M3 15h17',
} as const

function Flag({ kind, tone }: { kind: keyof typeof SHAPES; tone: string }) {
  const label = FLAG_LABELS[kind]
  return (
    <span role="img" aria-label={label} title={label} className={`inline-flex ${tone}`}>
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
        <path d={SHAPES[kind]} />
      </svg>
    </span>
  )
}

export function PersonIcons({ person }: { person: PersonRow }) {
  return (
    <span className="flex items-center gap-1.5">
      {person.linkedInUrl && (
        <a
          href={person.linkedInUrl}
          target="_blank"
          rel="noreferrer noopener"
          aria-label={`LinkedIn profile of ${person.visitor}`}
          title="LinkedIn profile"
          onClick={(e) => e.stopPropagation()}
          className="inline-flex h-4 w-4 items-center justify-center rounded-[3px] bg-[#0a66c2] text-[9px] font-bold leading-none text-white hover:opacity-80"
        >
          in
        </a>
      )}
      {person.hasBusinessEmail && <Flag kind="business" tone="text-emerald-600" />}
      {person.hasPersonalEmail && <Flag kind="personal" tone="text-sky-600" />}
      {person.hasHEM && <Flag kind="hashed" tone="text-violet-600" />}
    </span>
  )
}
