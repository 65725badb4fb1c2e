import type { ReactNode } from 'react'
import { useApi } from '../../api/context.tsx'
import type { CompanyDetails } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatDateTime } from '../../ui/format.ts'
import { formatTraitValue, plural } from './format.ts'
import { TraitIcon } from './TraitIcon.tsx'

const RULES: Record<CompanyDetails['identifiedBy'][number], string> = {
  group: 'Segment group call naming the domain',
  email: 'Business e-mail addresses at the domain',
  ip: "Visits from the company's IP ranges",
  callback: 'Visitors an identity partner names as its people',
  identify: "Identified visitors whose partner record names the company",
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-4 px-4 py-2.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-800">{children}</dd>
    </div>
  )
}

/**
 * Company details: every firmographic trait the company's group calls carry,
 * and how fl0 knows the company (its group ids, the rules that found its
 * people, when it was first and last seen).
 */
export function DetailsTab({ org, domain, timezone }: { org: string; domain: string; timezone: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.companies.details(org, domain, signal), [org, domain])
  return (
    <FetchView fetched={fetched}>
      {(d) => (
        <div className="space-y-6">
          <section aria-labelledby="firmographics" className="rounded-lg border border-slate-200 bg-white">
            <h3 id="firmographics" className="border-b border-slate-100 px-4 py-3 text-sm font-semibold">
              Firmographics
            </h3>
            <dl className="divide-y divide-slate-100">
              <Row label="Name">{d.name}</Row>
              <Row label="Domain">{d.domain}</Row>
              <Row label="Website">
                <a href={d.website} target="_blank" rel="noreferrer noopener" className="text-indigo-700 hover:underline">
                  {d.website}
                </a>
              </Row>
              {/* The website trait is the row above, as a link. */}
              {d.traits
                .filter((t) => t.key !== 'website')
                .map((t) => (
                  <Row key={t.key} label={t.label}>
                    <span className="inline-flex items-center gap-2">
                      <TraitIcon type={t.icon} />
                      {formatTraitValue(t)}
                    </span>
                  </Row>
                ))}
            </dl>
            {d.traits.length === 0 && <p className="px-4 pb-4 text-sm text-slate-500">No traits found</p>}
          </section>
          <section aria-labelledby="identification" className="rounded-lg border border-slate-200 bg-white">
            <h3 id="identification" className="border-b border-slate-100 px-4 py-3 text-sm font-semibold">
              Identification
            </h3>
            <dl className="divide-y divide-slate-100">
              <Row label="Identified by">{d.identifiedBy.map((r) => RULES[r]).join('; ')}</Row>
              {d.groupIds.length > 0 && <Row label="Group ids">{d.groupIds.join(', ')}</Row>}
              <Row label="Known people">{plural(d.knownPeople, 'person', 'people')}</Row>
              <Row label="First seen">{d.firstSeen ? formatDateTime(d.firstSeen, timezone) : '—'}</Row>
              <Row label="Last seen">{d.lastSeen ? formatDateTime(d.lastSeen, timezone) : '—'}</Row>
            </dl>
          </section>
        </div>
      )}
    </FetchView>
  )
}
