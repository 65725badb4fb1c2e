import type { Http } from './http.ts'
import type { HomeSummary } from '@fl0/contracts/home'
import { createAdminApi } from './admin.ts'
import { createScoringApi } from './scoring.ts'
import type {
  AcceptInvitationResponse,
  AuthConfig,
  CreateOrgResponse,
  CreateSourceBody,
  CurrentUser,
  DataSourcesRecord,
  Invite,
  InvitationView,
  LocalSignIn,
  LocalSignUp,
  MailedResponse,
  PasswordReset,
  PasswordResetRequest,
  VerifyEmail,
  OrgSettings,
  CallbackSecretState,
  Preferences,
  PreferencesPatch,
  SaveSettingsBody,
  SegmentDefaults,
  SnippetDefaults,
  SourceMetrics,
  SourceView,
  TeamMember,
  TokenResponse,
  UpdateSourceBody,
} from './types.ts'
import type { CompanyAnalytics, CompanyDetail, CompanyDetails, CompanyVisitors } from './types.ts'
import type { FeatureBody, FeatureDetail, FeatureList, KnownEventList, ParagonUser } from './types.ts'
import type { FeatureSelections, LexiconEventList, LexiconPropertyList, LexiconTraitList, MappingEventList, MappingSelections } from './types.ts'
import type { AudienceTraits, CreatedMetric, EventPropertyList, MetricCategories, MetricDefinition, MetricGraph, PropertyValueList, SaveMetric, StoredMetric, TraitValues } from './types.ts'
import type { FeatureQuery, FeatureQueryResult, Report, ReportSummary, SavedReport, SaveReport } from './types.ts'
import type { CompanyFeatureAdoption, CompanyProfile, PeopleList, ProfileEvents, ProfileTraitSetting, ProfileTraitType, StoredEventPayload, UserProfile } from './types.ts'

import type { AudienceDetail, AudienceFilters, AudienceList, AudienceResults, CreatedAudience, CreateAudience, UpdateAudience } from './types.ts'
const org = (code: string) => `/api/orgs/${encodeURIComponent(code)}`
const orgV2 = (code: string) => `/api-v2/orgs/${encodeURIComponent(code)}`
const audience = (code: string, id: string) => `${org(code)}/audiences/${encodeURIComponent(id)}`
const metric = (code: string, id: string) => `${org(code)}/metrics/${encodeURIComponent(id)}`
const eventProperties = (code: string, eventName: string) => `${org(code)}/events/${encodeURIComponent(eventName)}/properties`
const company = (code: string, domain: string) => `${orgV2(code)}/companies/${encodeURIComponent(domain)}`

/**
 * The one typed client every screen calls (docs/api-session-contract.md);
 * bodies and answers are typed by the zod contracts the server validates with.
 * GETs take the caller's AbortSignal (useFetch aborts them on refetch); the
 * rest go through the serial queue.
 */
export function createApi(http: Http) {
  return {
    http,
    /** The admin area (part 1 §7), in api/admin.ts. */
    admin: createAdminApi(http),
    /** AI scoring (part 3 §7 Scoring), in api/scoring.ts. */
    scoring: createScoringApi(http),
    auth: {
      config: (signal?: AbortSignal) => http.get<AuthConfig>('/api/auth/config', { signal }),
      localSignIn: (body: LocalSignIn) => http.post<TokenResponse>('/api/auth/local/sign-in', body),
      localSignUp: (body: LocalSignUp) => http.post<MailedResponse>('/api/auth/local/sign-up', body),
      verifyEmail: (body: VerifyEmail) => http.post<TokenResponse>('/api/auth/local/verify-email', body),
      requestPasswordReset: (body: PasswordResetRequest) => http.post<MailedResponse>('/api/auth/local/password-reset', body),
      resetPassword: (body: PasswordReset) => http.post<TokenResponse>('/api/auth/local/password-reset/confirm', body),
      signIn: (token: string) => http.post<{ user: CurrentUser }>('/api/sign-in', { token }),
      signOut: () => http.post<void>('/api/sign-out'),
    },
    me: {
      get: (signal?: AbortSignal) => http.get<CurrentUser>('/api/users/me', { signal }),
      savePreferences: (body: PreferencesPatch) => http.patch<{ preferences: Preferences }>('/api/users/me/preferences', body),
    },
    orgs: {
      create: (body: { name: string; variant: 'form' | 'modal' }) => http.post<CreateOrgResponse>('/api/orgs', body),
    },
    team: {
      list: (code: string, signal?: AbortSignal) => http.get<TeamMember[]>(`${org(code)}/users`, { signal }),
      invite: (code: string, body: Invite) => http.post<TeamMember>(`${org(code)}/users`, body),
      remove: (code: string, userId: string) => http.delete<void>(`${org(code)}/users/${encodeURIComponent(userId)}`),
    },
    invitations: {
      get: (token: string, signal?: AbortSignal) => http.get<InvitationView>(`/api/invitations/${encodeURIComponent(token)}`, { signal }),
      accept: (token: string) => http.post<AcceptInvitationResponse>(`/api/invitations/${encodeURIComponent(token)}/accept`),
    },
    settings: {
      get: (code: string, signal?: AbortSignal) => http.get<OrgSettings>(`${orgV2(code)}/settings`, { signal }),
      save: (code: string, body: SaveSettingsBody) => http.post<OrgSettings>(`${orgV2(code)}/settings/save-settings`, body),
      /** The identity callback's secret (not in the specification): whether there is one; a new one, shown once; none. */
      callbackSecret: (code: string, signal?: AbortSignal) => http.get<CallbackSecretState>(`${orgV2(code)}/settings/callback-secret`, { signal }),
      newCallbackSecret: (code: string) => http.post<CallbackSecretState>(`${orgV2(code)}/settings/callback-secret`),
      removeCallbackSecret: (code: string) => http.delete<CallbackSecretState>(`${orgV2(code)}/settings/callback-secret`),
    },
    companies: {
      /** The company page by domain, with its activity feed; then one call per tab. */
      get: (code: string, domain: string, signal?: AbortSignal) => http.get<CompanyDetail>(company(code, domain), { signal }),
      visitors: (code: string, domain: string, signal?: AbortSignal) => http.get<CompanyVisitors>(`${company(code, domain)}/visitors`, { signal }),
      analytics: (code: string, domain: string, signal?: AbortSignal) => http.get<CompanyAnalytics>(`${company(code, domain)}/analytics`, { signal }),
      details: (code: string, domain: string, signal?: AbortSignal) => http.get<CompanyDetails>(`${company(code, domain)}/details`, { signal }),
    },
    events: {
      /** The organisation's known track events, most frequent first; `search` narrows them by name. */
      list: (code: string, search = '', signal?: AbortSignal) => http.get<KnownEventList>(`${orgV2(code)}/events`, { query: { search: search || undefined }, signal }),
    },
    features: {
      list: (code: string, signal?: AbortSignal) => http.get<FeatureList>(`${orgV2(code)}/features`, { signal }),
      get: (code: string, id: string, signal?: AbortSignal) => http.get<FeatureDetail>(`${orgV2(code)}/features/${encodeURIComponent(id)}`, { signal }),
      create: (code: string, body: FeatureBody) => http.post<FeatureDetail>(`${orgV2(code)}/features`, body),
      update: (code: string, id: string, body: FeatureBody) => http.patch<FeatureDetail>(`${orgV2(code)}/features/${encodeURIComponent(id)}`, body),
      remove: (code: string, id: string) => http.delete<void>(`${orgV2(code)}/features/${encodeURIComponent(id)}`),
    },
    integrations: {
      /** A Paragon user token for the signed-in user, with the project and the SDK's address. */
      paragonUser: (code: string, signal?: AbortSignal) => http.get<ParagonUser>(`${orgV2(code)}/integrations/paragon-user`, { signal }),
    },
    sources: {
      list: (code: string, signal?: AbortSignal) => http.get<SourceView[]>(`${org(code)}/sources`, { signal }),
      get: (code: string, id: string, signal?: AbortSignal) => http.get<SourceView>(`${org(code)}/sources/${encodeURIComponent(id)}`, { signal }),
      metrics: (code: string, id: string, signal?: AbortSignal) => http.get<SourceMetrics>(`${org(code)}/sources/${encodeURIComponent(id)}/metrics`, { signal }),
      segmentDefaults: (signal?: AbortSignal) => http.get<SegmentDefaults>('/api/sources/segment', { signal }),
      snippetDefaults: (signal?: AbortSignal) => http.get<SnippetDefaults>('/api/t/snippet', { signal }),
      create: (code: string, body: CreateSourceBody) => http.post<SourceView>(`${org(code)}/sources`, body),
      update: (code: string, id: string, body: UpdateSourceBody) => http.patch<SourceView>(`${org(code)}/sources/${encodeURIComponent(id)}`, body),
      remove: (code: string, id: string) => http.delete<void>(`${org(code)}/sources/${encodeURIComponent(id)}`),
    },
    metrics: {
      categories: (code: string, signal?: AbortSignal) => http.get<MetricCategories>(`${org(code)}/metrics/category`, { signal }),
      get: (code: string, id: string, signal?: AbortSignal) => http.get<StoredMetric>(metric(code, id), { signal }),
      create: (code: string, body: SaveMetric) => http.post<CreatedMetric>(`${org(code)}/metrics`, body),
      update: (code: string, id: string, body: SaveMetric) => http.post<unknown>(metric(code, id), body),
      remove: (code: string, id: string) => http.delete<void>(metric(code, id)),
      /** The preview's query (part 2 §7): abortable, and not queued behind saves. */
      graph: (code: string, definition: MetricDefinition, signal?: AbortSignal) => http.post<MetricGraph>(`${orgV2(code)}/metrics/graph`, definition, { signal, queued: false }),
    },
    audiences: {
      /** Saved audiences (part 3 §7), by name, each with its members and companies counted now. */
      list: (code: string, signal?: AbortSignal) => http.get<AudienceList>(`${org(code)}/audiences`, { signal }),
      get: (code: string, id: string, signal?: AbortSignal) => http.get<AudienceDetail>(audience(code, id), { signal }),
      create: (code: string, body: CreateAudience) => http.post<CreatedAudience>(`${org(code)}/audiences`, body),
      /** Filters; or name, description and filters; or name and description. */
      update: (code: string, id: string, body: UpdateAudience) => http.patch<AudienceDetail>(audience(code, id), body),
      remove: (code: string, id: string) => http.delete<void>(audience(code, id)),
      /** The builder's preview: both tables' page and totals; abortable, and not queued behind saves. */
      preview: (code: string, filters: AudienceFilters, page: number, signal?: AbortSignal) =>
        http.post<AudienceResults>(`${org(code)}/audiences/filters`, { filters, page }, { signal, queued: false }),
    },
    lookups: {
      /** Shared look-ups (part 2 §7) behind the metric editor's pickers. */
      traits: (code: string, signal?: AbortSignal) => http.get<AudienceTraits>(`${org(code)}/audiences/traits`, { signal }),
      traitValues: (code: string, audienceType: string, trait: string, signal?: AbortSignal) =>
        http.get<TraitValues>(`${org(code)}/audiences/traits/${encodeURIComponent(audienceType)}/${encodeURIComponent(trait)}/values`, { signal }),
      eventProperties: (code: string, eventName: string, signal?: AbortSignal) => http.get<EventPropertyList>(eventProperties(code, eventName), { signal }),
      propertyValues: (code: string, eventName: string, path: string, signal?: AbortSignal) =>
        http.get<PropertyValueList>(`${eventProperties(code, eventName)}/${encodeURIComponent(path)}/values`, { signal }),
    },
    lexicon: {
      /** The data dictionary (part 2 §7): event names with their 30-day volume, an event's properties, the traits. */
      events: (code: string, signal?: AbortSignal) => http.get<LexiconEventList>(`${org(code)}/lexicon/events`, { signal }),
      properties: (code: string, eventName: string, signal?: AbortSignal) =>
        http.get<LexiconPropertyList>(`${org(code)}/lexicon/events/${encodeURIComponent(eventName)}/properties`, { signal }),
      traits: (code: string, signal?: AbortSignal) => http.get<LexiconTraitList>(`${org(code)}/lexicon/traits`, { signal }),
      mapping: (code: string, signal?: AbortSignal) => http.get<MappingSelections>(`${orgV2(code)}/lexicon/mapping`, { signal }),
      /** The whole selection, on every change (queued, so saves land in the order they were made). */
      saveMapping: (code: string, featureSelections: FeatureSelections) => http.post<MappingSelections>(`${orgV2(code)}/lexicon/mapping`, { featureSelections }),
      mappingEvents: (code: string, page: number, search: string, signal?: AbortSignal) =>
        http.get<MappingEventList>(`${orgV2(code)}/lexicon/mapping/events`, { query: { page, search: search || undefined }, signal }),
    },
    reports: {
      /** Custom reports (part 3 §7), most recently changed first. */
      list: (code: string, signal?: AbortSignal) => http.get<ReportSummary[]>(`${org(code)}/reports`, { signal }),
      get: (code: string, id: string, signal?: AbortSignal) => http.get<Report>(`${org(code)}/reports/${encodeURIComponent(id)}`, { signal }),
      /** Creates (no report_id) or changes the report; queued, so saves land in the order they were made. */
      save: (code: string, body: SaveReport) => http.post<SavedReport>(`${org(code)}/reports`, body),
      remove: (code: string, id: string) => http.delete<void>(`${org(code)}/reports/${encodeURIComponent(id)}`),
      /** One of the feature report's queries: sent ten at once, so not queued; abortable. */
      featureQuery: (code: string, featureId: string, query: FeatureQuery, signal?: AbortSignal) =>
        http.post<FeatureQueryResult>(`${orgV2(code)}/features/${encodeURIComponent(featureId)}/data/query`, query, { signal, queued: false }),
    },
    people: {
      /** The People table (part 3 §7): 20 a page; ip2company adds anonymous visitors; search (fl0's own) narrows by name, e-mail or company. */
      list: (code: string, page: number, ip2company: boolean, search: string, signal?: AbortSignal) =>
        http.get<PeopleList>(`${orgV2(code)}/people`, { query: { page, ip2company, search: search.trim() || undefined }, signal }),
      /** The same list whole, as a CSV file to download (a link's address: the browser's session cookie goes with it). */
      exportUrl: (code: string, ip2company: boolean, search: string) => {
        const query = new URLSearchParams({ ip2company: String(ip2company), ...(search.trim() ? { search: search.trim() } : {}) })
        return `${orgV2(code)}/people/export.csv?${query}`
      },
    },
    /** GET /api-v2/orgs/{organization}/home (contracts/home.ts): the organisation's home, in one call. */
    home: (code: string, signal?: AbortSignal) => http.get<HomeSummary>(`${orgV2(code)}/home`, { signal }),
    profiles: {
      /** The user and company profiles (part 3 §7 Profiles); userId is a user id or 'anon:' and an anonymous id, companyId a domain. */
      user: (code: string, userId: string, signal?: AbortSignal) => http.get<UserProfile>(`${org(code)}/people/${encodeURIComponent(userId)}`, { signal }),
      userEvents: (code: string, userId: string, page: number, signal?: AbortSignal) =>
        http.get<ProfileEvents>(`${orgV2(code)}/users/${encodeURIComponent(userId)}/profile/events`, { query: { page }, signal }),
      userEvent: (code: string, userId: string, messageId: string, signal?: AbortSignal) =>
        http.get<StoredEventPayload>(`${orgV2(code)}/users/${encodeURIComponent(userId)}/profile/events/${encodeURIComponent(messageId)}`, { signal }),
      company: (code: string, companyId: string, signal?: AbortSignal) => http.get<CompanyProfile>(`${org(code)}/company/${encodeURIComponent(companyId)}`, { signal }),
      /** A company's id (its group id, as an audience's Companies tab has it) to its domain, looked up in the organisation. */
      companyById: (code: string, id: string, signal?: AbortSignal) =>
        http.get<{ id: string | null; domain: string; name: string | null }>(`${orgV2(code)}/companies/by-id/${encodeURIComponent(id)}`, { signal }),
      featureAdoption: (code: string, companyId: string, signal?: AbortSignal) =>
        http.get<CompanyFeatureAdoption>(`${org(code)}/company/${encodeURIComponent(companyId)}/feature-adoption`, { signal }),
      traits: (code: string, type: ProfileTraitType, signal?: AbortSignal) => http.get<ProfileTraitSetting[]>(`${org(code)}/profile_traits/${type}`, { signal }),
      chooseTrait: (code: string, type: ProfileTraitType, body: ProfileTraitSetting) => http.post<ProfileTraitSetting[]>(`${org(code)}/profile_traits/${type}`, body),
    },
    dataSources: {
      get: (code: string, signal?: AbortSignal) => http.get<DataSourcesRecord>(`${orgV2(code)}/data-sources`, { signal }),
      save: (code: string, body: { domain: string }) => http.post<DataSourcesRecord>(`${orgV2(code)}/data-sources/save-data-sources`, body),
    },
  }
}

export type Api = ReturnType<typeof createApi>
