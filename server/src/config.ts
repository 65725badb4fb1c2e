import { resolve } from 'node:path'
import { z } from 'zod'
import { DEFAULT_BODY_DEADLINE_MS, DEFAULT_UPLOAD_MAX_BYTES } from '@fl0/api'
import { paragonEnv, readParagonConfig, type ParagonConfig } from './paragon-config.ts'

/**
 * Configuration: environment variables, read once and validated. The defaults
 * run fl0 embedded on one machine with nothing else installed: PGlite, the
 * on-disk bus and chDB, all under FL0_DATA_DIR.
 */
const ROLES = ['ingest', 'workers', 'api'] as const

/** DuckDuckGo's site icons by domain: no key or account needed. */
export const DEFAULT_LOGO_URL = 'https://icons.duckduckgo.com/ip3/{domain}.ico'
export type Role = (typeof ROLES)[number]

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  FL0_DATA_DIR: z.string().default('./data'),
  /** Comma-separated roles this process runs; all three by default (embedded). */
  FL0_ROLES: z
    .string()
    .default(ROLES.join(','))
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(ROLES)).min(1)),
  DATABASE_URL: z.string().optional(),
  KAFKA_BROKERS: z.string().optional(),
  /**
   * How long Kafka waits for a silent worker before handing its partitions to
   * another (6 s to 30 min, as the broker allows). Shorter: a killed worker's
   * partitions move sooner; longer: a long pause (GC, a slow batch) is not taken for death.
   */
  /** Partitions of the topics fl0 creates (events, events.dlq): at most this many workers share the load. */
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(12),
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(1_800_000).default(30_000),
  CLICKHOUSE_URL: z.string().url().optional(),
  CLICKHOUSE_USER: z.string().optional(),
  CLICKHOUSE_PASSWORD: z.string().optional(),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('fl0'),
  /** Addresses or CIDR ranges whose X-Forwarded-For (and X-Forwarded-Proto) is believed. */
  TRUSTED_PROXIES: z.string().default(''),
  /**
   * Slow clients (slow-clients.ts). A request's headers must arrive within
   * FL0_HEADERS_TIMEOUT_SECONDS; a connection on which fl0 waits for the
   * client (the rest of a body, or the client to take the answer) and no
   * byte moves for FL0_IDLE_TIMEOUT_SECONDS is closed, however long a request
   * that keeps moving takes (uploads of gigabytes). FL0_REQUEST_TIMEOUT_SECONDS
   * caps a whole request's arrival, headers and body; 0, the default, sets no
   * cap, since none would fit the largest imports (bench/README.md).
   */
  FL0_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(20),
  FL0_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  FL0_REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(0).max(7 * 24 * 3600).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Where users reach fl0 (invitation links, the built-in provider's issuer).
   * Default: http://localhost:{port}. Set it when fl0 sits behind a proxy or a domain.
   */
  FL0_PUBLIC_URL: z.string().url().optional(),
  /**
   * An external OpenID Connect provider: its issuer URL (discovery at
   * {issuer}/.well-known/openid-configuration) and the client id its ID tokens
   * are issued to. Both or neither; without them fl0 is its own provider (local accounts).
   */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** smtp:// or smtps:// URL (credentials in it) for invitation e-mails; unset, the accept link is logged. */
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().default('fl0 <no-reply@localhost>'),
  /** How long a session lasts, in days. */
  SESSION_DAYS: z.coerce.number().positive().max(365).default(30),
  /**
   * The identity callback's limit per client address (ingest/src/callback/limiter.ts):
   * FL0_CALLBACK_RATE_LIMIT callbacks per FL0_CALLBACK_RATE_WINDOW_SECONDS, counted in each
   * ingest process's memory, so N ingest processes let an address through up to N times it;
   * 0: no limit. A partner's pixel loads once per page view in each visitor's browser: 60 a
   * minute is one page view a second, sustained, from one address (an office behind one NAT
   * included). Callbacks with a valid signature are not held against the address. Behind a
   * proxy, set TRUSTED_PROXIES, or every visitor is the proxy's one address.
   */
  FL0_CALLBACK_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(60),
  FL0_CALLBACK_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * The company-logo service the company page's images come from: an http(s)
   * address with {domain} where the company's domain goes. The browser loads
   * it, so it is a third party the visitor's browser talks to; set it empty to
   * show the companies' initials instead.
   */
  FL0_LOGO_URL: z
    .string()
    .default(DEFAULT_LOGO_URL)
    .refine((s) => s === '' || (/^https?:\/\//i.test(s) && s.includes('{domain}') && URL.canParse(s.replaceAll('{domain}', 'example.com'))), {
      message: 'must be empty, or an http(s) address with {domain} in it, e.g. https://logos.example.com/{domain}.png',
    }),
  /**
   * A PostgreSQL database (Supabase is one) that the admin's "copy people and
   * pages" upserts into (workers/src/jobs/copy-export.ts); unset, the copy
   * answers that it is not configured.
   */
  EXPORT_DATABASE_URL: z.string().url().optional(),
  /**
   * Free network data (docs/identification.md "Networks from free data"): `free` looks every visit's address up in
   * the data that ships with fl0 (the AS and its organisation, classified; DB-IP's city), which names companies
   * behind anonymous visits with no data bought; `off` leaves naming to imported ranges alone (and saves the workers
   * role about 150 MB).
   */
  FL0_IP_DATA: z.enum(['free', 'off']).default('free'),
  /** The largest file an admin import takes, in bytes (10 GiB); streamed, never held whole. Every other /api body has its own, fixed limit (api/src/http/body-limit.ts). */
  FL0_UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(DEFAULT_UPLOAD_MAX_BYTES),
  /** How long an /api body other than an upload may take to arrive whole, in seconds; past it the connection is cut (a slowloris). */
  FL0_BODY_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(DEFAULT_BODY_DEADLINE_MS / 1000),
  /**
   * Embedded, the ingest answers 429 (disk_full, Retry-After) while fewer than this many megabytes are free on
   * FL0_DATA_DIR's disk, so that a flood of events or a stopped consumer cannot fill it (stores/src/bus/disk-space.ts);
   * 0 turns the check off. The cluster's brokers keep their own disks.
   */
  FL0_MIN_FREE_DISK_MB: z.coerce.number().int().min(0).default(1024),
  /** Paragon, for the integrations screen: PARAGON_PROJECT_ID, PARAGON_SIGNING_KEY or _FILE, PARAGON_SDK_URL (paragon-config.ts). */
  ...paragonEnv,
}).refine((c) => !c.OIDC_ISSUER === !c.OIDC_CLIENT_ID, { message: 'set both OIDC_ISSUER and OIDC_CLIENT_ID, or neither', path: ['OIDC_ISSUER'] })

export type Config = z.output<typeof schema> & { dataDir: string; paragon?: ParagonConfig }

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const { paragon, problems } = readParagonConfig(parsed.data)
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.map(([name, message]) => `  ${name}: ${message}`).join('\n')}`)
  return { ...parsed.data, dataDir: resolve(parsed.data.FL0_DATA_DIR), paragon }
}
