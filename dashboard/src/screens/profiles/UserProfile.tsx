import { Link, useParams } from 'react-router'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import type { FeatureUsage, ProfileTotal, UserProfile as Profile } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { LineChart } from '../../ui/chart/LineChart.tsx'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { formatDate, formatDateTime, formatRelative } from '../../ui/format.ts'
import { NavTabs } from '../../ui/Tabs.tsx'
import { Avatar } from '../companies/Avatar.tsx'
import { IpDataAttribution } from '../companies/IpDataAttribution.tsx'
import { usePeoplePaths } from '../people/paths.ts'
import { ProfilePage } from './ProfilePage.tsx'
import { TopList } from './TopList.tsx'
import { useNoFeaturesYet } from './noFeaturesYet.tsx'
import { TraitsCard } from './TraitsCard.tsx'
import { UserEvents } from './UserEvents.tsx'

const T = PEOPLE_TEXT

function Header({ profile }: { profile: Profile }) {
  const paths = usePeoplePaths()
  const facts: Array<[string, React.ReactNode]> = [
    ['Company', profile.companyDomain ? <Link to={paths.companyProfile(profile.companyDomain)} className="text-indigo-700 hover:underline">{profile.company}</Link> : (profile.company ?? '—')],
    ['Location', profile.location ?? '—'],
    ['First seen', profile.firstSeen ? <time dateTime={profile.firstSeen} title={formatDateTime(profile.firstSeen, profile.timezone)}>{formatDate(profile.firstSeen, profile.timezone)}</time> : '—'],
    ['Last seen', profile.lastSeen ? <time dateTime={profile.lastSeen} title={formatDateTime(profile.lastSeen, profile.timezone)}>{formatRelative(profile.lastSeen)}</time> : '—'],
  ]
  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar id={profile.id} name={profile.name} anonymous={profile.anonymous && profile.name === 'Anonymous visitor'} />
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold tracking-tight">{profile.name}</h1>
        {profile.email && profile.email !== profile.name && <p className="text-sm text-slate-500">{profile.email}</p>}
      </div>
      <dl className="ml-auto flex flex-wrap gap-6 text-sm">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs font-medium text-slate-500">{label}</dt>
            <dd className="mt-0.5 font-medium text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

const featureColumns = [
  { header: T.featureColumns.feature, render: (f: FeatureUsage) => f.featureName },
  { header: T.featureColumns.usage, render: (f: FeatureUsage) => f.usage.toLocaleString('en-US'), numeric: true },
]
const eventColumns = [
  { header: T.eventColumns.event, render: (e: ProfileTotal) => e.name },
  { header: 'Total', render: (e: ProfileTotal) => e.total.toLocaleString('en-US'), numeric: true },
]

/** Overview (index): the activity graph, the features most and least used, the most triggered events, the traits. */
function Overview({ profile, organization }: { profile: Profile; organization: string }) {
  const noFeatures = useNoFeaturesYet(organization, profile.mostUsedFeatures.length === 0 && profile.leastUsedFeatures.length === 0)
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <div className="space-y-4 lg:col-span-2">
        <section aria-labelledby="user-activity" className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex items-baseline justify-between">
            <h2 id="user-activity" className="text-sm font-semibold">
              Activity
            </h2>
            <span className="text-xs text-slate-500">Past 30 days</span>
          </div>
          <LineChart points={profile.graph} label="Events per day" height={160} />
        </section>
        <div className="grid gap-4 md:grid-cols-2">
          <TopList title={T.mostUsedFeatures} columns={featureColumns} rows={profile.mostUsedFeatures} rowKey={(f) => f.featureId} note="Past 30 days" empty={noFeatures} />
          <TopList title={T.leastUsedFeatures} columns={featureColumns} rows={profile.leastUsedFeatures} rowKey={(f) => f.featureId} note="Past 30 days" empty={noFeatures} />
        </div>
        <TopList title={T.mostTriggeredEvents} columns={eventColumns} rows={profile.mostTriggeredEvents} rowKey={(e) => e.name} note="Past 30 days" />
      </div>
      <div>
        <TraitsCard organization={organization} type="user" traits={profile.traits} />
      </div>
    </div>
  )
}

/**
 * The user profile (part 3 §2): people/users/{userId} with 'Back to people',
 * the tabs Overview (the index) and Events (events), each at its own address.
 */
export default function UserProfile() {
  const { userId = '', '*': rest = '' } = useParams()
  const api = useApi()
  const paths = usePeoplePaths()
  const fetched = useFetch((signal) => api.profiles.user(paths.organization, userId, signal), [paths.organization, userId])
  const tab = rest.replace(/\/+$/, '')
  const tabs = [
    { to: paths.user(userId), label: T.userTabs.overview, end: true },
    { to: paths.userEvents(userId), label: T.userTabs.events, end: false },
  ]
  return (
    <ProfilePage fetched={fetched}>
      {(profile) => (
        <>
          <Header profile={profile} />
          <NavTabs label="User profile" tabs={tabs} />
          {tab === '' && <Overview profile={profile} organization={paths.organization} />}
          {tab === 'events' && <UserEvents organization={paths.organization} userId={profile.id} timezone={profile.timezone} />}
          {tab !== '' && tab !== 'events' && <ErrorPanel message="Page not found" />}
          {/* The location may be the address's place: the free IP data's credit (companies/IpDataAttribution). */}
          <footer className="border-t border-slate-100 pt-3">
            <IpDataAttribution />
          </footer>
        </>
      )}
    </ProfilePage>
  )
}
