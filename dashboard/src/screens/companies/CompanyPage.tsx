import { Link, useParams } from 'react-router'
import { COMPANY_TEXT } from '@fl0/contracts/companies'
import { useApi } from '../../api/context.tsx'
import type { CompanyDetail } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { shortNumber } from '../../ui/format.ts'
import { LinkTab, LinkTabs } from '../../ui/Tabs.tsx'
import { AnalyticsTab } from './AnalyticsTab.tsx'
import { CompanyPanel } from './CompanyPanel.tsx'
import { DetailsTab } from './DetailsTab.tsx'
import { IntentTab } from './IntentTab.tsx'
import { IpDataAttribution } from './IpDataAttribution.tsx'
import { COMPANY_TABS, tabOf, type CompanyTabPath } from './tabs.ts'
import { VisitorsTab } from './VisitorsTab.tsx'

function Tabs({ base, current, company }: { base: string; current: CompanyTabPath; company: CompanyDetail }) {
  return (
    <LinkTabs label="Company">
      {COMPANY_TABS.map((t) => (
        <LinkTab key={t.path} to={t.path ? `${base}/${t.path}` : base} selected={t.path === current} layout="flex items-center gap-2">
          {t.label}
          {/* The specification's original shows a fixed 16 here; fl0 shows the real count. */}
          {t.path === 'visitors' && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{shortNumber(company.visitors)}</span>}
        </LinkTab>
      ))}
    </LinkTabs>
  )
}

/**
 * The company page (part 1 §2): /organizations/{organization}/companies/{domain}
 * with a left panel and the tabs Intent (default), Visitors, Analytics and
 * Company details, each at a sub-path so it can be linked to (tabs.ts). The
 * footer credits the free IP data that places visitors and the company.
 */
export default function CompanyPage() {
  const { organization = '', company: domain = '', '*': rest = '' } = useParams()
  const api = useApi()
  const fetched = useFetch((signal) => api.companies.get(organization, domain, signal), [organization, domain])
  const tab = tabOf(rest)
  const base = `/organizations/${encodeURIComponent(organization)}/companies/${encodeURIComponent(domain)}`
  return (
    <div className="p-6">
      <Link to={`/organizations/${encodeURIComponent(organization)}/people`} className="text-sm text-indigo-700 hover:underline">
        ← {COMPANY_TEXT.backToPeople}
      </Link>
      <FetchView fetched={fetched}>
        {(company) => (
          <>
            <div className="mt-4 flex flex-col gap-6 lg:flex-row lg:items-start">
              <aside aria-label="Company" className="w-full shrink-0 lg:w-80">
                <CompanyPanel company={company} />
              </aside>
              <section aria-label="Company activity" className="min-w-0 flex-1 space-y-4">
                <Tabs base={base} current={tab ?? ''} company={company} />
                <div role="tabpanel">
                  {tab === '' && <IntentTab company={company} />}
                  {tab === 'visitors' && <VisitorsTab org={organization} domain={company.domain} timezone={company.timezone} />}
                  {tab === 'analytics' && <AnalyticsTab org={organization} domain={company.domain} />}
                  {tab === 'details' && <DetailsTab org={organization} domain={company.domain} timezone={company.timezone} />}
                  {tab === undefined && <ErrorPanel message="Not found" />}
                </div>
              </section>
            </div>
            <footer className="mt-8 border-t border-slate-100 pt-3">
              <IpDataAttribution />
            </footer>
          </>
        )}
      </FetchView>
    </div>
  )
}
