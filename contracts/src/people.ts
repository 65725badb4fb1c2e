import { z } from 'zod'

/**
 * People and profiles (spec part 3 §2 People, the user and company profiles,
 * §3 "Person in the people list", "User profile", "User events list",
 * "Company profile", "Feature adoption", "Profile trait visibility", §7
 * Profiles). The field names of §3 are kept as the specification has them;
 * where §7 says "response shapes … not shown", fl0 decides here, once, for the
 * api and the dashboard.
 *
 * Who a person is, and which company they belong to, is decided in one place:
 * query/src/people/identity.ts (people) and query/src/companies/members.ts
 * (companies). Times are ISO-8601 text in UTC; dates YYYY-MM-DD in the
 * organisation's time zone.
 */

/** The screens' texts, as the specification words them. */
export const PEOPLE_TEXT = {
  heading: 'People',
  tabs: { people: 'People', audiences: 'Audiences' },
  showAnonymous: 'Show anonymous users',
  emptyTitle: 'Waiting for event traffic',
  emptyText: 'Your customers will show here once we identify them',
  /** fl0's own: the search box over the people list, its empty result and the CSV download. */
  searchPlaceholder: 'Search name, e-mail or company...',
  noMatches: (search: string) => `No people match "${search}"`,
  exportCsv: 'Export CSV',
  /**
   * Who the list counts (fl0's own): people with a user id, as audiences count
   * them. The admin people table also counts, as identified, anonymous leads
   * who left an e-mail and visitors a partner's callback named: here they show
   * with 'Show anonymous users'.
   */
  whoIsCounted: "Signed-in people (a user id). Leads known only by an e-mail, and other visitors, show with 'Show anonymous users'.",
  whoIsCountedAnonymous: 'Everyone: signed-in people, leads known by an e-mail and anonymous visitors.',
  /** The user profile's feature lists when the organisation has defined no feature yet. */
  noFeaturesYet: 'No features yet: features group events into what your product offers.',
  createFeature: 'Create a feature',
  columns: { visitor: 'Visitor', company: 'Company', activity: 'Activity', role: 'Role', lastSeen: 'Last seen', employees: 'Employees', revenue: 'Revenue' },
  backToPeople: 'Back to people',
  userTabs: { overview: 'Overview', events: 'Events' },
  mostUsedFeatures: 'Most used features',
  leastUsedFeatures: 'Least used features',
  mostTriggeredEvents: 'Most triggered events',
  whoUsedItMost: 'Who used it most',
  eventColumns: { time: 'Time', event: 'Event', metrics: 'Metrics' },
  featureColumns: { feature: 'Feature', usage: 'Usage', users: 'Users', adoption: 'Adoption' },
  traits: 'Traits',
  /** part 3 §8: an event without a name. */
  unknown: 'Unknown',
  noEvents: 'No events found',
  noFeatures: 'No features found',
  noTraits: 'No traits found',
  /** A top list's empty row (part 3 §9: top lists show 10 rows, padded with '-'). */
  pad: '-',
  /** 404s: another organisation's ids answer the same. */
  userNotFound: (userId: string) => `User ${userId} not found`,
  eventNotFound: 'Event not found',
  companyNotFound: (domain: string) => `Company ${domain} not found`,
} as const

/** The people list's page size (part 3 §9 leaves it open; fl0's grids show 20, part 1 §9). */
export const PEOPLE_PAGE_SIZE = 20
/** The user's events list, a page at a time. */
export const PROFILE_EVENTS_PAGE_SIZE = 20
/** Top lists: 10 rows, padded with '-' on screen (part 3 §9). */
export const TOP_LIST_SIZE = 10
/**
 * The profiles' window: the features, events and users of the profiles, and
 * feature adoption, count the last 30 calendar days in the organisation's time
 * zone, today included (as the company page's 30 days). DAU is today, WAU the
 * last 7 days, MAU the last 30.
 */
export const PROFILE_WINDOW_DAYS = 30

/** A person of the people list (part 3 §3), plus their id and e-mail for the screen. */
export interface PersonRow {
  /** The person's key: their user id, or 'anon:' and the anonymous id of a visitor never linked to one. */
  id: string
  anonymous: boolean
  /** The name shown: name, else e-mail, else user id; 'Anonymous visitor' for an anonymous one without either. */
  visitor: string
  email: string | null
  company: string | null
  /** The domain of the person's company (the company page's address); null when none is known. */
  companyDomain: string | null
  /** Sessions at any time: a gap of more than 30 minutes between activity events starts a new one. */
  visits: number
  role: string | null
  /** The last activity (page, screen, track); null for someone only identified. */
  lastSeen: string | null
  employees: number | null
  revenue: number | null
  linkedInUrl: string | null
  hasBusinessEmail: boolean
  hasPersonalEmail: boolean
  hasHEM: boolean
}

/** GET /api-v2/orgs/{organization}/people?page&ip2company: most recently seen first. */
export interface PeopleList {
  totalUsers: number
  users: PersonRow[]
}

export const peopleQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  /** 'true' or '1': anonymous visitors too (the 'Show anonymous users' toggle). */
  ip2company: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  /** fl0's own: people whose name, e-mail or company contains it, case-insensitive (blank: everyone). */
  search: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim().slice(0, PEOPLE_SEARCH_MAX)),
})

/** The longest search text read; the rest is ignored. */
const PEOPLE_SEARCH_MAX = 200
/** The people list as CSV (GET …/people/export.csv?ip2company&search): every matching person, not a page. */
export const PEOPLE_CSV_COLUMNS = [
  'Id',
  'Visitor',
  'Email',
  'Company',
  'Company domain',
  'Visits',
  'Role',
  'Last seen',
  'Employees',
  'Revenue',
  'LinkedIn',
  'Business email',
  'Personal email',
  'Hashed email',
] as const

export const profileEventsQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) })

export type ProfileTraitValue = string | number | boolean | string[]

/** A trait as the profiles list them: nested objects flattened to dotted keys (address.city). */
export interface ProfileTrait {
  key: string
  value: ProfileTraitValue
}

export interface ProfilePoint {
  date: string
  value: number
}

/** A feature on the user profile: how often the person used it in the window. */
export interface FeatureUsage {
  featureId: string
  featureName: string
  /** Track calls of the feature's events. */
  usage: number
}

export interface ProfileTotal {
  name: string
  total: number
}

/** GET /api/orgs/{organization}/people/{userId} */
export interface UserProfile {
  id: string
  anonymous: boolean
  name: string
  email: string | null
  company: string | null
  companyDomain: string | null
  firstSeen: string | null
  lastSeen: string | null
  /** Where the person is: their events' latest context.location, else their address's place, else their time zone's city (as the company page's). */
  location: string | null
  traits: ProfileTrait[]
  /** Activity events (page, screen, track) per day of the window, oldest first, zero-filled. */
  graph: ProfilePoint[]
  /** At most 10, most used first; only features used in the window. */
  mostUsedFeatures: FeatureUsage[]
  /** At most 10, least used first; unused features (0) included. */
  leastUsedFeatures: FeatureUsage[]
  mostTriggeredEvents: ProfileTotal[]
  timezone: string
}

export interface ProfileEvent {
  timestamp: string
  /** A track's event name; a page's or screen's name, else its title, else its path; other calls their type; 'Unknown' when nameless. */
  event: string
  type: string
  messageId: string
  /** The saved metrics whose events name this event. */
  metricIds: string[]
}

/** GET /api-v2/orgs/{organization}/users/{userId}/profile/events?page: newest first. */
export interface ProfileEvents {
  events: ProfileEvent[]
  /** The metrics named by this page's events. */
  metrics: Array<{ metricId: string; name: string }>
  totalEvents: number
  page: number
}

/** GET …/profile/events/{messageId}: the stored row, JSON columns as objects. */
export type StoredEventPayload = Record<string, unknown>

export interface TopUser {
  id: string
  email: string | null
  name: string
  total: number
}

/** GET /api/orgs/{organization}/company/{companyId}, {companyId} being the company's domain. */
export interface CompanyProfile {
  domain: string
  name: string
  /** The logo service's address for the domain (FL0_LOGO_URL), as on the company page; null without one. */
  logoUrl: string | null
  firstSeen: string | null
  lastSeen: string | null
  /** The group's e-mail trait, else the first e-mail its people gave at the company's domain, else the first they gave at all. */
  email: string | null
  metadata: ProfileTrait[]
  dailyActiveUsers: number
  weeklyActiveUsers: number
  monthlyActiveUsers: number
  /** Per day of the window: the people active in the 30 days up to that day. The last point is monthlyActiveUsers. */
  monthlyActiveUsersGraph: ProfilePoint[]
  topUsers: TopUser[]
  topEvents: ProfileTotal[]
  timezone: string
}

export interface FeatureAdoption {
  featureId: string
  featureName: string
  /** Track calls of the feature's events by the company's people in the window. */
  usage: number
  /** The company's people who used it in the window. */
  users: number
  /** users / the company's active people in the window, in percent (0–100, one decimal); 0 with nobody active. */
  adoption: number
}

/** GET /api/orgs/{organization}/company/{companyId}/feature-adoption */
export interface CompanyFeatureAdoption {
  /** At most 10: most users first, then most usage; only features used in the window. */
  topFeatures: FeatureAdoption[]
  /** At most 10: fewest users first, unused features included. */
  lowestFeatures: FeatureAdoption[]
  activeUsers: number
  windowDays: number
}

/** Profile trait visibility (part 3 §3): which traits a profile's Traits card shows. */
export const PROFILE_TRAIT_TYPES = ['company', 'user'] as const
export type ProfileTraitType = (typeof PROFILE_TRAIT_TYPES)[number]

export interface ProfileTraitSetting {
  name: string
  hidden: boolean
}

export const PROFILE_TRAIT_NAME_MAX = 200
/** Settings an organisation keeps per profile type: far more than any Traits card lists. */
export const PROFILE_TRAIT_SETTINGS_MAX = 500

export const PROFILE_TRAIT_ERRORS = {
  nameRequired: 'Trait name must be provided',
  nameTooLong: `Trait name must have at most ${PROFILE_TRAIT_NAME_MAX} characters`,
  hidden: 'Hidden must be true or false',
  type: "Profile type must be 'company' or 'user'",
  tooMany: `At most ${PROFILE_TRAIT_SETTINGS_MAX} traits can be chosen`,
} as const

/**
 * What a Traits card shows before anyone chooses: the firmographics for a
 * company, who someone is for a user. Every other trait is hidden until added.
 */
export const DEFAULT_VISIBLE_TRAITS: Record<ProfileTraitType, readonly string[]> = {
  company: ['industry', 'employees', 'revenue', 'country', 'plan', 'website', 'createdAt'],
  user: ['email', 'role', 'company', 'plan', 'createdAt'],
}

/** POST /api/orgs/{organization}/profile_traits/{company|user} */
export const profileTraitSettingSchema = z.object({
  name: z
    .string({ error: PROFILE_TRAIT_ERRORS.nameRequired })
    .trim()
    .min(1, PROFILE_TRAIT_ERRORS.nameRequired)
    .max(PROFILE_TRAIT_NAME_MAX, PROFILE_TRAIT_ERRORS.nameTooLong),
  hidden: z.boolean({ error: PROFILE_TRAIT_ERRORS.hidden }),
})
