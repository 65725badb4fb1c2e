import { randomUUID } from 'node:crypto'
import {
  chTime,
  EVENT_TYPES,
  findDuplicatePath,
  findUnstorableValue,
  INGEST_LIMITS,
  inTimeRange,
  parseCall,
  TIME_RANGE,
  toFieldErrors,
  type EventType,
  type FieldError,
  type IngestedEvent,
} from '@fl0/contracts'

/**
 * Validates one Segment call and turns it into the event that goes on the bus.
 * Pure apart from the clock and id source it is handed, so it is tested with toEqual.
 */
export interface Enrichment {
  orgId: string
  sourceId: string
  receivedAt: Date
  /** The client's address as the ingest resolved it (trusted proxies applied). */
  ip: string
  /** The request's User-Agent, used only when the call's context carries none and the caller is a browser. */
  browserUserAgent?: string
  /** The batch envelope's sentAt, context and integrations, merged into each item. */
  batch?: { sentAt?: string | null; context?: Record<string, unknown> | null; integrations?: Record<string, unknown> | null; dottedKey?: boolean }
  newMessageId?: () => string
  /** receivedAt as ClickHouse text, formatted once per request rather than once per batch item. */
  receivedAtText?: string
  /**
   * The call was forwarded by a pipeline (Segment's or RudderStack's webhook), which
   * already corrected its timestamp for the client's clock: the timestamp stands, and
   * its sentAt (the client's) is kept but not applied against fl0's receipt time,
   * which may be hours later when the pipeline retried.
   */
  forwarded?: boolean
}

export type Normalized = { ok: true; event: IngestedEvent } | { ok: false; errors: FieldError[] }

export function normalizeCall(type: string, raw: unknown, enrich: Enrichment, prefix = ''): Normalized {
  if (!EVENT_TYPES.includes(type as EventType)) {
    return fail(prefix, 'type', `must be one of ${EVENT_TYPES.join(', ')}`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(prefix, '', 'must be a JSON object')
  const parsed = parseCall(type as EventType, raw)
  if (!parsed.success) return { ok: false, errors: toFieldErrors(parsed.error, prefix) }
  const call = parsed.data as Record<string, any>
  const seen = { dottedKey: enrich.batch?.dottedKey ?? false }
  const unstorable = findUnstorableValue(call, prefix, seen)
  if (unstorable) return { ok: false, errors: [unstorable] }

  const userId = call.userId ?? ''
  const anonymousId = call.anonymousId ?? ''
  if (type === 'alias') {
    if (!userId) return fail(prefix, 'userId', 'must be provided on alias calls')
  } else if (!userId && !anonymousId) {
    return fail(prefix, 'userId', 'userId or anonymousId must be provided')
  }

  const context: Record<string, unknown> = { ...(enrich.batch?.context ?? {}), ...(call.options ?? {}), ...(call.context ?? {}) }
  const integrations = { ...(enrich.batch?.integrations ?? {}), ...(call.integrations ?? {}) }
  // Segment keeps an IP the client sent in context.ip; otherwise the connection's.
  const ip = typeof context.ip === 'string' && context.ip ? context.ip : enrich.ip
  if (ip) context.ip = ip
  const userAgent = typeof context.userAgent === 'string' ? context.userAgent : (enrich.browserUserAgent ?? '')
  if (userAgent && !context.userAgent) context.userAgent = userAgent

  const receivedAt = enrich.receivedAt
  const sentAt = call.sentAt ?? enrich.batch?.sentAt ?? null
  // The client's clock reading: Segment's libraries send it as timestamp; RudderStack's as
  // originalTimestamp, leaving timestamp to the server (its own computes it as fl0 does here).
  const originalTimestamp = call.timestamp ?? call.originalTimestamp ?? null
  const timestamp = correctedTimestamp(receivedAt, originalTimestamp, enrich.forwarded ? null : sentAt)
  if (!inTimeRange(timestamp.getTime())) {
    return fail(prefix, 'timestamp', `${TIME_RANGE.message} once corrected for the client's clock (receipt time − (sentAt − timestamp))`)
  }

  const isPage = type === 'page' || type === 'screen'
  let properties: Record<string, unknown> = isPage || type === 'track' ? (call.properties ?? {}) : {}
  if (isPage && call.category && properties.category === undefined) properties = { ...properties, category: call.category }

  // Page fields: context.page (every analytics.js call carries it), else a page call's own properties.
  const page = typeof context.page === 'object' && context.page !== null ? (context.page as Record<string, unknown>) : {}
  const pageProperties = type === 'page' ? properties : undefined

  // RudderStack's Python SDK sends an identify's traits in context.traits only; the call's own win.
  const contextTraits = type === 'identify' && isObject(context.traits) ? context.traits : {}
  const traits = type === 'identify' ? { ...contextTraits, ...(call.traits ?? {}) } : type === 'group' ? (call.traits ?? {}) : {}
  const duplicate =
    seen.dottedKey &&
    (findDuplicatePath(properties, [prefix, 'properties'].filter(Boolean).join('.')) ??
      findDuplicatePath(traits, [prefix, 'traits'].filter(Boolean).join('.')) ??
      findDuplicatePath(context, [prefix, 'context'].filter(Boolean).join('.')))
  if (duplicate) return { ok: false, errors: [duplicate] }

  // A forwarded event's timestamp is the forwarder's corrected one; its client's own reading is originalTimestamp.
  const forwardedOriginal = enrich.forwarded ? (call.originalTimestamp ?? originalTimestamp) : originalTimestamp

  const location = isObject(context.location) ? context.location : undefined
  // Key order matters: see IngestedEvent.
  const event: IngestedEvent = {
    org_id: enrich.orgId,
    message_id: call.messageId ?? (enrich.newMessageId ?? randomUUID)(),
    timestamp: chTime(timestamp),
    source_id: enrich.sourceId,
    type: type as EventType,
    event: type === 'track' ? call.event : '',
    name: isPage ? (call.name ?? '') : '',
    user_id: userId,
    anonymous_id: anonymousId,
    group_id: type === 'group' ? call.groupId : '',
    previous_id: type === 'alias' ? call.previousId : '',
    original_timestamp: forwardedOriginal ? chTime(new Date(clientTime.parse(forwardedOriginal))) : null,
    sent_at: sentAt ? sentAtTime.chText(sentAt) : null,
    received_at: enrich.receivedAtText ?? chTime(receivedAt),
    ip,
    user_agent: userAgent,
    page_url: pageField(page, pageProperties, 'url'),
    page_path: pageField(page, pageProperties, 'path'),
    page_referrer: pageField(page, pageProperties, 'referrer'),
    page_title: pageField(page, pageProperties, 'title'),
    page_search: pageField(page, pageProperties, 'search'),
    properties,
    traits,
    context,
    integrations: JSON.stringify(integrations),
    context_city: placeText(location?.city),
    context_region: placeText(location?.region),
    context_country: placeText(location?.country),
    context_timezone: placeText(context.timezone),
  }
  return { ok: true, event }
}

/** A context field as the events' context_* columns hold it (IngestedEvent). */
function placeText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value)
}

/**
 * Segment's clock-skew correction: the client's clock may be off, but the time
 * between its timestamp and its sentAt is right, so
 *   timestamp = receivedAt − (sentAt − timestamp).
 * Without sentAt the client's timestamp stands; without a timestamp, receivedAt.
 */
export function correctedTimestamp(receivedAt: Date, timestamp: string | null, sentAt: string | null): Date {
  if (!timestamp) return receivedAt
  const ts = clientTime.parse(timestamp)
  if (!sentAt) return new Date(ts)
  return new Date(receivedAt.getTime() - (sentAtTime.parse(sentAt) - ts))
}

/**
 * A time text read once for the several uses of one call (its correction, its
 * original_timestamp), and a batch's sentAt once for all its items: the last
 * text each was asked for, and what it gave.
 */
class LastTime {
  private text: string | undefined
  private ms = Number.NaN
  private ch: string | null = null

  parse(text: string): number {
    if (text !== this.text) {
      this.text = text
      this.ms = Date.parse(text)
      this.ch = null
    }
    return this.ms
  }

  /** The time as ClickHouse text. */
  chText(text: string): string {
    const ms = this.parse(text)
    return (this.ch ??= chTime(new Date(ms)))
  }
}

const clientTime = new LastTime()
const sentAtTime = new LastTime()

/**
 * Is this batch item over the per-event limit, measured on the item as received?
 * Serialising every item to measure it would cost as much as validating it, so
 * the exact measure is taken only when the record fl0 built from it (which holds
 * all of the item's known fields) is near the limit. Unknown top-level fields are
 * dropped by validation and stored nowhere, so they cannot hide a large event.
 */
export function itemTooLarge(raw: unknown, record: string): boolean {
  if (record.length * 3 < INGEST_LIMITS.eventBytes - 2048) return false
  return Buffer.byteLength(JSON.stringify(raw) ?? '') > INGEST_LIMITS.eventBytes
}

/** A page field: context.page's, else (on page calls) the call's own property of that name; text only. Not a closure: every call would name one anew. */
function pageField(page: Record<string, unknown>, pageProperties: Record<string, unknown> | undefined, key: string): string {
  const value = page[key] ?? pageProperties?.[key]
  return typeof value === 'string' ? value : ''
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function fail(prefix: string, name: string, message: string): Normalized {
  return { ok: false, errors: [{ name: [prefix, name].filter(Boolean).join('.') || 'body', message }] }
}
