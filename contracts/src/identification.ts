/**
 * Visitor identification and the admin area (spec part 1 §2, §7, §8;
 * docs/identification.md): the shapes of ids the identity callback and the
 * imports accept, the admin grids' page size, the jobs, and their texts.
 */

/** A universal person id: 5x5- and 32 digits (part 1 §2, the up_id filter's placeholder). */
export const UP_ID_PATTERN = /^5x5-\d{32}$/
/** A hashed e-mail: SHA-256 of the trimmed, lowercased address, as 64 hex digits (read case-insensitively, stored lowercase). */
export const HEM_PATTERN = /^[0-9a-f]{64}$/
/** The snippet's visitor id is a UUID today; any printable id up to this long is accepted. */
export const PUID_MAX_LENGTH = 200
const PUID_PATTERN = /^[\x21-\x7e]+$/

export const isUpId = (s: string): boolean => UP_ID_PATTERN.test(s)
/** The hashed e-mail as stored (lowercase), or undefined when it is not one. */
export function normalizeHem(s: string): string | undefined {
  const h = s.trim().toLowerCase()
  return HEM_PATTERN.test(h) ? h : undefined
}
export const isPuid = (s: string): boolean => s.length > 0 && s.length <= PUID_MAX_LENGTH && PUID_PATTERN.test(s)

/**
 * What the identity callback puts on the bus (topic 'identity-links') for the
 * identity worker: a puid linked to an up_id, a hashed e-mail, or both.
 */
export interface IdentityLinkRecord {
  puid: string
  up_id: string
  hem: string
  source: 'callback' | 'cookies'
  /** ClickHouse DateTime64(3) text, UTC. */
  linked_at: string
  /**
   * The organisation a signed callback was verified for; '' (or absent, in
   * records from before it existed) for an unsigned callback and a cookie import.
   */
  org_id?: string
}

/** The admin grids' page size (part 1 §9: 20 for all lists). */
export const ADMIN_PAGE_SIZE = 20

export const JOB_KINDS = [
  'import-cookies',
  'import-ip-to-company',
  'import-business-intents',
  'import-universal-table',
  'refresh-sessions',
  'refresh-pages-and-activities',
  'copy-pages-to-supabase',
] as const
export type JobKind = (typeof JOB_KINDS)[number]
export type JobStatus = 'running' | 'succeeded' | 'failed'

export interface JobError {
  line: number | null
  message: string
}

/** An admin job: an import, a refresh or the copy (docs/identification.md). */
export interface Job {
  id: string
  kind: JobKind
  status: JobStatus
  fileName: string | null
  startedAt: string
  finishedAt: string | null
  startedBy: string | null
  counts: Record<string, number>
  errors: JobError[]
  message: string
}

/** How a visit's person and company were found. */
export type PersonVia = 'callback' | 'identify'
export type CompanyVia = 'callback' | 'identify' | 'email_domain' | 'ip'

export const IDENTIFICATION_TEXT = {
  /** Part 1 §8's progress notices, by job (the screens show them; kept here once). */
  progress: {
    'import-cookies': 'Importing cookies...',
    'import-ip-to-company': 'Importing ip to company...',
    'import-business-intents': 'Importing business intents...',
    'refresh-sessions': 'Refreshing sessions and people...',
    'refresh-pages-and-activities': 'Refreshing pages and activities...',
    'copy-pages-to-supabase': 'Copying people and pages to supabase...',
  } as Record<Exclude<JobKind, 'import-universal-table'>, string>,
  callbackCompleted: 'HandleCallback completed',
  fileRequired: 'File must be provided',
  alreadyRunning: 'A job of this kind is already running',
  jobNotFound: 'Job not found',
  exportNotConfigured: 'EXPORT_DATABASE_URL is not set',
  invalidIpAddress: 'IP address must be a valid IPv4 or IPv6 address',
  invalidPage: 'Page must be a whole number from 1 to 1000000',
  bodyNotObject: 'The request body must be a JSON object',
  unknownOrg: 'orgId must be the id of an organization',
  noUniversalImport: 'No universal table import has run yet',
  upIdInvalid: 'up_id must be 5x5- followed by 32 digits',
} as const
