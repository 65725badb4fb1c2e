import type { IpRange } from './addresses.ts'
import type { Plan } from './catalog.ts'

/**
 * The demo world's shapes. Day numbers count whole UTC days from the first day
 * of the window (0) to its last (days − 1, today); negative days lie before the
 * window, which is how accounts and sign-ups from before it are described.
 */
export interface Company {
  index: number
  /** The Segment groupId. */
  id: string
  name: string
  domain: string
  industry: string
  country: string
  employees: number
  /** Annual revenue in USD. */
  revenue: number
  /** Customers have an account in the product; prospects only visit the website. */
  customer: boolean
  accountDay: number | null
  /** Plan when the window opens (null for prospects)… */
  basePlan: Plan | null
  /** …and when it closes, after the upgrades of `upgrades`. */
  plan: Plan | null
  upgrades: Array<{ day: number; from: Plan; to: Plan; personIndex: number }>
  /** Share of weekday desktop visits made from the office (the company's own addresses). */
  officeShare: number
  v4: IpRange
  v6: IpRange
}

export interface Device {
  kind: 'desktop' | 'mobile'
  anonymousId: string
  /** The snippet's first-party visitor id, sent in context.puid. */
  puid: string
  userAgent: string
  screen: { width: number; height: number; density: number }
}

export interface Person {
  index: number
  /** Ground-truth key, and the Segment userId once the person signs up. */
  id: string
  firstName: string
  lastName: string
  name: string
  email: string
  emailKind: 'business' | 'personal'
  role: string
  linkedinUrl: string | null
  /** null: an individual (freelancer, student) with no company. */
  companyIndex: number | null
  country: string
  timezone: string
  /** Standard UTC offset of `timezone`, in hours. */
  utcOffset: number
  locale: string
  /** The home connection's address (IPv4 or IPv6) from an 'isp' pool. */
  homeIp: string
  /** Which of the company's egress addresses this person's office traffic leaves from. */
  officePick: number
  devices: Device[]
  life: Lifecycle
}

export interface Lifecycle {
  /** Day the person signs up; null when not before the window ends. */
  signupDay: number | null
  /** The colleague whose invitation brought the person in. */
  invitedBy: number | null
  /** Days of anonymous research visits before signing up. */
  researchDays: number[]
  /** A prospect who fills in the demo form on this day (identifies without signing up). */
  demoDay: number | null
  /** After this day the person almost stops using the product. */
  churnDay: number | null
  /** Product sessions a weekday while active. */
  activity: number
  /** Marketing-site visits a weekday while not signed up. */
  interest: number
  /** The optional key events this person performs (see HABIT_EVENTS), each with the day of its first in-window use. */
  habits: Record<string, number>
  /** Day the person emits the conversion event (the planted rule's outcome), if ever. */
  conversionDay: number | null
  /** Features in order of preference (indices into FEATURES). */
  features: number[]
  /** Invitations this person sends: the invitee and the day. */
  invites: Array<{ personIndex: number; day: number }>
}

/**
 * A planted rule: people who perform every event of `given` convert (emit
 * `conversion`) with probability `rate`, everybody else with `baseRate`.
 * The AI-scoring issue measures whether a model recovers it.
 */
export interface PlantedRule {
  given: string[]
  conversion: 'Plan Upgraded'
  rate: number
  baseRate: number
}

export type SourceKind = 'snippet' | 'segment'

/** A Segment call as the demo sends it through @segment/analytics-node. */
export interface SegmentMessage {
  type: 'track' | 'page' | 'identify' | 'group'
  messageId: string
  /** ISO-8601 with milliseconds, UTC. */
  timestamp: string
  userId?: string
  anonymousId?: string
  event?: string
  name?: string
  category?: string
  properties?: Record<string, unknown>
  traits?: Record<string, unknown>
  groupId?: string
  context: Record<string, unknown>
}

/** Who really sent a message: what identification should find. */
export interface Truth {
  /** Person.id, or null for a one-off visitor nobody knows. */
  personId: string | null
  /** Company.id of the person's employer, or of the office a one-off visitor came from. */
  companyId: string | null
  /** Where the address came from: an 'office' address names the company; 'home' and 'mobile' never do. */
  network: 'office' | 'home' | 'mobile'
}

export interface DemoMessage {
  /** Which fl0 source sends it: the website snippet or the product's backend through Segment. */
  source: SourceKind
  message: SegmentMessage
  truth: Truth
}
