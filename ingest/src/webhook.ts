import { Hono, type Context } from 'hono'
import { normalizeIp } from './client-ip.ts'
import { chTime, INGEST_LIMITS, WEBHOOK_PATH_PREFIX } from '@fl0/contracts'
import type { Enrichment } from './normalize.ts'
import { acceptBatch, acceptOne, isPossibleKey, readEnvelope, typeOf, type Publish } from './accept.ts'
import { readBody } from './body.ts'
import { ingestError } from './errors.ts'
import { credentialsOf, MISSING, verify, type Refusal } from './webhook-auth.ts'
import type { WebhookSource, WebhookSources } from './webhook-sources.ts'

export interface WebhookDeps {
  sources: WebhookSources
  /** The ingest's: resolves once the records are durable on the bus (app.ts, IngestDeps.publish). */
  publish: Publish
  logger?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  now?: () => Date
}

/**
 * POST (or PUT, PATCH) /v1/webhooks/{sourceId}: a Segment workspace's Webhooks destination (classic
 * or Actions), or RudderStack's Webhook destination, forwarding a Segment-type
 * source's events without code. The URL names the source; the shared secret
 * proves the sender (webhook-auth.ts). In this order, each step only once the
 * one before it holds:
 *
 * 1. the source: unknown, deleted or a snippet source (no webhook): 404, body unread;
 * 2. credentials present (headers only): else 401, body unread;
 * 3. the body read within the batch limit, decoded from gzip, deflate or br (body.ts);
 * 4. the signature or bearer secret checked against it: else 401, body unparsed;
 * 5. the JSON parsed: one event (classic, RudderStack, Actions unbatched), an array of
 *    events (Actions batched, RudderStack's HTTP Webhook batched), or a { batch: […] }
 *    envelope as /v1/batch takes;
 * 6. each event validated and stored as from this source by the ingest's own
 *    normalizeCall, marked forwarded: the forwarder's timestamp, already corrected
 *    for the client's clock, stands; the visitor's address is the event's
 *    context.ip, else RudderStack's request_ip, never the connection's (Segment's
 *    or RudderStack's servers);
 * 7. published to the bus, answered 200 once durable, 503 if the bus fails.
 *
 * Bad events answer as /v1/track and /v1/batch do (README, the ingest contract):
 * one event: 400 naming the field; several: the valid ones stored and 200 with
 * each rejected one listed, 400 when none is valid. Segment and RudderStack
 * retry 5xx and drop 4xx, so a bad event is not retried for ever. Duplicates
 * (a pipeline's retries) are stored once, on organisation and messageId, as any.
 */
export function createWebhookRoutes(deps: WebhookDeps) {
  const app = new Hono()
  const now = deps.now ?? (() => new Date())

  // POST by default; Webhooks (Actions) and RudderStack may be set to PUT or PATCH, with the same body.
  app.on(['POST', 'PUT', 'PATCH'], `${WEBHOOK_PATH_PREFIX}:sourceId`, async function receiveWebhook(c) {
    const sourceId = c.req.param('sourceId')
    const source = isPossibleKey(sourceId) ? await deps.sources.resolve(sourceId) : undefined
    if (!source) {
      return ingestError(c, 404, 'unknown_webhook', 'Unknown webhook', [
        { name: 'sourceId', message: "must be the id of an existing Segment source: copy the Webhook URL from the source's Properties" },
      ])
    }
    const credentials = credentialsOf((name) => c.req.header(name))
    if (!credentials) return refuse(c, source, MISSING)
    const body = await readBody(c, INGEST_LIMITS.batchBytes, 'a webhook request')
    if (!body.ok) return ingestError(c, body.status, body.code, body.message, [body.error])
    const verdict = verify(credentials, body.text, source.secret)
    if (!verdict.ok) return refuse(c, source, verdict)

    let value: unknown
    try {
      value = JSON.parse(body.text)
    } catch {
      return ingestError(c, 400, 'invalid_json', 'Invalid JSON', [{ name: 'body', message: 'must be valid JSON' }])
    }
    const receivedAt = now()
    const at = { receivedAt, receivedAtText: chTime(receivedAt) }

    if (Array.isArray(value)) return several(c, source, value, at, (i) => String(i))
    if (typeof value !== 'object' || value === null) {
      return ingestError(c, 400, 'invalid_json', 'Invalid JSON', [{ name: 'body', message: 'must be an event, an array of events or a { batch } of events' }])
    }
    if ('batch' in value && !('type' in value)) {
      const envelope = readEnvelope(c, value)
      if (!envelope.ok) return envelope.response
      return several(c, source, envelope.batch, { ...at, batch: envelope.shared }, (i) => `batch.${i}`)
    }

    // One event: within the per-event limit, as /v1/track takes it.
    if (Buffer.byteLength(body.text) > INGEST_LIMITS.eventBytes) {
      return ingestError(c, 400, 'body_too_large', 'Request body too large', [{ name: 'body', message: `an event must be at most ${INGEST_LIMITS.eventBytes / 1024} KB` }])
    }
    return acceptOne(c, deps, typeOf(value), value, enrichment(source, at, value))
  })

  /** Several events (an array, or a { batch } envelope): the valid ones stored, the others listed. */
  function several(c: Context, source: WebhookSource, items: unknown[], at: Received, prefixOf: (index: number) => string) {
    if (items.length === 0 || items.length > INGEST_LIMITS.batchItems) {
      const message = items.length === 0 ? 'must hold at least one event' : `must hold at most ${INGEST_LIMITS.batchItems} events`
      return ingestError(c, 400, 'invalid_batch', 'Invalid batch', [{ name: 'body', message }])
    }
    return acceptBatch(c, deps, source, items, (item) => enrichment(source, at, item), prefixOf, 'webhook events rejected')
  }

  function refuse(c: Context, source: WebhookSource, verdict: Refusal) {
    deps.logger?.warn({ orgId: source.orgId, sourceId: source.sourceId, code: verdict.code }, 'webhook refused')
    return ingestError(c, 401, verdict.code, verdict.message, [verdict.error])
  }

  app.onError((err, c) => {
    deps.logger?.error({ err, path: c.req.path }, 'webhook: unhandled error')
    return ingestError(c, 500, 'internal_error', 'An error has occurred')
  })

  return app
}

type Received = { receivedAt: Date; receivedAtText: string; batch?: Enrichment['batch'] }

function enrichment(source: WebhookSource, at: Received, event: unknown): Enrichment {
  return {
    orgId: source.orgId,
    sourceId: source.sourceId,
    receivedAt: at.receivedAt,
    receivedAtText: at.receivedAtText,
    batch: at.batch,
    // The connection is the forwarder's server: the visitor's address is the event's
    // context.ip (normalizeCall prefers it), else the request_ip RudderStack records.
    ip: requestIp(event),
    forwarded: true,
  }
}

/** RudderStack's top-level request_ip (its Webhook destination copies it into context.ip too, when that is empty). */
function requestIp(event: unknown): string {
  const ip = (event as { request_ip?: unknown } | null)?.request_ip
  return typeof ip === 'string' ? normalizeIp(ip) : ''
}


