import { z } from 'zod'

/**
 * Sources (spec part 1 §3, §5, §7): a snippet on a website, or a Segment-type
 * pipeline. The messages are the specification's, word for word.
 */
export const SOURCE_DEFAULT_NAMES = { segment: 'segment', snippet: 'js-snippet' } as const

/** Trimmed: the name is shown in messages ('{name} added successfully') and on cards. */
export const sourceNameSchema = z
  .string({ error: 'Name must be provided' })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, 'Name must be provided')
  .refine((s) => s.length <= 99, 'Name must have less than 100 characters')

/** A site's domain as the snippet source records it: "www.example.com", no scheme. */
export const snippetDomainSchema = z
  .string({ error: 'Domain must be provided' })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, 'Domain must be provided')
  .refine((s) => s.length <= 299, 'Domain must have less than 300 characters')
  .refine((s) => !/^https?:\/\//i.test(s), 'Domain must not start with http:// or https://')
  .refine((s) => /^[^\s.]+(\.[^\s.]+)+$/.test(s), 'Domain must be valid (e.g. a www domain)')

export const saveDataSourcesSchema = z.object({ domain: snippetDomainSchema })

/** GET /api-v2/orgs/{organization}/data-sources */
export interface DataSourcesRecord {
  domain: string
  snippet: string
}

/** GET /api/t/snippet: defaults for a new snippet source. */
export interface SnippetDefaults {
  id: string
  snippet: string
  name: string
  url: string
  api_key: string
}

/**
 * The identifiers a new source is created with. GET /api/sources/segment and
 * GET /api/t/snippet hand them out before anything is stored, because the user
 * may copy the key (the snippet) before saving; the create call posts them back.
 * The server checks that they have the shape it generates (a UUID, a 32-character
 * URL-safe key) and that no source, live or deleted, has ever used them.
 */
export const SOURCE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const WRITE_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/

export const SOURCE_ERRORS = {
  invalidId: 'The source id is not one fl0 hands out',
  invalidApiKey: 'The API key is not one fl0 hands out',
  idTaken: 'This source id is already in use; open a new source again to get a fresh one',
  apiKeyTaken: 'This API key is already in use; open a new source again to get a fresh one',
  notFound: 'Source not found',
  invalidType: 'Type must be segment or snippet',
} as const

const sourceIdSchema = z.string({ error: SOURCE_ERRORS.invalidId }).regex(SOURCE_ID_PATTERN, SOURCE_ERRORS.invalidId)
const writeKeySchema = z.string({ error: SOURCE_ERRORS.invalidApiKey }).regex(WRITE_KEY_PATTERN, SOURCE_ERRORS.invalidApiKey)

/**
 * POST /api/orgs/{organization}/sources (part 1 §7): segment { id, type, name, apiKey };
 * snippet { id, type, name, url, apiKey }. id and apiKey may be left out (fresh ones are made).
 */
export const createSegmentSourceSchema = z.object({
  type: z.literal('segment'),
  id: sourceIdSchema.optional(),
  name: sourceNameSchema,
  apiKey: writeKeySchema.optional(),
})
export const createSnippetSourceSchema = z.object({
  type: z.literal('snippet'),
  id: sourceIdSchema.optional(),
  name: sourceNameSchema,
  url: snippetDomainSchema,
  apiKey: writeKeySchema.optional(),
})
export const createSourceSchema = z.discriminatedUnion('type', [createSegmentSourceSchema, createSnippetSourceSchema], {
  error: SOURCE_ERRORS.invalidType,
})
export type CreateSourceBody = z.input<typeof createSourceSchema>

/** PATCH /api/orgs/{organization}/sources/{sourceId}: segment { name }; snippet { name, url }. */
export const updateSegmentSourceSchema = z.object({ name: sourceNameSchema })
export const updateSnippetSourceSchema = z.object({ name: sourceNameSchema, url: snippetDomainSchema })
export type UpdateSourceBody = { name: string; url?: string }

/** The form's schemas: the same rules, named as the fields are. */
export const segmentFormSchema = updateSegmentSourceSchema
export const snippetFormSchema = updateSnippetSourceSchema

/** GET /api/sources/segment: defaults for a new Segment source. */
export interface SegmentDefaults {
  id: string
  name: string
  api_key: string
}

/**
 * A source as GET /api/orgs/{organization}/sources lists it (and GET …/{sourceId}
 * answers it). A snippet source also carries its domain, the code to paste, and
 * whether events from that domain (or a subdomain) have arrived through it.
 */
export interface SegmentSourceView {
  id: string
  type: 'segment'
  name: string
  api_key: string
  /**
   * Where a Segment workspace's Webhooks destination (or a RudderStack Webhook
   * destination) posts this source's events: {FL0_PUBLIC_URL, or the address
   * the dashboard was reached at}/v1/webhooks/{id}. Added by fl0; not in the spec.
   */
  webhook_url: string
  /** The destination's Shared Secret (64 hex characters): Segment signs each body with it. */
  webhook_secret: string
}
export interface SnippetSourceView {
  id: string
  type: 'snippet'
  name: string
  api_key: string
  url: string
  snippet: string
  detected: boolean
}
export type SourceView = SegmentSourceView | SnippetSourceView

/**
 * GET /api/orgs/{organization}/sources/{id}/metrics: all-time totals, and one
 * point per day (the organisation's time zone) of the last 30, days without
 * events as 0. unique_users counts people: each user_id once, and each
 * anonymous_id that never appears beside a user_id on this source once
 * (api/src/queries/sources/totals.ts).
 */
export interface SourceMetrics {
  total: number
  unique_users: number
  total_30d: Array<{ date: string; value: number }>
}

/**
 * The webhook of a Segment-type source (ingest/src/webhook.ts): under /v1, beside
 * the Tracking API it stands in for, so that whatever routes /v1/* to the ingest
 * role (a load balancer in a cluster) routes it too. The source id names the
 * source; the secret, never in the URL (it would sit in logs), proves the sender.
 */
export const WEBHOOK_PATH_PREFIX = '/v1/webhooks/'
export const webhookPath = (sourceId: string): string => `${WEBHOOK_PATH_PREFIX}${encodeURIComponent(sourceId)}`

/** Days in the per-source chart (part 1 §9). */
export const SOURCE_METRICS_DAYS = 30

/** The connections screens' texts (part 1 §2, §8), word for word. */
export const SOURCES_TEXT = {
  connectionsHeading: 'Connections',
  addSourceAction: 'Add source...',
  empty: 'You have 0 connections',
  emptyAction: 'Add Source',
  detected: 'Detected',
  notDetected: 'Not detected yet',
  performanceTab: 'Performance',
  propertiesTab: 'Properties',
  totalEvents: 'Total events',
  uniqueUsers: 'Unique users',
  eventsChart: 'Events (last 30 days)',
  deleteSource: 'Delete source',
  copySegmentKey: 'Segment Api Key',
  copySnippet: 'JS Snippet',
  segmentKeyCopied: 'Segment Api Key copied to clipboard',
  /** The webhook's copy buttons and notices, in the manner of the spec's two above (fl0's own). */
  copyWebhookUrl: 'Webhook URL',
  copyWebhookSecret: 'Webhook Secret',
  webhookUrlCopied: 'Webhook URL copied to clipboard',
  webhookSecretCopied: 'Webhook Secret copied to clipboard',
  snippetCopied: 'JS Snippet copied to clipboard',
  added: (name: string) => `${name} added successfully`,
  updated: (name: string) => `${name} saved`,
  deleted: (name: string) => `${name} has been deleted`,
  dataSourcesHeading: 'Data sources',
  scriptCopied: 'Script copied to clipboard',
} as const
