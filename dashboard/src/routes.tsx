import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react'
import { Outlet, type RouteObject } from 'react-router'
import { RequireUser } from './session/RequireUser.tsx'
import { OrgLayout, type RouteHandle } from './shell/OrgLayout.tsx'
import { OrgHome } from './screens/orgs/OrgHome.tsx'
import { OrgRoot } from './screens/orgs/OrgRoot.tsx'
import { Placeholder } from './screens/Placeholder.tsx'
import { Spinner } from './ui/Spinner.tsx'

/** Every screen is its own chunk, loaded when first opened (the first load stays small). */
function screen(component: LazyExoticComponent<ComponentType>) {
  const Screen = component
  return (
    <Suspense fallback={<Spinner />}>
      <Screen />
    </Suspense>
  )
}

const SignIn = lazy(() => import('./screens/account/SignIn.tsx'))
const SignUp = lazy(() => import('./screens/account/SignUp.tsx'))
const Callback = lazy(() => import('./screens/account/Callback.tsx'))
const VerifyEmail = lazy(() => import('./screens/account/VerifyEmail.tsx'))
const ForgotPassword = lazy(() => import('./screens/account/ForgotPassword.tsx'))
const ResetPassword = lazy(() => import('./screens/account/ResetPassword.tsx'))
const AcceptInvitation = lazy(() => import('./screens/invitations/AcceptInvitation.tsx'))
const SettingsPage = lazy(() => import('./screens/settings/SettingsPage.tsx'))
const CompanyPage = lazy(() => import('./screens/companies/CompanyPage.tsx'))
const FeaturesPage = lazy(() => import('./screens/features/FeaturesPage.tsx'))
const IntegrationsPage = lazy(() => import('./screens/integrations/IntegrationsPage.tsx'))
const ConnectionsPage = lazy(() => import('./screens/connections/ConnectionsPage.tsx'))
const DataSourcesPage = lazy(() => import('./screens/data-sources/DataSourcesPage.tsx'))
const LexiconPage = lazy(() => import('./screens/lexicon/LexiconPage.tsx'))
const MetricsRoutes = lazy(() => import('./screens/metrics/MetricsRoutes.tsx'))
const ReportsRoutes = lazy(() => import('./screens/reports/ReportsRoutes.tsx'))
const ScoringRoutes = lazy(() => import('./screens/scoring/ScoringRoutes.tsx'))
const PeopleArea = lazy(() => import('./screens/people/PeopleArea.tsx'))
const PeopleTab = lazy(() => import('./screens/people/PeopleTab.tsx'))
const PeopleNotFound = lazy(() => import('./screens/people/PeopleNotFound.tsx'))
const UserProfile = lazy(() => import('./screens/profiles/UserProfile.tsx'))
const CompanyProfile = lazy(() => import('./screens/profiles/CompanyProfile.tsx'))
const AudienceList = lazy(() => import('./screens/audiences/AudienceList.tsx'))
const AudienceEditor = lazy(() => import('./screens/audiences/AudienceEditor.tsx'))
const AdminLayout = lazy(() => import('./screens/admin/AdminLayout.tsx'))
const AdminTools = lazy(() => import('./screens/admin/ToolsPage.tsx'))
const AdminPeopleTable = lazy(() => import('./screens/admin/PeopleTablePage.tsx'))
const AdminUniversalTable = lazy(() => import('./screens/admin/UniversalTablePage.tsx'))
const AdminPagesTable = lazy(() => import('./screens/admin/PagesTablePage.tsx'))
const AdminIdentifiedVisitsTable = lazy(() => import('./screens/admin/IdentifiedVisitsTablePage.tsx'))
const AdminIpToCompanyTable = lazy(() => import('./screens/admin/IpToCompanyTablePage.tsx'))
const AdminHandleCallback = lazy(() => import('./screens/admin/HandleCallbackPage.tsx'))
const AdminSummary = lazy(() => import('./screens/admin/SummaryPage.tsx'))
const NotFound = lazy(() => import('./screens/NotFound.tsx'))

/**
 * The route groups of the specification (part 3 §2) under
 * /organizations/{organization}. A group whose screens have not landed shows
 * its heading, as the spec names it.
 */
export const ORG_ROUTE_GROUPS = [
  { path: 'people', heading: 'People' },
  { path: 'companies', heading: 'Company' },
  { path: 'integrations', heading: 'Integrations' },
  { path: 'data-sources', heading: 'Data sources' },
  { path: 'reports', heading: 'Reports' },
  { path: 'scoring', heading: 'AI Scoring Models' },
  { path: 'people-ai', heading: 'People' },
  { path: 'metrics', heading: 'Metrics' },
  { path: 'features', heading: 'Your features' },
  { path: 'connections', heading: 'Connections' },
  { path: 'lexicon', heading: 'Lexicon' },
] as const

/** The groups whose screens have landed; the others show their Placeholder. */
const ORG_SCREENS: Partial<Record<(typeof ORG_ROUTE_GROUPS)[number]['path'], ReactElement>> = {
  connections: screen(ConnectionsPage),
  'data-sources': screen(DataSourcesPage),
  features: screen(FeaturesPage),
  integrations: screen(IntegrationsPage),
  lexicon: screen(LexiconPage),
  metrics: screen(MetricsRoutes),
  reports: screen(ReportsRoutes),
  scoring: screen(ScoringRoutes),
}

/**
 * people/* and people-ai/* (part 3 §2): one set of screens, mounted twice;
 * links inside stay in the mount they start from (screens/people/paths.ts).
 *
 * What the People tab holds: the area has the tabs People and Audiences.
 * The People tab is the index, people/: where the menu's People and the
 * company page's back link lead. It is the audience builder with no saved
 * audience (the specification's "people/ (index)"): its filters first, above
 * the fold, so segmenting is where one starts; below them the people they take
 * in, which with no filter set is the People table, the list a user comes for,
 * and once a filter is set the builder's preview in its place (never both, so
 * no one is listed twice). 'Create audience...' makes it a saved audience at
 * people/audiences/{audienceId}. The Audiences tab lists the saved ones. The
 * audience editor and the profiles are pages of their own, each with its way
 * back.
 *
 * Owners: the table and the profiles are screens/people and screens/profiles;
 * the builder, the audiences list and the editor are screens/audiences.
 */
const PEOPLE_ROUTES: RouteObject[] = [
  {
    element: screen(PeopleArea),
    children: [
      // The audience builder with no saved audience, its result the People table until a filter is set (screens/people/PeopleTab.tsx).
      { index: true, element: screen(PeopleTab) },
      { path: 'audiences', element: screen(AudienceList) },
    ],
  },
  { path: 'audiences/:audienceId', element: screen(AudienceEditor) },
  { path: 'users/:userId/*', element: screen(UserProfile) },
  { path: 'companies/:companyId', element: screen(CompanyProfile) },
  { path: '*', element: screen(PeopleNotFound) },
]

/** Groups whose screens are nested routes of their own (the others are one element at {group}/*). */
const ORG_NESTED: Partial<Record<(typeof ORG_ROUTE_GROUPS)[number]['path'], RouteObject[]>> = {
  people: PEOPLE_ROUTES,
  'people-ai': PEOPLE_ROUTES,
}

/** The admin area's sub-routes (part 1 §2); each screen is in screens/admin. */
const ADMIN_SCREENS: Array<[string, ReactElement]> = [
  ['people-table', screen(AdminPeopleTable)],
  ['universal-table', screen(AdminUniversalTable)],
  ['pages-table', screen(AdminPagesTable)],
  ['identified-visits-table', screen(AdminIdentifiedVisitsTable)],
  ['ip-to-company-table', screen(AdminIpToCompanyTable)],
  ['handle-callback', screen(AdminHandleCallback)],
  ['summary', screen(AdminSummary)],
]

export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    children: [
      { path: 'account/sign-in', element: screen(SignIn) },
      { path: 'account/sign-up', element: screen(SignUp) },
      { path: 'account/callback', element: screen(Callback) },
      { path: 'account/verify-email', element: screen(VerifyEmail) },
      { path: 'account/forgot-password', element: screen(ForgotPassword) },
      { path: 'account/reset-password', element: screen(ResetPassword) },
      { path: 'invitations/:token', element: screen(AcceptInvitation) },
      {
        element: <RequireUser />,
        children: [
          { index: true, element: <OrgRoot /> },
          { path: 'organizations', element: <OrgRoot /> },
          {
            path: 'organizations/:organization',
            element: <OrgLayout />,
            children: [
              { index: true, element: <OrgHome /> },
              // The company page by domain, its tabs as sub-paths (screens/companies/tabs.ts); 'companies' alone keeps its heading.
              { path: 'companies/:company/*', element: screen(CompanyPage) },
              ...ORG_ROUTE_GROUPS.map((g): RouteObject => {
                const nested = ORG_NESTED[g.path]
                return nested ? { path: g.path, children: nested } : { path: `${g.path}/*`, element: ORG_SCREENS[g.path] ?? <Placeholder heading={g.heading} /> }
              }),
              { path: 'settings/*', handle: { hideMenu: true } satisfies RouteHandle, element: screen(SettingsPage) },
            ],
          },
          {
            path: 'admin',
            element: screen(AdminLayout),
            children: [
              { index: true, element: screen(AdminTools) },
              ...ADMIN_SCREENS.map(([path, element]) => ({ path, element })),
            ],
          },
        ],
      },
      { path: '*', element: screen(NotFound) },
    ],
  },
]
