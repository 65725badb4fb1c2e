import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { formatDate, formatRelative } from '../../ui/format.ts'
import { HOME_TEXT, type HomeCompany, type HomePage as HomePageRow, type HomePerson } from '@fl0/contracts/home'

const count = (n: number) => n.toLocaleString('en-US')

/**
 * The organisation's home (issue 22; the specification only redirects): who
 * visited this week. Companies and people active in the last 7 days, how
 * many are new since the week before, and the most viewed pages, each linked
 * to its company page, profile or address.
 */
export default function HomePage() {
  const { organization = '' } = useParams()
  const api = useApi()
  const fetched = useFetch((signal) => api.home(organization, signal), [organization])
  const base = `/organizations/${encodeURIComponent(organization)}`
  return (
    <div className="p-8">
      <Heading>{HOME_TEXT.heading}</Heading>
      <FetchView fetched={fetched}>
        {(home) => (
          <div className="space-y-6">
            <p className="-mt-4 text-sm text-slate-500">
              {HOME_TEXT.subtitle}: {formatDate(home.from)} – {formatDate(home.to)}
            </p>
            {home.people.active === 0 && home.companies.active === 0 && home.pages.length === 0 && (
              <div role="note" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-100 bg-indigo-50 px-5 py-4 text-sm text-indigo-900">
                <span>{HOME_TEXT.quiet}</span>
                <Link to={`${base}/data-sources`} className="font-medium text-indigo-700 hover:underline">
                  {HOME_TEXT.dataSources} →
                </Link>
              </div>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              <Stat label={HOME_TEXT.companies} value={home.companies.active} fresh={home.companies.new} />
              <Stat label={HOME_TEXT.people} value={home.people.active} fresh={home.people.new} />
            </div>
            <div className="grid gap-6 xl:grid-cols-2">
              <Panel title={HOME_TEXT.companies} empty={home.companies.top.length === 0 ? HOME_TEXT.noCompanies : undefined}>
                {home.companies.top.map((c) => (
                  <CompanyItem key={c.domain} company={c} href={`${base}/companies/${encodeURIComponent(c.domain)}`} />
                ))}
              </Panel>
              <Panel
                title={HOME_TEXT.people}
                empty={home.people.top.length === 0 ? HOME_TEXT.noPeople : undefined}
                action={
                  <Link to={`${base}/people`} className="text-sm text-indigo-700 hover:underline">
                    {HOME_TEXT.allPeople} →
                  </Link>
                }
              >
                {home.people.top.map((p) => (
                  <PersonItem key={p.id} person={p} href={`${base}/people/users/${encodeURIComponent(p.id)}`} companyHref={p.companyDomain ? `${base}/companies/${encodeURIComponent(p.companyDomain)}` : undefined} />
                ))}
              </Panel>
            </div>
            <PagesTable pages={home.pages} />
          </div>
        )}
      </FetchView>
    </div>
  )
}

function Stat({ label, value, fresh }: { label: string; value: number; fresh: number }) {
  return (
    <section aria-label={`${label} this week`} className="rounded-lg border border-slate-200 bg-white p-5">
      <div className="text-sm font-medium text-slate-500">{label}</div>
      <div className="mt-1 text-3xl font-semibold tabular-nums">{count(value)}</div>
      <div className={`mt-1 text-sm ${fresh > 0 ? 'text-emerald-700' : 'text-slate-500'}`}>{HOME_TEXT.newSinceLastWeek(fresh)}</div>
    </section>
  )
}

function Panel({ title, empty, action, children }: { title: string; empty?: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between border-b border-slate-100 px-5 py-3">
        <h2 className="font-semibold">{title}</h2>
        {action}
      </div>
      {empty ? <p className="px-5 py-8 text-center text-sm text-slate-500">{empty}</p> : <ul className="divide-y divide-slate-100">{children}</ul>}
    </section>
  )
}

const NewBadge = () => <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">New</span>

function CompanyItem({ company, href }: { company: HomeCompany; href: string }) {
  return (
    <li className="flex items-center gap-3 px-5 py-3 text-sm">
      <span className="min-w-0 flex-1">
        <Link to={href} className="block truncate font-medium text-indigo-700 hover:underline">
          {company.name}
        </Link>
        {company.name !== company.domain && <span className="block truncate text-xs text-slate-500">{company.domain}</span>}
      </span>
      {company.isNew && <NewBadge />}
      <span className="shrink-0 text-right text-slate-600 tabular-nums">
        {count(company.people)} {company.people === 1 ? 'person' : 'people'}
      </span>
    </li>
  )
}

function PersonItem({ person, href, companyHref }: { person: HomePerson; href: string; companyHref?: string }) {
  return (
    <li className="flex items-center gap-3 px-5 py-3 text-sm">
      <span className="min-w-0 flex-1">
        <Link to={href} className="block truncate font-medium text-indigo-700 hover:underline">
          {person.name}
        </Link>
        <span className="block truncate text-xs text-slate-500">
          {person.company && companyHref ? (
            <Link to={companyHref} className="hover:underline">
              {person.company}
            </Link>
          ) : (
            (person.company ?? person.email ?? '')
          )}
        </span>
      </span>
      {person.isNew && <NewBadge />}
      <span className="shrink-0 text-right text-xs text-slate-500">
        <span className="block text-sm text-slate-700 tabular-nums">{count(person.events)} events</span>
        {formatRelative(person.lastSeen)}
      </span>
    </li>
  )
}

function PagesTable({ pages }: { pages: HomePageRow[] }) {
  return (
    <section aria-label={HOME_TEXT.pages} className="rounded-lg border border-slate-200 bg-white">
      <h2 className="border-b border-slate-100 px-5 py-3 font-semibold">{HOME_TEXT.pages}</h2>
      {pages.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-slate-500">{HOME_TEXT.noPages}</p>
      ) : (
        <table className="w-full table-fixed text-sm">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="px-5 py-2 font-medium">Page</th>
              <th className="w-28 px-5 py-2 text-right font-medium">Views</th>
              <th className="w-28 px-5 py-2 text-right font-medium">Visitors</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {pages.map((p) => (
              <tr key={p.path}>
                <td className="px-5 py-2">
                  {/^https?:\/\//i.test(p.url) ? (
                    <a href={p.url} target="_blank" rel="noreferrer noopener" className="block truncate text-indigo-700 hover:underline">
                      {p.path || '/'}
                    </a>
                  ) : (
                    <span className="block truncate">{p.path || '/'}</span>
                  )}
                  {p.title && <span className="block truncate text-xs text-slate-500">{p.title}</span>}
                </td>
                <td className="px-5 py-2 text-right tabular-nums">{count(p.views)}</td>
                <td className="px-5 py-2 text-right tabular-nums">{count(p.visitors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
