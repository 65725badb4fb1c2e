import { z } from 'zod'

/**
 * The Segment HTTP Tracking API, as fl0 accepts it.
 * Reference: Segment's "HTTP Tracking API" (track, identify, page, screen, group,
 * alias, batch, import). Field names and shapes follow it; where Segment is lenient
 * and fl0 is strict, the rule is written beside the field.
 */
export const INGEST_LIMITS = {
  /** Segment: "32KB per call". Measured on the item's JSON, as received. */
  eventBytes: 32 * 1024,
  /**
   * Segment says "500KB per batch request"; RudderStack's SDKs fill batches up to
   * 4 MB (rudder-sdk-python's BATCH_SIZE_LIMIT), and Segment's Webhooks (Actions)
   * batch 1,000 events by default. A batch over the limit is refused whole, valid
   * events and all, so the limit is the larger one.
   */
  batchBytes: 4 * 1024 * 1024,
  /** Segment: "2500 events per batch". */
  batchItems: 2500,
} as const

/**
 * How long the ingest tells clients to wait (Retry-After) while the disk is too full to take events: the bus's
 * floor of free space (@fl0/stores' DiskFullError) and a write the disk had no room for alike.
 */
export const DISK_FULL_RETRY_AFTER_SECONDS = 30

export const EVENT_TYPES = ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const
export type EventType = (typeof EVENT_TYPES)[number]

/**
 * Ids: Segment documents strings; many server libraries send numeric ids, so a
 * number is accepted and stored as its decimal string. null means "absent", as
 * analytics.js sends `userId: null` for anonymous visitors.
 */
const id = z
  .union([z.string().max(1024, 'must have at most 1024 characters'), z.number().finite()], {
    error: 'must be a string or a number',
  })
  .transform((v) => String(v))
  .nullish()

/**
 * Objects are checked for being objects, not walked key by key: their contents
 * are free-form by Segment's design, and ingest is the hot path.
 */
const object = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { error: 'must be a JSON object' },
)

/**
 * The times the events table stores: its DateTime64(3) columns hold 1900-01-01
 * to 2299-12-31 (ClickHouse's documented range). A time outside it is refused
 * at the edge: stored, it would be clamped or refused, and the writer's own
 * arithmetic on it (chTime of year 10000 is "+010000-…") broke every insert.
 */
export const TIME_RANGE = {
  minMs: Date.UTC(1900, 0, 1),
  maxMs: Date.UTC(2300, 0, 1) - 1,
  message: 'must be a date between 1900-01-01 and 2299-12-31',
} as const

export function inTimeRange(ms: number): boolean {
  return ms >= TIME_RANGE.minMs && ms <= TIME_RANGE.maxMs
}

/** ISO-8601 dates as Segment sends them; anything Date.parse cannot read is rejected, and so is a time the store cannot hold. */
const date = z
  .string({ error: 'must be an ISO-8601 date string' })
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be an ISO-8601 date string', abort: true })
  .refine((s) => inTimeRange(Date.parse(s)), TIME_RANGE.message)

const common = {
  userId: id,
  anonymousId: id,
  context: object.nullish(),
  integrations: object.nullish(),
  messageId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must have at most 200 characters').nullish(),
  timestamp: date.nullish(),
  /** RudderStack's name for the client's clock reading (its server computes timestamp); used when timestamp is absent. */
  originalTimestamp: date.nullish(),
  sentAt: date.nullish(),
  writeKey: z.string({ error: 'must be a string' }).nullish(),
  /** Segment's legacy alias of context.*, kept for old clients. */
  options: object.nullish(),
}

const eventName = z
  .string({ error: 'must be provided on track calls' })
  .trim()
  .min(1, 'must be provided on track calls')
  .max(200, 'must have at most 200 characters')

const name = z.string({ error: 'must be a string' }).max(500, 'must have at most 500 characters').nullish()

export const trackSchema = z.object({ ...common, event: eventName, properties: object.nullish() })
export const identifySchema = z.object({ ...common, traits: object.nullish() })
export const pageSchema = z.object({ ...common, name, category: name, properties: object.nullish() })
export const screenSchema = z.object({ ...common, name, category: name, properties: object.nullish() })
export const groupSchema = z.object({
  ...common,
  groupId: z
    .union([z.string().min(1, 'must be provided on group calls'), z.number()], { error: 'must be provided on group calls' })
    .transform(String),
  traits: object.nullish(),
})
export const aliasSchema = z.object({
  ...common,
  previousId: z
    .union([z.string().min(1, 'must be provided on alias calls'), z.number()], { error: 'must be provided on alias calls' })
    .transform(String),
})

export const schemaByType = {
  track: trackSchema,
  identify: identifySchema,
  page: pageSchema,
  screen: screenSchema,
  group: groupSchema,
  alias: aliasSchema,
} as const

export type TrackCall = z.output<typeof trackSchema>
export type IdentifyCall = z.output<typeof identifySchema>
export type PageCall = z.output<typeof pageSchema>
export type GroupCall = z.output<typeof groupSchema>
export type AliasCall = z.output<typeof aliasSchema>
export type AnyCall = z.output<(typeof schemaByType)[EventType]> & Partial<{
  event: string
  name: string | null
  category: string | null
  properties: Record<string, unknown> | null
  traits: Record<string, unknown> | null
  groupId: string
  previousId: string
}>

export const batchEnvelopeSchema = z.object({
  batch: z
    .array(z.unknown(), { error: 'must be an array of events' })
    .min(1, 'must hold at least one event')
    .max(INGEST_LIMITS.batchItems, `must hold at most ${INGEST_LIMITS.batchItems} events`),
  context: object.nullish(),
  integrations: object.nullish(),
  writeKey: z.string({ error: 'must be a string' }).nullish(),
  sentAt: date.nullish(),
})

/**
 * One event as it travels on the bus, which is also the row the event writer
 * stores in `events` (clickhouse/0001_events.sql): validated, enriched and
 * attributed to its organisation and source.
 *
 * On the bus it is a JSON array of these values in EVENT_ROW_COLUMNS' order
 * (event-row.ts). The first three keys stay in this order: the event writer
 * reads org_id, message_id and timestamp off the front of the serialised record
 * (an array's, or an object's as fl0 wrote them before) and passes the rest to
 * ClickHouse without parsing it.
 */
export interface IngestedEvent {
  org_id: string
  message_id: string
  /** ClickHouse DateTime64(3) text in UTC, corrected for the client's clock when sentAt was given. */
  timestamp: string
  source_id: string
  type: EventType
  /** track: the event name; otherwise empty. */
  event: string
  /** page and screen: their name; otherwise empty. */
  name: string
  user_id: string
  anonymous_id: string
  group_id: string
  previous_id: string
  original_timestamp: string | null
  sent_at: string | null
  received_at: string
  ip: string
  user_agent: string
  page_url: string
  page_path: string
  page_referrer: string
  page_title: string
  page_search: string
  properties: Record<string, unknown>
  traits: Record<string, unknown>
  context: Record<string, unknown>
  /** Kept as JSON text: nothing queries inside it. */
  integrations: string
  /**
   * Where the call says it came from: context.location's city, region and
   * country, and context.timezone, as text (query/src/context.ts's
   * contextText: a string as it is, a number or boolean as written, '' when
   * absent or null). Columns of their own (clickhouse/0013), so that places
   * are read without the contexts. The ingest writes them; a row without them
   * gets them from its context when stored.
   */
  context_city?: string
  context_region?: string
  context_country?: string
  context_timezone?: string
}

/** A Date as ClickHouse's DateTime64(3) text, in UTC: "2026-03-01 12:00:00.000". */
export function chTime(date: Date): string {
  const year = date.getUTCFullYear()
  // Years of four digits from the fields (a third of toISOString's cost, and every event is stamped twice); others as ISO text, which throws for an invalid date as before.
  if (!(year >= 1000 && year <= 9999)) return date.toISOString().slice(0, 23).replace('T', ' ')
  const ms = date.getUTCMilliseconds()
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}`
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
