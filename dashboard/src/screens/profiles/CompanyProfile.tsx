import { Link, useParams } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import type { CompanyFeatureAdoption, CompanyProfile as Profile, FeatureAdoption, ProfileTotal, TopUser } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { LineChart } from '../../ui/chart/LineChart.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatDate, formatDateTime, formatRelative, shortNumber } from '../../ui/format.ts'
import { CompanyLogo } from '../companies/CompanyLogo.tsx'
import { usePeoplePaths } from '../people/paths.ts'
import { percent } from './format.ts'
import { ProfilePage } from './ProfilePage.tsx'
import { TopList } from './TopList.tsx'
import { useNoFeaturesYet } from './noFeaturesYet.tsx'
import { TraitsCard } from './TraitsCard.tsx'

const T = PEOPLE_TEXT

function Stat({ label, title, value }: { label: string; title: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" title={title}>
      <div className="text-xs font-medium text-slate-500">{label}</div>
      <div data-testid={label} className="mt-1 text-2xl font-semibold text-slate-900">
        {shortNumber(value)}
      </div>
    </div>
  )
}

function Header({ profile }: { profile: Profile }) {
  const paths = usePeoplePaths()
  return (
    <div className="flex flex-wrap items-center gap-4">
      <CompanyLogo key={profile.logoUrl ?? ''} name={profile.name} logoUrl={profile.logoUrl} />
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold tracking-tight">{profile.name}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
          {profile.firstSeen && (
            <span>
              Joined <time dateTime={profile.firstSeen} title={formatDateTime(profile.firstSeen, profile.timezone)}>{formatDate(profile.firstSeen, profile.timezone)}</time>
            </span>
          )}
          {profile.email && (
            <a href={`mailto:${profile.email}`} aria-label={`Email ${profile.email}`} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-200">
              ✉ {profile.email}
            </a>
          )}
          {profile.lastSeen && (
            <span>
              Last seen <time dateTime={profile.lastSeen} title={formatDateTime(profile.lastSeen, profile.timezone)}>{formatRelative(profile.lastSeen)}</time>
            </span>
          )}
        </p>
      </div>
      <Link to={paths.companyPage(profile.domain)} className="ml-auto text-sm text-indigo-700 hover:underline">
        Company page ({profile.domain}) →
      </Link>
    </div>
  )
}

const userColumns = (user: (id: string) => string) => [
  { header: 'Email', render: (u: TopUser) => <span title={u.email ?? undefined}>{u.email ?? '—'}</span> },
  {
    header: 'Name',
    render: (u: TopUser) => (
      <Link to={user(u.id)} className="text-indigo-700 hover:underline">
        {u.name}
      </Link>
    ),
  },
  { header: 'Total', render: (u: TopUser) => u.total.toLocaleString('en-US'), numeric: true },
]
const eventColumns = [
  { header: T.eventColumns.event, render: (e: ProfileTotal) => e.name },
  { header: 'Total', render: (e: ProfileTotal) => e.total.toLocaleString('en-US'), numeric: true },
]
const featureColumns = [
  { header: T.featureColumns.feature, render: (f: FeatureAdoption) => f.featureName },
  { header: T.featureColumns.usage, render: (f: FeatureAdoption) => f.usage.toLocaleString('en-US'), numeric: true },
  { header: T.featureColumns.users, render: (f: FeatureAdoption) => f.users.toLocaleString('en-US'), numeric: true },
  { header: T.featureColumns.adoption, render: (f: FeatureAdoption) => percent(f.adoption), numeric: true },
]

/** Most and least used features (Feature, Usage, Users, Adoption), loaded apart: they read every feature's events. */
function Features({ organization, domain }: { organization: string; domain: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.profiles.featureAdoption(organization, domain, signal), [organization, domain])
  return <FetchView fetched={fetched}>{(a) => <FeatureLists organization={organization} adoption={a} />}</FetchView>
}

function FeatureLists({ organization, adoption: a }: { organization: string; adoption: CompanyFeatureAdoption }) {
  const noFeatures = useNoFeaturesYet(organization, a.topFeatures.length === 0 && a.lowestFeatures.length === 0)
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <TopList title={T.mostUsedFeatures} columns={featureColumns} rows={a.topFeatures} rowKey={(f) => f.featureId} note={`Past ${a.windowDays} days`} empty={noFeatures} />
      <TopList title={T.leastUsedFeatures} columns={featureColumns} rows={a.lowestFeatures} rowKey={(f) => f.featureId} note={`Past ${a.windowDays} days`} empty={noFeatures} />
    </div>
  )
}

/** acme.com, eu.acme.co.uk: what the profile's own call reads; anything else (cmp_…) is an id. */
const looksLikeDomain = (key: string) => /^[^\s/@]+\.[a-z0-9-]{2,63}\.?$/i.test(key.trim())

/**
 * The company profile (part 3 §2): people/companies/{companyId}, the
 * companyId being the company's domain or its id (looked up first, by the
 * server: another organisation's id is not found). The name, joined date (first activity), e-mail
 * chip and last seen; the Traits card; DAU, WAU and MAU and the monthly
 * active users graph; who used it most and the most triggered events; the
 * features most and least used.
 */
export default function CompanyProfile() {
  const { companyId = '' } = useParams()
  const api = useApi()
  const paths = usePeoplePaths()
  const fetched = useFetch(
    async (signal) => {
      const domain = looksLikeDomain(companyId)
        ? companyId
        : (await api.profiles.companyById(paths.organization, companyId, signal)).domain
      return api.profiles.company(paths.organization, domain, signal)
    },
    [paths.organization, companyId],
  )
  return (
    <ProfilePage fetched={fetched}>
      {(profile) => (
        <>
          <Header profile={profile} />
          <div className="grid gap-4 lg:grid-cols-3">
            <div className="space-y-4 lg:col-span-2">
              <div className="grid grid-cols-3 gap-4">
                <Stat label="DAU" title="Daily active users: people active today" value={profile.dailyActiveUsers} />
                <Stat label="WAU" title="Weekly active users: people active in the last 7 days" value={profile.weeklyActiveUsers} />
                <Stat label="MAU" title="Monthly active users: people active in the last 30 days" value={profile.monthlyActiveUsers} />
              </div>
              <section aria-labelledby="mau-graph" className="rounded-lg border border-slate-200 bg-white p-4">
                <div className="flex items-baseline justify-between">
                  <h2 id="mau-graph" className="text-sm font-semibold">
                    Monthly active users
                  </h2>
                  <span className="text-xs text-slate-500">Each day: people active in the 30 days up to it</span>
                </div>
                <LineChart points={profile.monthlyActiveUsersGraph} label="Monthly active users" height={180} />
              </section>
            </div>
            <TraitsCard organization={paths.organization} type="company" traits={profile.metadata} />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <TopList title={T.whoUsedItMost} columns={userColumns(paths.user)} rows={profile.topUsers} rowKey={(u) => u.id} note="Past 30 days" />
            <TopList title={T.mostTriggeredEvents} columns={eventColumns} rows={profile.topEvents} rowKey={(e) => e.name} note="Past 30 days" />
          </div>
          <Features organization={paths.organization} domain={profile.domain} />
        </>
      )}
    </ProfilePage>
  )
}
