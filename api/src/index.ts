import type { EventStore, Sql } from '@fl0/stores'
import { createApiApp } from './app.ts'
import type { ApiDeps, ApiLogger } from './deps.ts'
import { createLocalProvider, LOCAL_AUDIENCE } from './auth/local-provider.ts'
import { createLocalVerifier, createOidcVerifier } from './auth/tokens.ts'
import { createMailer } from './mail/mailer.ts'
import { createThrottle } from './auth/throttle.ts'
import { paragonSettings, type ParagonOptions } from './integrations/paragon.ts'

export { createApiApp } from './app.ts'
export { accessFor, type Access } from './guard/policy.ts'
export type { ApiDeps, ApiLogger } from './deps.ts'
export { hashPassword } from './auth/passwords.ts'
export { DEFAULT_BODY_DEADLINE_MS } from './http/body-limit.ts'
export { BODY_LIMITS } from './http/body-limit.ts'
export { THROTTLES } from './auth/throttle.ts'
export { parseParagonSigningKey } from './integrations/paragon.ts'

export interface ApiOptions {
  sql: Sql
  events: EventStore
  revokeWriteKey?: (writeKey: string) => void
  revokeWebhook?: (sourceId: string) => void
  logger: ApiLogger
  publicUrl: () => string
  /** FL0_PUBLIC_URL when set: snippets then point there rather than at the address the dashboard was reached at. */
  configuredPublicUrl?: string
  oidc?: { issuer: string; clientId: string }
  smtp?: { url?: string; from: string }
  /** FL0_LOGO_URL: the company-logo service, {domain} replaced by the company's domain (companies/logo.ts). */
  logoUrlTemplate?: string
  /** A Paragon project for the integrations screen: its id, the signing key (PEM) and where its SDK loads from. */
  paragon?: ParagonOptions
  sessionTtlMs?: number
  /** The caller's address, through trusted proxies (server/src/fl0.ts); without it attempts are counted per account only. */
  clientAddress?: ApiDeps['clientAddress']
  /** FL0_UPLOAD_MAX_BYTES: the largest upload an admin import takes. */
  uploadMaxBytes?: number
  /** FL0_BODY_TIMEOUT_SECONDS, in ms: how long a body other than an upload may take to arrive. */
  bodyDeadlineMs?: number
  /** Overrides of auth/throttle.ts's limits (tests). */
  throttleLimits?: Parameters<typeof createThrottle>[1]
  /** Whether EXPORT_DATABASE_URL is set (the copy runs in the workers role, which opens it: workers/src/jobs/queue.ts). */
  exportConfigured?: boolean
  /** See ApiDeps.jobQueued. */
  jobQueued?: () => void
  now?: () => Date
}

/** The admin's uploads (a universal table runs to gigabytes); FL0_UPLOAD_MAX_BYTES sets another. */
export const DEFAULT_UPLOAD_MAX_BYTES = 10 * 1024 ** 3

export const DEFAULT_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

/**
 * Builds the api's dependencies from configuration and returns its Hono app:
 * an external OIDC issuer when one is configured, else the built-in provider.
 */
export function createApi(options: ApiOptions) {
  const now = options.now ?? (() => new Date())
  const local = options.oidc ? undefined : createLocalProvider({ sql: options.sql, publicUrl: options.publicUrl, now })
  const tokens = options.oidc
    ? createOidcVerifier({ issuer: options.oidc.issuer, clientId: options.oidc.clientId, now })
    : createLocalVerifier({ issuer: local!.issuer, audience: LOCAL_AUDIENCE, jwks: local!.jwks, now })
  const deps: ApiDeps = {
    sql: options.sql,
    events: options.events,
    revokeWriteKey: options.revokeWriteKey,
    revokeWebhook: options.revokeWebhook,
    logger: options.logger,
    publicUrl: options.publicUrl,
    configuredPublicUrl: options.configuredPublicUrl,
    tokens,
    local,
    mailer: createMailer({ smtpUrl: options.smtp?.url, from: options.smtp?.from ?? 'fl0 <no-reply@localhost>', logger: options.logger }),
    paragon: options.paragon ? paragonSettings(options.paragon) : undefined,
    logoUrlTemplate: options.logoUrlTemplate,
    sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
    throttle: createThrottle(options.sql, options.throttleLimits),
    clientAddress: options.clientAddress ?? (() => undefined),
    uploadMaxBytes: options.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
    bodyDeadlineMs: options.bodyDeadlineMs,
    exportConfigured: options.exportConfigured ?? false,
    jobQueued: options.jobQueued,
    now,
  }
  return createApiApp(deps)
}
