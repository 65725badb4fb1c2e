import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import { bodyLimit } from 'hono/body-limit'
import { getConnInfo } from '@hono/node-server/conninfo'
import { batchEnvelopeSchema, chTime, errorBody, INGEST_LIMITS, toFieldErrors, type FieldError, type IngestedEvent } from '@fl0/contracts'
import { normalizeCall, itemTooLarge, type Enrichment } from './normalize.ts'
import { clientIp, type TrustedProxies } from './client-ip.ts'
import type { SourceRef, WriteKeys } from './write-keys.ts'

export const EVENTS_TOPIC = 'events'

export interface IngestDeps {
  writeKeys: WriteKeys
  /**
   * Resolves once the records are durable on the bus; ingest answers 2xx only after that.
   * Each value is an IngestedEvent serialised; the key keeps one user's events on one partition.
   */
  publish: (records: Array<{ key: string; value: string }>) => Promise<void>
  trustedProxies?: TrustedProxies
  logger?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  now?: () => Date
}

const SINGLE_TYPES = ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const

/**
 * The Segment-compatible ingest: /v1/{track,identify,page,screen,group,alias}
 * and /v1/{batch,import}.
 *
 * A batch holding bad items: Segment answers 200 and drops invalid items out of
 * sight. fl0 keeps Segment's status so that clients neither retry nor lose the
 * good items, but does not drop silently: the valid items are stored, and the
 * answer lists each rejected item with its index and field errors
 * ({ success: true, accepted, rejected: [{ index, messageId, errors }] }), and a
 * warning is logged. A batch with no valid item at all is a 400.
 */
export function createIngestApp(deps: IngestDeps) {
  const app = new Hono()
  const now = deps.now ?? (() => new Date())
  const trusted = deps.trustedProxies ?? []

  const browsers = cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'Authorization'], exposeHeaders: ['Retry-After'], maxAge: 86400 })
  // CORS headers matter to browsers only, and they always send Origin; server libraries
  // (analytics-node and friends) skip the middleware, whose header rewrite costs a
  // full Response per request.
  app.use('/v1/*', async function corsForBrowsers(c, next) {
    return c.req.header('origin') === undefined ? next() : browsers(c, next)
  })

  const limit = (maxSize: number, what: string) => {
    const tooLarge = (c: Context) =>
      c.json(errorBody('Request body too large', [{ name: 'body', message: `${what} must be at most ${maxSize / 1024} KB` }]), 400)
    const streamed = bodyLimit({ maxSize, onError: tooLarge })
    /**
     * Content-Length is checked here; only a body without one (chunked) goes
     * through Hono's bodyLimit, which counts the bytes as they stream. Its check
     * reads `c.req.raw.body`, and that makes @hono/node-server build a full
     * web Request and drop its direct body read: measured, about a third of the
     * ingest's time per request.
     */
    return async function ingestBodyLimit(c: Context, next: () => Promise<void>) {
      const length = c.req.header('content-length')
      if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
        return Number(length) > maxSize ? tooLarge(c) : next()
      }
      return streamed(c, next)
    }
  }

  for (const type of SINGLE_TYPES) {
    app.post(`/v1/${type}`, limit(INGEST_LIMITS.eventBytes, 'an event'), async function ingestSingle(c) {
      const body = await readJson(c)
      if (!body.ok) return c.json(errorBody('Invalid JSON', [body.error]), 400)
      const source = await authenticate(c, deps.writeKeys, body.value)
      if (!source.ok) return c.json(errorBody(source.message, [source.error]), 401)
      const result = normalizeCall(type, body.value, enrichment(c, source.ref, now(), trusted))
      if (!result.ok) return c.json(errorBody(`Invalid ${type} call`, result.errors), 400)
      return publishAndAnswer(c, deps, [record(result.event)])
    })
  }

  for (const path of ['/v1/batch', '/v1/import']) {
    app.post(path, limit(INGEST_LIMITS.batchBytes, 'a batch request'), async function ingestBatch(c) {
      const body = await readJson(c)
      if (!body.ok) return c.json(errorBody('Invalid JSON', [body.error]), 400)
      const source = await authenticate(c, deps.writeKeys, body.value)
      if (!source.ok) return c.json(errorBody(source.message, [source.error]), 401)
      const envelope = batchEnvelopeSchema.safeParse(body.value)
      if (!envelope.success) return c.json(errorBody('Invalid batch', toFieldErrors(envelope.error)), 400)
      const { batch, context, integrations, sentAt } = envelope.data
      const base = enrichment(c, source.ref, now(), trusted)
      base.batch = { context, integrations, sentAt }
      base.receivedAtText = chTime(base.receivedAt)
      const records: Array<{ key: string; value: string }> = []
      const rejected: Array<{ index: number; messageId: string | null; errors: FieldError[] }> = []
      batch.forEach((item, index) => {
        const prefix = `batch.${index}`
        const messageId = typeof (item as any)?.messageId === 'string' ? (item as any).messageId : null
        const type = typeof (item as any)?.type === 'string' ? (item as any).type : ''
        const result = normalizeCall(type, item, base, prefix)
        if (!result.ok) {
          rejected.push({ index, messageId, errors: result.errors })
          return
        }
        const r = record(result.event)
        if (itemTooLarge(item, r.value)) {
          rejected.push({ index, messageId, errors: [{ name: prefix, message: `an event must be at most ${INGEST_LIMITS.eventBytes / 1024} KB` }] })
          return
        }
        records.push(r)
      })
      if (records.length === 0) {
        return c.json(errorBody('No valid event in the batch', rejected.flatMap((r) => r.errors)), 400)
      }
      if (rejected.length > 0) {
        deps.logger?.warn({ orgId: source.ref.orgId, sourceId: source.ref.sourceId, rejected }, 'batch items rejected')
      }
      return publishAndAnswer(c, deps, records, rejected)
    })
  }

  return app
}

const SUCCESS = JSON.stringify({ success: true })
const JSON_TYPE = { 'content-type': 'application/json' }

function record(event: IngestedEvent) {
  return { key: `${event.org_id}:${event.user_id || event.anonymous_id}`, value: JSON.stringify(event) }
}

async function publishAndAnswer(c: Context, deps: IngestDeps, records: Array<{ key: string; value: string }>, rejected?: unknown[]) {
  try {
    await deps.publish(records)
  } catch (error) {
    deps.logger?.error({ err: error, count: records.length }, 'publish to bus failed')
    // 503 makes Segment's libraries and the snippet retry later with the same messageIds.
    return c.json(errorBody('Event bus unavailable, retry later'), 503)
  }
  if (rejected && rejected.length > 0) return c.json({ success: true, accepted: records.length, rejected }, 200)
  return c.body(SUCCESS, 200, JSON_TYPE)
}

async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; error: FieldError }> {
  const text = await c.req.text()
  if (!text.trim()) return { ok: false, error: { name: 'body', message: 'must be a JSON object' } }
  try {
    const value = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: { name: 'body', message: 'must be a JSON object' } }
    }
    return { ok: true, value }
  } catch {
    return { ok: false, error: { name: 'body', message: 'must be valid JSON' } }
  }
}

type Authenticated = { ok: true; ref: SourceRef } | { ok: false; message: string; error: FieldError }

/** Segment's two ways: HTTP Basic with the key as user name and no password, or writeKey in the body. */
async function authenticate(c: Context, writeKeys: WriteKeys, body: unknown): Promise<Authenticated> {
  const key = basicUser(c.req.header('authorization')) ?? bodyWriteKey(body)
  if (!key) {
    return { ok: false, message: 'Missing write key', error: { name: 'writeKey', message: 'must be provided as the HTTP Basic user name or as writeKey in the body' } }
  }
  const ref = await writeKeys.resolve(key)
  if (!ref) return { ok: false, message: 'Unknown write key', error: { name: 'writeKey', message: 'must be the write key of an existing source' } }
  return { ok: true, ref }
}

function basicUser(header: string | undefined): string | undefined {
  if (!header) return undefined
  const match = /^Basic\s+(.+)$/i.exec(header.trim())
  if (!match) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const user = decoded.split(':')[0]
  return user || undefined
}

function bodyWriteKey(body: unknown): string | undefined {
  const key = (body as { writeKey?: unknown })?.writeKey
  return typeof key === 'string' && key ? key : undefined
}

function enrichment(c: Context, ref: SourceRef, receivedAt: Date, trusted: TrustedProxies): Enrichment {
  let remote: string | undefined
  try {
    remote = getConnInfo(c).remote.address
  } catch {
    remote = undefined // no socket (app.request in tests without an env)
  }
  return {
    orgId: ref.orgId,
    sourceId: ref.sourceId,
    receivedAt,
    ip: clientIp(remote, c.req.header('x-forwarded-for'), trusted),
    browserUserAgent: c.req.header('origin') ? c.req.header('user-agent') : undefined,
  }
}
