import type { FakerLocale } from './fake.ts'

/**
 * The fixed vocabulary of the demo world: countries, industries, roles, mail
 * providers. Everything random is drawn from these lists, so the data reads
 * like a real B2B product's and stays small enough to review.
 */
export interface Country {
  code: string
  weight: number
  faker: FakerLocale
  /** The browser's locale (context.locale). */
  locale: string
  /** IANA zone and its standard UTC offset in hours (DST is ignored: a demo needs plausible hours, not exact ones). */
  zones: ReadonlyArray<readonly [string, number]>
  tlds: readonly string[]
  freeMail: readonly string[]
}

export const COUNTRIES: readonly Country[] = [
  { code: 'US', weight: 46, faker: 'en_US', locale: 'en-US', zones: [['America/New_York', -5], ['America/Chicago', -6], ['America/Denver', -7], ['America/Los_Angeles', -8]], tlds: ['.com', '.com', '.com', '.io', '.co', '.ai'], freeMail: ['gmail.com', 'gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'hotmail.com'] },
  { code: 'GB', weight: 12, faker: 'en_GB', locale: 'en-GB', zones: [['Europe/London', 0]], tlds: ['.co.uk', '.com', '.io'], freeMail: ['gmail.com', 'outlook.com', 'hotmail.co.uk', 'btinternet.com', 'icloud.com'] },
  { code: 'DE', weight: 10, faker: 'de', locale: 'de-DE', zones: [['Europe/Berlin', 1]], tlds: ['.de', '.de', '.com', '.io'], freeMail: ['gmail.com', 'gmx.de', 'web.de', 't-online.de', 'outlook.de'] },
  { code: 'FR', weight: 6, faker: 'fr', locale: 'fr-FR', zones: [['Europe/Paris', 1]], tlds: ['.fr', '.com', '.io'], freeMail: ['gmail.com', 'orange.fr', 'free.fr', 'hotmail.fr', 'laposte.net'] },
  { code: 'NL', weight: 5, faker: 'nl', locale: 'nl-NL', zones: [['Europe/Amsterdam', 1]], tlds: ['.nl', '.com', '.io'], freeMail: ['gmail.com', 'ziggo.nl', 'outlook.com', 'kpnmail.nl'] },
  { code: 'CA', weight: 7, faker: 'en_CA', locale: 'en-CA', zones: [['America/Toronto', -5], ['America/Vancouver', -8]], tlds: ['.ca', '.com', '.io'], freeMail: ['gmail.com', 'outlook.com', 'yahoo.ca', 'icloud.com'] },
  { code: 'AU', weight: 6, faker: 'en_AU', locale: 'en-AU', zones: [['Australia/Sydney', 10], ['Australia/Melbourne', 10]], tlds: ['.com.au', '.com', '.io'], freeMail: ['gmail.com', 'outlook.com', 'bigpond.com', 'icloud.com'] },
  { code: 'IN', weight: 8, faker: 'en_IN', locale: 'en-IN', zones: [['Asia/Kolkata', 5.5]], tlds: ['.in', '.com', '.io', '.co.in'], freeMail: ['gmail.com', 'gmail.com', 'yahoo.co.in', 'outlook.com', 'rediffmail.com'] },
]

export const COUNTRY_BY_CODE: ReadonlyMap<string, Country> = new Map(COUNTRIES.map((c) => [c.code, c]))

/** Every free-mail domain of every country: an e-mail here names no company. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set(COUNTRIES.flatMap((c) => c.freeMail))

/** Industry, weight, and annual revenue per employee in USD (median). */
export const INDUSTRIES: ReadonlyArray<readonly [string, number, number]> = [
  ['Software', 22, 260_000],
  ['Financial Services', 9, 420_000],
  ['E-commerce', 9, 310_000],
  ['Marketing & Advertising', 8, 190_000],
  ['Healthcare', 6, 180_000],
  ['Education', 5, 120_000],
  ['Media & Publishing', 5, 210_000],
  ['Manufacturing', 6, 290_000],
  ['Logistics', 4, 230_000],
  ['Telecommunications', 3, 360_000],
  ['Consulting', 6, 200_000],
  ['Real Estate', 3, 320_000],
  ['Travel & Hospitality', 3, 150_000],
  ['Gaming', 4, 300_000],
  ['Nonprofit', 2, 80_000],
]

/** Company sizes: employee ranges and their weights (many small, few large). */
export const COMPANY_SIZES: ReadonlyArray<readonly [readonly [number, number], number]> = [
  [[2, 10], 18],
  [[11, 50], 30],
  [[51, 200], 26],
  [[201, 1000], 16],
  [[1001, 5000], 7],
  [[5001, 50000], 3],
]

export const PLANS = ['free', 'starter', 'pro', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** Monthly list price per plan in USD, for Plan Upgraded's mrr. */
export const PLAN_MRR: Record<Plan, number> = { free: 0, starter: 99, pro: 499, enterprise: 2500 }

/** Job title, weight, and whether the holder is likely to be the one who buys (signs up first). */
export const ROLES: ReadonlyArray<readonly [string, number, boolean]> = [
  ['Software Engineer', 12, false],
  ['Senior Software Engineer', 8, false],
  ['Engineering Manager', 4, true],
  ['CTO', 2, true],
  ['Product Manager', 10, true],
  ['Senior Product Manager', 5, true],
  ['Head of Product', 3, true],
  ['Product Designer', 5, false],
  ['UX Researcher', 2, false],
  ['Data Analyst', 8, false],
  ['Data Scientist', 4, false],
  ['Head of Data', 2, true],
  ['Marketing Manager', 6, true],
  ['Growth Marketer', 5, true],
  ['VP Marketing', 2, true],
  ['Account Executive', 5, false],
  ['Sales Development Representative', 4, false],
  ['VP Sales', 1, true],
  ['Customer Success Manager', 4, false],
  ['Operations Manager', 3, false],
  ['CEO', 2, true],
  ['Founder', 2, true],
]

/** Words for coined company names ("Brightlane Analytics", "Nimbusly"). */
export const NAME_STEMS = [
  'Bright', 'Blue', 'North', 'Silver', 'Quantum', 'Nimbus', 'Apex', 'Cedar', 'Harbor', 'Iron', 'Lumen', 'Maple', 'Nova',
  'Orbit', 'Pioneer', 'Red', 'Summit', 'Vertex', 'Willow', 'Zen', 'Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Falcon',
  'Granite', 'Helix', 'Indigo', 'Juniper', 'Kite', 'Lattice', 'Meridian', 'Nexus', 'Onyx', 'Prism', 'Quill', 'Radiant',
  'Sable', 'Tidal', 'Umber', 'Vivid', 'Wave', 'Xeno', 'Yonder', 'Zephyr',
] as const
export const NAME_ENDINGS = ['lane', 'path', 'stack', 'works', 'ly', 'io', 'labs', 'point', 'forge', 'loop', 'hub', 'bit', 'wise', 'field'] as const
export const NAME_SUFFIXES = ['', '', '', ' Labs', ' Technologies', ' Analytics', ' Group', ' Systems', ' Health', ' Commerce', ' Media', ' Partners'] as const
