/**
 * The company page (part 1 §2 "Company detail", §3 "Company (detail)" and
 * "Company activity", §7 GET /api-v2/orgs/{organization}/companies/{company}).
 * {company} is the company's domain (acme.com).
 *
 * The specification's shape is kept field for field: name, domain, visitors,
 * lastSeen, pageViews, graph, traits, and the activity feed `dates` (the feed
 * is "part of the company data", so it sits on the same object). fl0 adds what
 * the screen needs beside it (logoUrl, website, timezone, truncated). The other
 * tabs, whose content the specification does not show, have sub-routes of
 * their own, so each tab loads only when opened:
 *   …/companies/{company}/visitors   → CompanyVisitors
 *   …/companies/{company}/analytics  → CompanyAnalytics
 *   …/companies/{company}/details    → CompanyDetails
 *
 * Times are ISO-8601 text in UTC; dates are YYYY-MM-DD in the organisation's
 * time zone (its settings); durations are whole seconds.
 */

/** The screen's texts, as part 1 §2 names them. */
export const COMPANY_TEXT = {
  backToPeople: 'People',
  visitors30d: 'Visitors (30d)',
  lastSeen: 'Last seen',
  activity: 'Activity',
  past30Days: 'Past 30 days',
  traits: 'Traits',
  tabs: { intent: 'Intent', visitors: 'Visitors', analytics: 'Analytics', details: 'Company details' },
  /** 404 for a domain no event names as a company of the organisation. */
  notFound: (domain: string) => `Company ${domain} not found`,
  invalidDomain: 'Company must be a domain, e.g. acme.com',
} as const

/** The days the page covers: the company activity graph and the visitors window (part 1 §9). */
export const COMPANY_WINDOW_DAYS = 30

/** Trait data types, shown as icons (part 1 §3's icon groups that a company trait can have). */
export type TraitIcon = 'string' | 'number' | 'date' | 'boolean' | 'stringArray'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** A trait value's data type, as the company page's icons name it: the server's for company traits, the dashboard's for profiles. */
export function traitIcon(value: CompanyTrait['value']): TraitIcon {
  if (Array.isArray(value)) return 'stringArray'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? 'date' : 'string'
}

/** createdAt → 'Created at', employee_count → 'Employee count', address.city → 'Address city'. */
export function traitLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export interface CompanyTrait {
  /** The trait's key in the group call's traits (industry, employees…). */
  key: string
  icon: TraitIcon
  label: string
  value: string | number | boolean | string[]
}

export interface CompanyGraphPoint {
  date: string
  value: number
}

/** Activity, as the feed and time spent count it: identify, group and alias calls say who, not what. */
export type ActivityType = 'page' | 'screen' | 'track'

export interface CompanyEvent {
  time: string
  type: ActivityType
  /** A track's event name; a page's name, else its title, else its path. */
  name: string
  /** Seconds until the person's next event in the same session (see api/src/companies/sessions.ts). */
  timeSpent: number
  /** Pages: the path viewed. */
  path?: string
}

export interface CompanyActivityUser {
  /** The person: their user id, or 'anon:' and the anonymous id of someone not signed up. */
  id: string
  name: string
  email: string | null
  /** Seconds on the site that day. */
  timeSpentOnSite: number
  role: string | null
  /**
   * Where the person was that day: the place their events' context.location
   * names, else their address's place (DB-IP's city, region and country of
   * their latest located visit: "Cupertino, United States"), else their time
   * zone's city; null when none is known (api/src/companies/location.ts).
   */
  location: string | null
  /** The person's last event that day. */
  lastSeen: string
  /** Page views that day. */
  pageCount: number
  /** That day's events, oldest first. */
  events: CompanyEvent[]
}

export interface CompanyActivityDate {
  date: string
  /** Most recently seen first. */
  users: CompanyActivityUser[]
}

/** GET /api-v2/orgs/{organization}/companies/{company} */
export interface CompanyDetail {
  name: string
  domain: string
  /** The logo service's address for the domain (FL0_LOGO_URL); null when no service is configured. */
  logoUrl: string | null
  /** The group call's website trait, else https://{domain}. */
  website: string
  /** Distinct people of the company active in the last 30 days. */
  visitors: number
  /** The company's last activity, at any time; null if none. */
  lastSeen: string | null
  /** Page views in the last 30 days (the sum of `graph`). */
  pageViews: number
  /** Page views per day over the last 30 days, oldest first, zero-filled. */
  graph: CompanyGraphPoint[]
  /**
   * Firmographics from the company's group traits: the known ones, in a fixed
   * order; `location` is the place most of its people's addresses were seen
   * at when the group traits name none.
   */
  traits: CompanyTrait[]
  /** The activity feed of the last 30 days, newest date first. */
  dates: CompanyActivityDate[]
  /** The organisation's time zone, in which `date`s are counted. */
  timezone: string
  /** True when the feed holds only the newest events of a very busy window (counts are always complete). */
  truncated: boolean
  /** The 30 days' business intents of the domain (imported, docs/identification.md), newest first, then highest score; at most 100. */
  intents: BusinessIntent[]
}

/** A topic a company researches, with a partner's score (as imported; partners score 0–100), on a day (YYYY-MM-DD). */
export interface BusinessIntent {
  topic: string
  score: number
  date: string
}

export interface CompanyVisitor {
  id: string
  name: string
  email: string | null
  role: string | null
  /** As CompanyActivityUser's, over the 30 days. */
  location: string | null
  anonymous: boolean
  firstSeen: string
  lastSeen: string
  sessions: number
  pageViews: number
  /** Track calls. */
  events: number
  timeSpentOnSite: number
  /** The person's most viewed paths, most viewed first (at most 3). */
  topPages: Array<{ path: string; views: number }>
}

/** GET …/companies/{company}/visitors: the people active in the last 30 days, most recently seen first. */
export interface CompanyVisitors {
  visitors: CompanyVisitor[]
}

export interface TopPage {
  path: string
  title: string
  views: number
  visitors: number
}

export interface TopEvent {
  name: string
  count: number
  visitors: number
}

/** GET …/companies/{company}/analytics: the last 30 days, per day and in total. */
export interface CompanyAnalytics {
  pageViews: CompanyGraphPoint[]
  visitors: CompanyGraphPoint[]
  events: CompanyGraphPoint[]
  /** At most 10, most viewed first. */
  topPages: TopPage[]
  /** At most 10, most frequent first. */
  topEvents: TopEvent[]
}

/**
 * How fl0 knows that someone belongs to the company (query/src/companies/members.ts):
 * a group call, a business e-mail, or a visit resolved to the company by
 * visitor identification (query/src/identification/resolution.ts): its address's
 * range (ip), a callback-linked person (callback), an identified person's
 * universal record (identify).
 */
export type MembershipRule = 'group' | 'email' | 'ip' | 'callback' | 'identify'

/** GET …/companies/{company}/details: firmographics and where fl0 got them. */
export interface CompanyDetails {
  name: string
  domain: string
  website: string
  /** The Segment group ids whose traits name this domain. */
  groupIds: string[]
  identifiedBy: MembershipRule[]
  /** People fl0 links to the company, at any time. */
  knownPeople: number
  firstSeen: string | null
  lastSeen: string | null
  /** Every group trait, the known ones first (with `location` as on CompanyDetail). */
  traits: CompanyTrait[]
}
