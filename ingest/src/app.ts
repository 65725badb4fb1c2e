import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import { chTime, INGEST_LIMITS, type FieldError } from '@fl0/contracts'
import type { Enrichment } from './normalize.ts'
import { acceptBatch, acceptOne, isPossibleKey, readEnvelope } from './accept.ts'
import { readBody } from './body.ts'
import { ingestError } from './errors.ts'
import { createSegmentSettingsRoute } from './segment-settings.ts'
import { requestClientIp, type TrustedProxies } from './client-ip.ts'
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
  /** Where browsers reach this ingest (FL0_PUBLIC_URL); by default the address each request came to. */
  publicUrl?: string
}

/**
 * Each call's paths: Segment's HTTP API names them in full; analytics.js 2.0
 * (@segment/analytics-next) posts to the first letter of the type under its
 * apiHost (`/v1/t`, `/v1/p`, …), and to `/v1/b` when batching.
 */
const SINGLE_TYPES = [
  ['track', 't'],
  ['identify', 'i'],
  ['page', 'p'],
  ['screen', 's'],
  ['group', 'g'],
  ['alias', 'a'],
] as const
const BATCH_PATHS = ['/v1/batch', '/v1/import', '/v1/b']

/** Segment's Java library posts to `/v1/import/`: every path answers with and without the slash. */
function withTrailingSlash(paths: string[]): string[] {
  return paths.flatMap((p) => [p, `${p}/`])
}

/** analytics.js 2.0's own telemetry (counters of its calls), sent to `{apiHost}/m` unless its settings turn it off. */
const TELEMETRY_BYTES = 64 * 1024

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

  // Any request headers a browser asks for (analytics.js adds X-Retry-Count on retries):
  // nothing here reads cookies, so reflecting them gives nothing away.
  const browsers = cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], exposeHeaders: ['Retry-After'], maxAge: 86400 })
  // CORS headers matter to browsers only, and they always send Origin; server libraries
  // (analytics-node and friends) skip the middleware, whose header rewrite costs a
  // full Response per request.
  app.use('/v1/*', async function corsForBrowsers(c, next) {
    return c.req.header('origin') === undefined ? next() : browsers(c, next)
  })

  app.route('/', createSegmentSettingsRoute({ writeKeys: deps.writeKeys, publicUrl: deps.publicUrl }))

  for (const [type, letter] of SINGLE_TYPES) {
    for (const path of withTrailingSlash([`/v1/${type}`, `/v1/${letter}`])) app.post(path, ingestSingle)
    async function ingestSingle(c: Context) {
      const body = await readJson(c, INGEST_LIMITS.eventBytes, 'an event')
      if (!body.ok) return body.response
      const source = await authenticate(c, deps.writeKeys, body.value)
      if (!source.ok) return ingestError(c, 401, source.code, source.message, [source.error])
      return acceptOne(c, deps, type, body.value, enrichment(c, source.ref, now(), trusted))
    }
  }

  for (const path of withTrailingSlash(BATCH_PATHS)) {
    app.post(path, async function ingestBatch(c) {
      const body = await readJson(c, INGEST_LIMITS.batchBytes, 'a batch request')
      if (!body.ok) return body.response
      const source = await authenticate(c, deps.writeKeys, body.value)
      if (!source.ok) return ingestError(c, 401, source.code, source.message, [source.error])
      const envelope = readEnvelope(c, body.value)
      if (!envelope.ok) return envelope.response
      const base = enrichment(c, source.ref, now(), trusted)
      base.batch = envelope.shared
      base.receivedAtText = chTime(base.receivedAt)
      return acceptBatch(c, deps, source.ref, envelope.batch, () => base, (index) => `batch.${index}`)
    })
  }

  // Taken and dropped: fl0 has no use for it, and a 404 put an error in every visitor's console.
  app.post('/v1/m', async function analyticsJsTelemetry(c) {
    const body = await readBody(c, TELEMETRY_BYTES, 'telemetry')
    return body.ok ? c.body(null, 204) : ingestError(c, body.status, body.code, body.message, [body.error])
  })

  // Whatever slips past the checks above gets the same body as every other error,
  // with the code Segment's and RudderStack's libraries read, never a stack trace.
  app.onError((err, c) => {
    deps.logger?.error({ err, path: c.req.path }, 'ingest: unhandled error')
    return ingestError(c, 500, 'internal_error', 'An error has occurred')
  })

  return app
}

type Json = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response }

async function readJson(c: Context, maxSize: number, what: string): Promise<Json> {
  const body = await readBody(c, maxSize, what)
  if (!body.ok) return { ok: false, response: ingestError(c, body.status, body.code, body.message, [body.error]) }
  if (!body.text.trim()) return invalidJson(c, 'must be a JSON object')
  try {
    const value = JSON.parse(body.text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalidJson(c, 'must be a JSON object')
    return { ok: true, value }
  } catch {
    return invalidJson(c, 'must be valid JSON')
  }
}

function invalidJson(c: Context, message: string): Json {
  return { ok: false, response: ingestError(c, 400, 'invalid_json', 'Invalid JSON', [{ name: 'body', message }]) }
}

type Authenticated = { ok: true; ref: SourceRef } | { ok: false; code: string; message: string; error: FieldError }

/** Segment's two ways: HTTP Basic with the key as user name and no password, or writeKey in the body. */
async function authenticate(c: Context, writeKeys: WriteKeys, body: unknown): Promise<Authenticated> {
  const key = basicUser(c.req.header('authorization')) ?? bodyWriteKey(body)
  if (!key) {
    return { ok: false, code: 'missing_write_key', message: 'Missing write key', error: { name: 'writeKey', message: 'must be provided as the HTTP Basic user name or as writeKey in the body' } }
  }
  const ref = isPossibleKey(key) ? await writeKeys.resolve(key) : undefined
  if (!ref) return { ok: false, code: 'unknown_write_key', message: 'Unknown write key', error: { name: 'writeKey', message: 'must be the write key of an existing source' } }
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
  return {
    orgId: ref.orgId,
    sourceId: ref.sourceId,
    receivedAt,
    ip: requestClientIp(c, trusted),
    browserUserAgent: c.req.header('origin') ? c.req.header('user-agent') : undefined,
  }
}
