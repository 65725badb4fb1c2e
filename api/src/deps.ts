import type { Context } from 'hono'
import type { EventStore, Sql } from '@fl0/stores'
import type { Throttle } from './auth/throttle.ts'
import type { ApiLogger } from './logger.ts'
import type { Mailer } from './mail/mailer.ts'
import type { TokenVerifier } from './auth/tokens.ts'
import type { LocalProvider } from './auth/local-provider.ts'
import type { ParagonSettings } from './integrations/paragon.ts'

export type { ApiLogger } from './logger.ts'

export interface ApiDeps {
  sql: Sql
  /** The events store (ClickHouse: chDB embedded, a server in a cluster): metrics, companies, event lists. */
  events: EventStore
  /**
   * Drops a write key from the ingest's cache when this process also ingests
   * (embedded mode), so a deleted source's key is refused at once. A separate
   * ingest role refuses it within its cache's TTL (2 s, ingest/src/write-keys.ts).
   */
  revokeWriteKey?: (writeKey: string) => void
  /** The same for a source's webhook (ingest/src/webhook-sources.ts): a deleted source's webhook stops at once. */
  revokeWebhook?: (sourceId: string) => void
  logger: ApiLogger
  /** Where users reach fl0 (links in invitation e-mails, the built-in provider's issuer). */
  publicUrl: () => string
  /** FL0_PUBLIC_URL when set (see routes/snippet-host.ts). */
  configuredPublicUrl?: string
  /** Verifies the ID tokens posted to /api/sign-in: the external issuer's, or the built-in provider's. */
  tokens: TokenVerifier
  /** The built-in provider; undefined when an external OIDC issuer is configured. */
  local?: LocalProvider
  mailer: Mailer
  /** The company-logo service: an address with {domain} in it (FL0_LOGO_URL); undefined or empty: no logos. */
  logoUrlTemplate?: string
  /** Paragon's Connect SDK (the integrations screen); undefined when no Paragon project is configured. */
  paragon?: ParagonSettings
  /** Whether EXPORT_DATABASE_URL is set: the admin's copy is refused up front without one (the workers role opens it). */
  exportConfigured: boolean
  /** Sign-in, sign-up and e-mail attempts counted per address and per account (auth/throttle.ts). */
  throttle: Throttle
  /**
   * The caller's address (through trusted proxies, as the ingest reads it),
   * by which attempts are counted; undefined where no connection is known
   * (a request made in-process).
   */
  clientAddress: (c: Context) => string | undefined
  /** The largest upload the admin's imports take (FL0_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number
  /** How long any other body may take to arrive whole (FL0_BODY_TIMEOUT_SECONDS); http/body-limit.ts's default when unset. */
  bodyDeadlineMs?: number
  /** How long a session lasts. */
  sessionTtlMs: number
  /**
   * Called after a change that may queue work for the workers role (a scoring
   * run, an admin refresh or copy): in one process with the workers, they
   * claim it at once instead of at their next poll of the metadata store.
   */
  jobQueued?: () => void
  /** The clock: injected so that expiry can be tested. */
  now: () => Date
}
