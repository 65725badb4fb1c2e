import { createHash } from 'node:crypto'
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import type { Sql } from '@fl0/stores'
import { ApiError } from '../http/errors.ts'

/**
 * Brute force against sign-in, sign-up and the reset e-mails, limited per
 * address and per account with rate-limiter-flexible, its counters kept in the
 * metadata store (the auth_throttle table, migration 0014): PGlite in one
 * process, PostgreSQL in a cluster, where every api process counts in the
 * same rows. An attempt is counted before it is judged (an atomic upsert), so
 * a hundred guesses sent at once are a hundred counted, not a hundred that
 * each saw a clean slate; a right password takes its own attempt back.
 *
 * A guesser gets 10 wrong passwords for an account from one address, and 30
 * from one address for any accounts, every 15 minutes. An account refuses
 * every sign-in, the right password too, only after 100 wrong ones from
 * anywhere: one address cannot lock its owner out, and the owner gets back
 * in at once by resetting the password. Past a limit: 429, with Retry-After
 * in seconds.
 */
export const THROTTLES = {
  /** Wrong passwords for one account from one address. */
  signInAccountAddress: { points: 10, duration: 15 * 60 },
  /** Wrong passwords for one account from anywhere (a guesser with many addresses). */
  signInAccount: { points: 100, duration: 15 * 60 },
  /** Wrong passwords from one address, for any accounts (password spraying). */
  signInAddress: { points: 30, duration: 15 * 60 },
  /** Sign-ups from one address. */
  signUpAddress: { points: 20, duration: 60 * 60 },
  /** E-mails asked for one address (a confirmation, a reset): no mail bombing. */
  mailAccount: { points: 5, duration: 60 * 60 },
  /** E-mails asked from one client address. */
  mailAddress: { points: 20, duration: 60 * 60 },
} as const

/** The counts a sign-in attempt goes against, the cheapest refusal first. */
export function signInKeys(email: string, address: string | undefined): Array<[ThrottleName, string | undefined]> {
  const account = email.trim().toLowerCase()
  return [
    ['signInAddress', address],
    ['signInAccountAddress', address && `${account} ${address}`],
    ['signInAccount', account],
  ]
}

export type ThrottleName = keyof typeof THROTTLES

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Try again later.'

export interface Throttle {
  /** Counts one attempt against each key in turn; throws the 429 at the first past its limit (the later ones are not counted). */
  hit(keys: Array<[ThrottleName, string | undefined]>): Promise<void>
  /** Takes back the attempt `hit` counted (a right password): a guesser's earlier wrong ones still count. */
  forgive(keys: Array<[ThrottleName, string | undefined]>): Promise<void>
  /** Forgets every attempt of a key (an account whose owner proved it by a link e-mailed to them). */
  clear(name: ThrottleName, key: string): Promise<void>
}

/** rate-limiter-flexible's pg client, over fl0's Sql (PGlite or postgres.js): `query({ text, values })` → `{ rows, rowCount }`. */
function pgClient(sql: Sql) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const rows = (await sql.query<{ points: number | string; expire: number | string | bigint | null }>(q.text, q.values)).map((r) => ({
        ...r,
        // bigint columns come back as strings (postgres.js) or BigInt (PGlite): the limiter does arithmetic on them.
        points: Number(r.points),
        expire: r.expire === null || r.expire === undefined ? null : Number(r.expire),
      }))
      return { rows, rowCount: rows.length }
    },
  }
}

const SWEEP_EVERY_MS = 10 * 60 * 1000

/** Keys are hashed: no key outgrows its column, and the table shows no e-mail address or IP address at a glance (a hash of an IPv4 address can be reversed by trying them all). */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url')

export function createThrottle(sql: Sql, limits: Partial<Record<ThrottleName, { points: number; duration: number }>> = {}): Throttle {
  const client = pgClient(sql)
  const limiters = Object.fromEntries(
    (Object.keys(THROTTLES) as ThrottleName[]).map((name) => {
      const { points, duration } = limits[name] ?? THROTTLES[name]
      // clearExpiredByTimeout would start a timer per limiter; expired rows are reset by the upsert and never read.
      const limiter = new RateLimiterPostgres({ storeClient: client, storeType: 'pool', tableName: 'auth_throttle', tableCreated: true, clearExpiredByTimeout: false, keyPrefix: name, points, duration })
      return [name, limiter]
    }),
  ) as Record<ThrottleName, RateLimiterPostgres>

  // Rows whose window has passed are reset by the next upsert of their key; those never hit again are swept now and then.
  let sweptAt = 0
  const sweep = () => {
    if (Date.now() - sweptAt < SWEEP_EVERY_MS) return
    sweptAt = Date.now()
    sql.query('DELETE FROM auth_throttle WHERE expire < $1', [sweptAt]).catch(() => undefined) // a missed sweep costs nothing
  }
  return {
    async hit(keys) {
      sweep()
      for (const [name, key] of keys) {
        if (!key) continue // an address unknown (a request made in-process): nothing to count it under
        try {
          await limiters[name].consume(hashed(key))
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection
          // Stop here: an address already refused does not use up its target account's counts.
          throw tooManyAttempts(rejection.msBeforeNext)
        }
      }
    },
    async forgive(keys) {
      for (const [name, key] of keys) if (key) await limiters[name].reward(hashed(key), 1)
    },
    async clear(name, key) {
      await limiters[name].delete(hashed(key))
    },
  }
}

const tooManyAttempts = (ms: number) => new ApiError(429, TOO_MANY_ATTEMPTS, [], { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) })
