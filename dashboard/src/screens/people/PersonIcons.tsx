import type { PersonRow } from '../../api/types.ts'

/**
 * The People table's icons (part 3 §2): the professional-network link, and
 * the flags for a business e-mail, a personal e-mail and a hashed e-mail.
 * Each flag shows only when it holds, named for screen readers and on hover.
 */
export const FLAG_LABELS = { business: 'Business email', personal: 'Personal email', hashed: 'Hashed email' } as const

function Envelope({ mark }: { mark: string }) {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <rect x="2.5" y="5" width="15" height="11" rx="1.5" />
      <path d="M3 6l7 5 7-5" />
      <circle cx="18" cy="16.5" r="4.5" fill="white" />
      <text x="18" y="18.6" textAnchor="middle" fontSize="6.5" fontWeight="700" fill="currentColor" stroke="none">
        {mark}
      </text>
    </svg>
  )
}

function Flag({ label, mark, tone }: { label: string; mark: string; tone: string }) {
  return (
    <span role="img" aria-label={label} title={label} className={`inline-flex ${tone}`}>
      <Envelope mark={mark} />
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
      {person.hasBusinessEmail && <Flag label={FLAG_LABELS.business} mark="B" tone="text-emerald-600" />}
      {person.hasPersonalEmail && <Flag label={FLAG_LABELS.personal} mark="P" tone="text-sky-600" />}
      {person.hasHEM && <Flag label={FLAG_LABELS.hashed} mark="#" tone="text-violet-600" />}
    </span>
  )
}
