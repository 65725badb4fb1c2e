import type { Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { createCallbackRoutes, createCallbackSecretCache, createIngestApp, createRefusalCounter, createWebhookRoutes, createWebhookSourceCache, createWriteKeyCache, EVENTS_TOPIC, limiterKey, LINKS_TOPIC, parseTrustedProxies, requestClientIp, type WebhookSources, type WriteKeys } from '@fl0/ingest'
import { createJobRunner, createScoringRunner, startBotsWorker, startEventWriter, startIdentityWorker, startLexiconWorker, startNetworkRulesWorker, type JobRunner, type ScoringRunner } from '@fl0/workers'
import { addCallbackRefusals, findCallbackOrg, findSourceByWriteKey, findWebhookSource, openPostgres, type BusMessage, type Consumer } from '@fl0/stores'
import { createSnippetRoutes } from '@fl0/snippet'
import { createDashboardRoutes, dashboardDist } from '@fl0/dashboard/server'
import { createApi } from '@fl0/api'
import type { Config } from './config.ts'
import type { Logger } from './logger.ts'
import { openStores, type Stores } from './stores.ts'
import { clientTimeouts, cutOffIdleClients, httpServerOptions } from './slow-clients.ts'
import { createSecurityHeaders } from './security-headers.ts'
import { PARAGON_SDK_URL_DEFAULT } from '@fl0/contracts'

export interface RunningFl0 {
  url: string
  port: number
  stores: Stores
  writeKeys?: WriteKeys
  stop(): Promise<void>
}

/**
 * Starts the roles this process runs: all three in embedded mode (the default),
 * or any subset beside Kafka, PostgreSQL and a ClickHouse server in a cluster.
 */
export async function startFl0(config: Config, logger: Logger): Promise<RunningFl0> {
  const roles = config.FL0_ROLES
  const stores = await openStores(config, roles, logger)
  const consumers: Consumer[] = []
  const app = new Hono()
  let writeKeys: WriteKeys | undefined
  let webhooks: WebhookSources | undefined
  let scoring: ScoringRunner | undefined
  let jobs: JobRunner | undefined
  const trustedProxies = parseTrustedProxies(config.TRUSTED_PROXIES)
  // First, so that every answer of the dashboard and /api carries them; the ingest and the snippet keep their own.
  app.use(
    createSecurityHeaders({
      publicUrl: config.FL0_PUBLIC_URL,
      trustedProxies,
      logoUrlTemplate: config.FL0_LOGO_URL,
      paragonSdkUrl: config.paragon ? (config.paragon.sdkUrl ?? PARAGON_SDK_URL_DEFAULT) : undefined,
      oidcIssuer: config.OIDC_ISSUER,
    }),
  )

  // Unhealthy once the bus takes no more events until a restart (the embedded log after a failed fdatasync): a
  // liveness probe on /healthz (Kubernetes', a monitor's) then sees it and can restart fl0, which recovers the log from
  // its last good record, where a 200 hid a process that refuses every event. Docker restarts only a process that
  // exits, not an unhealthy one. The cause (a path, an errno) is logged with each refused request, not shown here.
  app.get('/healthz', (c) =>
    stores.bus?.stoppedBy()
      ? c.json({ ok: false, roles, error: 'bus_stopped', message: 'The event bus stopped after a failed write: restart fl0 to recover it' }, 503)
      : c.json({ ok: true, roles }),
  )

  if (roles.includes('api') || roles.includes('ingest')) app.route('/', createSnippetRoutes())

  if (roles.includes('ingest')) {
    const metadata = stores.metadata!
    const bus = stores.bus!
    const diskSpace = stores.diskSpace
    // Refused with DiskFullError (429 disk_full) while the data directory's disk is nearly full; the identity
    // partner's links below are a few bytes each and keep going.
    const publishEvents = (records: BusMessage[]) => {
      diskSpace?.check()
      return bus.publish(EVENTS_TOPIC, records)
    }
    writeKeys = createWriteKeyCache(async (key) => {
      const source = await findSourceByWriteKey(metadata, key)
      return source ? { orgId: source.org_id, sourceId: source.id } : undefined
    })
    app.route(
      '/',
      createIngestApp({
        writeKeys,
        trustedProxies,
        logger,
        publicUrl: config.FL0_PUBLIC_URL,
        publish: publishEvents,
      }),
    )
    // Segment's and RudderStack's webhook destinations: a Segment-type source's events, forwarded (ingest/src/webhook.ts).
    webhooks = createWebhookSourceCache(async (id) => {
      const source = await findWebhookSource(metadata, id)
      return source ? { orgId: source.org_id, sourceId: source.id, secret: source.webhook_secret } : undefined
    })
    app.route('/', createWebhookRoutes({ sources: webhooks, logger, publish: publishEvents }))
    // The identity partner's pixel: links a visitor id to a person, through the bus to the identity worker;
    // limited per address, signed for organisations with a secret, its refusals counted in the metadata store.
    const callbackRefusals = createRefusalCounter({ store: (day, counts) => addCallbackRefusals(metadata, day, counts), logger })
    consumers.push({ stop: () => callbackRefusals.close() }) // the last counts written on stop, before the stores close
    app.route(
      '/',
      createCallbackRoutes({
        logger,
        publish: (records) => bus.publish(LINKS_TOPIC, records),
        limit: { points: config.FL0_CALLBACK_RATE_LIMIT, durationS: config.FL0_CALLBACK_RATE_WINDOW_SECONDS },
        secrets: createCallbackSecretCache((org) => findCallbackOrg(metadata, org)),
        refusals: callbackRefusals,
        trustedProxies,
      }),
    )
  }

  // Embedded (PGlite), only this process queues work for the runners, and it nudges them as it does (the api's
  // jobQueued): they look for more once a minute only (re-scoring is due by the day), since a PGlite query holds
  // the event loop, 10–40 ms on two busy cores, and polling every second or two cost the ingest that much each time.
  // With PostgreSQL, other processes queue work too: the runners' own intervals stand.
  const idlePollMs = config.DATABASE_URL ? undefined : 60_000
  if (roles.includes('workers')) {
    // Nobody waits on the workers' calls: in chDB a dashboard's queries go ahead of them (stores/src/events/client.ts).
    const events = stores.events!.background
    consumers.push(await startEventWriter({ bus: stores.bus!, store: events, logger }))
    // Its own consumer group: the dictionary keeps up even while the writer catches up, and vice versa.
    consumers.push(await startLexiconWorker({ bus: stores.bus!, store: events, logger }))
    // Its own group too: visits and their address matches (workers/src/identity), and the callback's links.
    consumers.push(await startIdentityWorker({ bus: stores.bus!, store: events, logger, ipData: config.FL0_IP_DATA }))
    // Crawlers and headless browsers among the visitors, marked every minute so people, companies and metrics leave them out (workers/src/bots).
    consumers.push(startBotsWorker({ store: events, logger }))
    // Identification's organisation-wide rules of the free data, worked out again as the visits change (workers/src/identity/network-rules.ts).
    consumers.push(startNetworkRulesWorker({ store: events, logger }))
    // Scoring models train here, off the request path: the api only queues them (workers/src/scoring/runner.ts).
    scoring = createScoringRunner({ sql: stores.metadata!, events, logger, pollMs: idlePollMs })
    scoring.start()
    // The admin's refreshes and copy, queued by the api (workers/src/jobs/queue.ts).
    jobs = createJobRunner({
      sql: stores.metadata!,
      events,
      logger,
      now: () => new Date(),
      exportDatabase: config.EXPORT_DATABASE_URL ? () => openPostgres(config.EXPORT_DATABASE_URL!) : undefined,
      ipData: config.FL0_IP_DATA,
      pollMs: idlePollMs,
    })
    jobs.start()
  }

  if (roles.includes('api')) {
    // The API first: /api and /api-v2 behind their guard, ahead of the dashboard's fallback.
    app.route(
      '/',
      createApi({
        sql: stores.metadata!,
        events: stores.events!,
        revokeWriteKey: writeKeys ? (key) => writeKeys!.invalidate(key) : undefined,
        revokeWebhook: webhooks ? (id) => webhooks!.invalidate(id) : undefined,
        logger,
        publicUrl: () => config.FL0_PUBLIC_URL ?? `http://localhost:${port}`,
        configuredPublicUrl: config.FL0_PUBLIC_URL,
        oidc: config.OIDC_ISSUER && config.OIDC_CLIENT_ID ? { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID } : undefined,
        smtp: { url: config.SMTP_URL, from: config.SMTP_FROM },
        logoUrlTemplate: config.FL0_LOGO_URL || undefined,
        paragon: config.paragon,
        sessionTtlMs: config.SESSION_DAYS * 24 * 60 * 60 * 1000,
        // Sign-in attempts are counted per address: the caller's, through trusted proxies, as the ingest reads it.
        // IPv6 by its /64, as the callback's limit counts it: one host holds a whole /64.
        clientAddress: (c) => {
          const ip = requestClientIp(c, trustedProxies)
          return ip ? limiterKey(ip) : undefined
        },
        uploadMaxBytes: config.FL0_UPLOAD_MAX_BYTES,
        bodyDeadlineMs: config.FL0_BODY_TIMEOUT_SECONDS * 1000,
        exportConfigured: config.EXPORT_DATABASE_URL !== undefined,
        jobQueued: () => {
          scoring?.nudge()
          jobs?.nudge()
        },
      }),
    )
    // The dashboard at / (SPA fallback for every GET outside the server's own paths).
    app.route('/', createDashboardRoutes(dashboardDist))
  }

  app.onError((err, c) => {
    logger.error({ err, path: c.req.path }, 'unhandled error')
    return c.json({ success: false, code: 'internal_error', message: 'An error has occurred', errors: [] }, 500)
  })
  // `code` beside `message`, as every ingest error has: Segment's and RudderStack's Python libraries read
  // both from any error body, and one without `code` made RudderStack's raise instead of reporting.
  app.notFound((c) => c.json({ success: false, code: 'not_found', message: 'Not found', errors: [] }, 404))

  let server: ServerType | undefined
  let port = config.PORT
  if (roles.includes('ingest') || roles.includes('api')) {
    server = await new Promise<ServerType>((resolve) => {
      // Headers within a time, and no connection left idle while fl0 waits on its client; no cap on a
      // whole request unless configured, which would cut a large upload off (slow-clients.ts).
      const timeouts = clientTimeouts(config)
      const serverOptions = httpServerOptions(timeouts)
      const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST, serverOptions }, () => resolve(s))
      cutOffIdleClients(s as HttpServer, timeouts.idleMs)
    })
    port = (server.address() as AddressInfo).port
  }

  let stopping: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stores,
    writeKeys,
    stop() {
      stopping ??= (async () => {
        if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
        await Promise.all(consumers.map((c) => c.stop()))
        await scoring?.stop()
        await jobs?.stop()
        await stores.close()
      })()
      return stopping
    },
  }
}
