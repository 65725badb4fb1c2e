import { COMPANY_TEXT } from '@fl0/contracts/companies'
import type { CompanyDetail } from '../../api/types.ts'
import { LineChart } from '../../ui/chart/LineChart.tsx'
import { formatDateTime, formatRelative, shortNumber } from '../../ui/format.ts'
import { BusinessIntents } from './BusinessIntents.tsx'
import { CompanyLogo } from './CompanyLogo.tsx'
import { formatTraitValue } from './format.ts'
import { TraitIcon } from './TraitIcon.tsx'

function Card({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="text-xs font-medium text-slate-500">{label}</div>
      <div className="mt-1 text-lg font-semibold text-slate-900">{children}</div>
    </div>
  )
}

/**
 * The left panel (part 1 §2): name and domain with the logo, the cards
 * 'Visitors (30d)' and 'Last seen', the Activity card 'Past 30 days' with the
 * page views and their graph, and the Traits list; then, when an identity
 * partner's intents were imported for the domain, the Business intent card.
 */
export function CompanyPanel({ company }: { company: CompanyDetail }) {
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <CompanyLogo key={company.logoUrl ?? ''} name={company.name} logoUrl={company.logoUrl} />
        <div className="min-w-0">
          <h1 className="truncate text-xl font-semibold tracking-tight">{company.name}</h1>
          <a href={company.website} target="_blank" rel="noreferrer noopener" className="text-sm text-indigo-700 hover:underline">
            {company.domain}
          </a>
        </div>
      </div>

      <div className="grid grid-cols-2 gap-3">
        <Card label={COMPANY_TEXT.visitors30d}>
          <span data-testid="visitors-30d">{shortNumber(company.visitors)}</span>
        </Card>
        <Card label={COMPANY_TEXT.lastSeen}>
          <span data-testid="last-seen" title={company.lastSeen ? formatDateTime(company.lastSeen, company.timezone) : undefined} className="text-base">
            {company.lastSeen ? formatRelative(company.lastSeen) : '—'}
          </span>
        </Card>
      </div>

      <section aria-labelledby="activity-heading" className="rounded-lg border border-slate-200 bg-white p-3">
        <div className="flex items-baseline justify-between">
          <h2 id="activity-heading" className="text-sm font-semibold">
            {COMPANY_TEXT.activity}
          </h2>
          <span className="text-xs text-slate-500">{COMPANY_TEXT.past30Days}</span>
        </div>
        <p className="mt-1 text-2xl font-semibold">
          <span data-testid="page-views">{shortNumber(company.pageViews)}</span> <span className="text-sm font-normal text-slate-500">page views</span>
        </p>
        <LineChart points={company.graph} label="Page views per day" height={120} />
      </section>

      <section aria-labelledby="traits-heading" className="rounded-lg border border-slate-200 bg-white p-3">
        <h2 id="traits-heading" className="text-sm font-semibold">
          {COMPANY_TEXT.traits}
        </h2>
        {company.traits.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No traits found</p>
        ) : (
          <dl className="mt-2 divide-y divide-slate-100 text-sm">
            {company.traits.map((t) => (
              <div key={t.key} className="flex items-center gap-2 py-1.5">
                <TraitIcon type={t.icon} />
                <dt className="text-slate-500">{t.label}</dt>
                <dd className="ml-auto truncate text-right font-medium text-slate-800">{formatTraitValue(t)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <BusinessIntents intents={company.intents} />
    </div>
  )
}
