/**
 * The call shapes of docs/api-session-contract.md, from the contracts the
 * server validates with (contracts/src); nothing here is written twice.
 */
export type { AuthConfig, CurrentUser, Preferences, PreferencesPatch, UserOrg, LocalSignIn, LocalSignUp, MailedResponse, PasswordReset, PasswordResetRequest, TokenResponse, VerifyEmail } from '@fl0/contracts/auth'
export type { CreateOrgResponse } from '@fl0/contracts/orgs'
export type { TeamMember, InvitationView, AcceptInvitationResponse, Invite } from '@fl0/contracts/team'
export type { OrgSettings } from '@fl0/contracts/settings'
export type { CallbackSecretState } from '@fl0/contracts/callback'
export type {
  BusinessIntent,
  CompanyActivityDate,
  CompanyActivityUser,
  CompanyAnalytics,
  CompanyDetail,
  CompanyDetails,
  CompanyEvent,
  CompanyTrait,
  CompanyVisitor,
  CompanyVisitors,
  TopEvent,
  TopPage,
} from '@fl0/contracts/companies'
export type { FeatureDetail, FeatureList, FeatureSummary, KnownEvent, KnownEventList } from '@fl0/contracts/features'
export type { ParagonUser } from '@fl0/contracts/integrations'

/** POST and PATCH .../features[/{featureId}], as the feature modal sends them. */
export interface FeatureBody {
  name: string
  events: string[]
}
export type { CreateSourceBody, DataSourcesRecord, SegmentDefaults, SnippetDefaults, SourceMetrics, SourceView, UpdateSourceBody } from '@fl0/contracts/sources'

/** POST .../settings/save-settings, as sent (the server trims and drops blank paths again). */
export interface SaveSettingsBody {
  timezone: string
  companyPaths: string[]
}

export type { MetricCategories, MetricDefinition, MetricGraph, SaveMetric, StoredMetric } from '@fl0/contracts/metrics'

/** POST /api/orgs/{organization}/metrics: the new metric's id. */
export interface CreatedMetric {
  metricId: string
}

/** The shared look-ups (part 2 §7), as the lexicon contract has them. */
export type { AudienceTraits, TraitValues, PropertyPathList as EventPropertyList, PropertyValueList } from '@fl0/contracts/lexicon'

export type {
  EventProperty,
  FeatureSelections,
  LexiconEvent,
  LexiconEventList,
  LexiconPropertyList,
  LexiconTrait,
  LexiconTraitList,
  MappingEvent,
  MappingEventList,
  MappingSelections,
  PropertyType,
} from '@fl0/contracts/lexicon'

export type { FeatureQuery, FeatureQueryResult, Report, ReportSummary, SavedReport, SaveReport } from '@fl0/contracts/reports'

export type {
  CompanyFeatureAdoption,
  CompanyProfile,
  FeatureAdoption,
  FeatureUsage,
  PeopleList,
  PersonRow,
  ProfileEvent,
  ProfileEvents,
  ProfilePoint,
  ProfileTotal,
  ProfileTrait,
  ProfileTraitSetting,
  ProfileTraitType,
  StoredEventPayload,
  TopUser,
  UserProfile,
} from '@fl0/contracts/people'

/** Scoring (part 3 §3, §7): the calls' bodies and answers. */
export type {
  ActivityEvent,
  ActivityEvents,
  ActivityProperty,
  ActivityValue,
  BacktestPredictions,
  Correlation,
  CreatedScoringModel,
  CreateScoringModel,
  ExcludedAudience,
  LeakKind,
  ModelOutput,
  Rating,
  RatingLift,
  RatingQuality,
  RatingThresholds,
  SaveScoringSettings,
  ScoredUser,
  ScoringCheck,
  ScoringCheckRequest,
  ScoringMetric,
  ScoringModelDetail,
  ScoringModelList,
  ScoringModelQueued,
  ScoringModelRatings,
  ScoringModelSummary,
  ScoringRefresh,
  ScoringSettings,
  ScoringStatus,
  UserImages,
} from '@fl0/contracts/scoring'

/** Audiences (part 3 §3, §7): the filters, the calls' bodies and answers. */
export type { AudienceColumn, AudienceDetail, AudienceFilters, AudienceList, AudienceMatch, AudienceAction, AudienceResults, AudienceSummary, CreatedAudience, CreateAudience, UpdateAudience } from '@fl0/contracts/audiences'
