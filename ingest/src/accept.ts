import type { Context } from 'hono'
import { batchEnvelopeSchema, DISK_FULL_RETRY_AFTER_SECONDS, eventRecordText, findUnstorableValue, INGEST_LIMITS, toFieldErrors, type FieldError, type IngestedEvent } from '@fl0/contracts'
import { itemTooLarge, normalizeCall, type Enrichment } from './normalize.ts'
import { ingestError } from './errors.ts'

/**
 * What /v1/* and the webhooks share once a call is authenticated: validating
 * calls into bus records, and publishing them with the answer Segment's clients
 * expect. One place, so that the two ways in cannot drift apart.
 */
/** A bus message: the event's row as JSON (eventRecordText), and the event itself for consumers in this process (BusMessage.record). */
export type BusRecord = { key: string; value: string; record?: IngestedEvent }
export type Rejected = { index: number; messageId: string | null; errors: FieldError[] }
export type Publish = (records: BusRecord[]) => Promise<void>
type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }

/**
 * The bus record of an event, keyed by organisation and user so one user's
 * events keep their order. The value checks in normalizeCall bound what
 * JSON.stringify is handed (nesting, numbers), so this cannot throw for any
 * accepted call; it is caught all the same, so that one item can never fail
 * its whole batch.
 */
export function busRecord(event: IngestedEvent, prefix = ''): { ok: true; record: BusRecord } | { ok: false; error: FieldError } {
  try {
    return { ok: true, record: { key: `${event.org_id}:${event.user_id || event.anonymous_id}`, value: eventRecordText(event), record: event } }
  } catch (error) {
    return { ok: false, error: { name: prefix || 'body', message: `cannot be stored: ${error instanceof Error ? error.message : String(error)}` } }
  }
}

/**
 * A batch's items as bus records, each item on its own: a bad one is listed
 * in `rejected` with its index, message id and field errors, the others kept.
 */
export function acceptItems(items: unknown[], enrichmentOf: (item: unknown) => Enrichment, prefixOf: (index: number) => string): { records: BusRecord[]; rejected: Rejected[] } {
  const records: BusRecord[] = []
  const rejected: Rejected[] = []
  items.forEach((item, index) => {
    const prefix = prefixOf(index)
    const messageId = typeof (item as { messageId?: unknown })?.messageId === 'string' ? (item as { messageId: string }).messageId : null
    const result = normalizeCall(typeOf(item), item, enrichmentOf(item), prefix)
    if (!result.ok) return void rejected.push({ index, messageId, errors: result.errors })
    const r = busRecord(result.event, prefix)
    if (!r.ok) return void rejected.push({ index, messageId, errors: [r.error] })
    if (itemTooLarge(item, r.record.value)) {
      return void rejected.push({ index, messageId, errors: [{ name: prefix, message: `an event must be at most ${INGEST_LIMITS.eventBytes / 1024} KB` }] })
    }
    records.push(r.record)
  })
  return { records, rejected }
}

/**
 * A batch envelope's shared context and integrations checked as an item's are;
 * `dottedKey` tells each item's check whether the merged context can name a path twice.
 */
export function sharedFieldsError(context: unknown, integrations: unknown): { error?: FieldError; dottedKey: boolean } {
  const seen = { dottedKey: false }
  return { error: findUnstorableValue({ context, integrations }, '', seen), dottedKey: seen.dottedKey }
}

const SUCCESS = JSON.stringify({ success: true })

/** When the bus's own ENOSPC was last logged: at most once every 10 s, not once a request. */
let lastNoSpaceLog = 0

export const DISK_FULL_MESSAGE = "fl0's disk is nearly full: events are refused until space is freed, retry later"

/**
 * The embedded bus's refusal while the data directory's disk is nearly full (@fl0/stores' DiskFullError), or its
 * log's write the disk had no room for (ENOSPC: the floor turned off, or filled past by something else).
 */
function diskFullCode(error: unknown): 'DISK_FULL' | 'ENOSPC' | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'DISK_FULL' || code === 'ENOSPC' ? code : undefined
}
const JSON_TYPE = { 'content-type': 'application/json' }

/**
 * Publishes and answers: 200 only once the bus has the records durably (with
 * the rejected items listed, Segment's status for a partly bad batch, so that
 * clients neither retry nor lose the good items); 503 when the bus fails, which
 * Segment's and RudderStack's clients and the snippet retry with the same ids.
 */
export function publishAndAnswer(c: Context, publish: Publish, logger: Logger | undefined, records: BusRecord[], rejected: Rejected[] = []): Promise<Response> {
  // Handed to the bus, the records are not held by the request while it waits for the fsync (milliseconds): no waiting
  // frame refers to the events' text and objects, so the garbage collector need not copy them meanwhile (issue 19).
  let published: Promise<void>
  try {
    published = publish(records)
  } catch (error) {
    published = Promise.reject(error)
  }
  return answer(c, published, logger, records.length, rejected)
}

async function answer(c: Context, published: Promise<void>, logger: Logger | undefined, accepted: number, rejected: Rejected[]): Promise<Response> {
  try {
    await published
  } catch (error) {
    const full = diskFullCode(error)
    if (full) {
      if (full === 'ENOSPC' && Date.now() - lastNoSpaceLog > 10_000) {
        lastNoSpaceLog = Date.now()
        logger?.error({ err: error }, 'the bus has no room on the disk: events are refused (429 disk_full) until space is freed')
      }
      // 429 with Retry-After, as Segment's API answers when it cannot take more: Segment's libraries then keep the
      // events and send them again after each wait (analytics-node 3.1 up to 30 times, analytics.js 2.0 10 times),
      // where after a 5xx they give up after 10 tries with a growing back-off. The guard logs once when the disk
      // crosses the floor (server/src/stores.ts), not once a request.
      c.header('Retry-After', String(DISK_FULL_RETRY_AFTER_SECONDS))
      return ingestError(c, 429, 'disk_full', DISK_FULL_MESSAGE)
    }
    logger?.error({ err: error, count: accepted }, 'publish to bus failed')
    return ingestError(c, 503, 'bus_unavailable', 'Event bus unavailable, retry later')
  }
  if (rejected.length > 0) return c.json({ success: true, accepted, rejected }, 200)
  return c.body(SUCCESS, 200, JSON_TYPE)
}

/** Where accepted calls go, and what a partly bad batch is logged with. */
export interface Accepting {
  publish: Publish
  logger?: Logger
}

/** One call, validated into its bus record, published and answered; 400 naming the field when it is not valid. */
export async function acceptOne(c: Context, deps: Accepting, type: string, value: unknown, enrichment: Enrichment) {
  const result = normalizeCall(type, value, enrichment)
  if (!result.ok) return ingestError(c, 400, 'invalid_event', `Invalid ${type || 'event'} call`, result.errors)
  const r = busRecord(result.event)
  if (!r.ok) return ingestError(c, 400, 'invalid_event', `Invalid ${type || 'event'} call`, [r.error])
  return publishAndAnswer(c, deps.publish, deps.logger, [r.record])
}

/**
 * A { batch } envelope, read: its items and the fields they share (context,
 * integrations, sentAt, checked as an item's are), or the 400 to answer.
 */
export function readEnvelope(c: Context, value: unknown): { ok: true; batch: unknown[]; shared: NonNullable<Enrichment['batch']> } | { ok: false; response: Response } {
  const envelope = batchEnvelopeSchema.safeParse(value)
  if (!envelope.success) return { ok: false, response: ingestError(c, 400, 'invalid_batch', 'Invalid batch', toFieldErrors(envelope.error)) }
  const { batch, context, integrations, sentAt } = envelope.data
  const shared = sharedFieldsError(context, integrations)
  if (shared.error) return { ok: false, response: ingestError(c, 400, 'invalid_batch', 'Invalid batch', [shared.error]) }
  return { ok: true, batch, shared: { context, integrations, sentAt, dottedKey: shared.dottedKey } }
}

/**
 * Several calls: each item accepted on its own, the valid ones published and
 * the others listed in the answer (and logged, for the source); 400 when none is valid.
 */
export function acceptBatch(
  c: Context,
  deps: Accepting,
  source: { orgId: string; sourceId: string },
  items: unknown[],
  enrichmentOf: (item: unknown) => Enrichment,
  prefixOf: (index: number) => string,
  rejectedLog = 'batch items rejected',
) {
  const { records, rejected } = acceptItems(items, enrichmentOf, prefixOf)
  if (records.length === 0) return ingestError(c, 400, 'invalid_batch', 'No valid event in the batch', rejected.flatMap((r) => r.errors))
  if (rejected.length > 0) deps.logger?.warn({ orgId: source.orgId, sourceId: source.sourceId, rejected }, rejectedLog)
  return publishAndAnswer(c, deps.publish, deps.logger, records, rejected)
}

/** The type a call names, "" when it names none. */
export function typeOf(event: unknown): string {
  const type = (event as { type?: unknown } | null)?.type
  return typeof type === 'string' ? type : ''
}

/** A key or id no source can have (the metadata store refuses NUL in text) is unknown without asking the store. */
export function isPossibleKey(key: string): boolean {
  return key.length > 0 && key.length <= 200 && !key.includes('\u0000') && key.isWellFormed()
}
