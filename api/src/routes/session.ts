import { Hono } from 'hono'
import { signInSchema } from '@fl0/contracts'
import { createSession, createUser, deleteExpiredSessions, deleteSession, findUserById, findUserByEmail, findUserByIdentity, linkIdentity, useIdTokenOnce, type User } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from '../http/session-cookie.ts'
import { InvalidTokenError, ProviderUnavailableError, type VerifiedIdentity } from '../auth/tokens.ts'
import { secretId } from '../auth/secrets.ts'
import { newSecret } from '../auth/secrets.ts'
import { currentUserView } from './users.ts'

export const INVALID_TOKEN = 'The sign-in token is not valid'
export const PROVIDER_UNAVAILABLE = 'The identity provider could not be reached'

/**
 * POST /api/sign-in { token }: verifies the ID token and opens a session (a row
 * keyed by the hash of a random secret; the secret goes in the httpOnly cookie).
 * POST /api/sign-out: deletes the row and clears the cookie; always 204, as the
 * dashboard ignores its errors and goes on to log out of the provider.
 */
export function createSessionRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.post('/sign-in', jsonBody(signInSchema), async (c) => {
    let identity: VerifiedIdentity
    try {
      identity = await deps.tokens.verify(c.req.valid('json').token)
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        deps.logger.warn({ reason: error.message }, 'sign-in: token refused')
        throw new ApiError(401, INVALID_TOKEN)
      }
      if (error instanceof ProviderUnavailableError) {
        deps.logger.error({ reason: error.message }, 'sign-in: identity provider unavailable')
        throw new ApiError(502, PROVIDER_UNAVAILABLE)
      }
      throw error
    }
    // The built-in provider's token opens one session: replayed (after sign-out, or by whoever read it), it is refused.
    if (identity.local && !(await useIdTokenOnce(deps.sql, identity.tokenId!, identity.expiresAt, deps.now()))) {
      deps.logger.warn({ subject: identity.subject }, 'sign-in: token already used')
      throw new ApiError(401, INVALID_TOKEN)
    }
    const user = await userFor(deps, identity)
    const { secret, id } = newSecret()
    // Expired rows are swept here, where sessions are made, rather than by a timer.
    await deleteExpiredSessions(deps.sql, deps.now())
    const expiresAt = new Date(deps.now().getTime() + deps.sessionTtlMs)
    await createSession(deps.sql, { id, userId: user.id, expiresAt })
    writeSessionCookie(c, secret, expiresAt)
    return c.json({ user: await currentUserView(deps.sql, user) })
  })

  app.post('/sign-out', async (c) => {
    const secret = readSessionCookie(c)
    if (secret) await deleteSession(deps.sql, secretId(secret))
    clearSessionCookie(c)
    return c.body(null, 204)
  })

  return app
}

/**
 * The fl0 user behind a verified token. Built-in tokens name the user by id.
 * External ones by (issuer, subject); the first sign-in creates the user, or
 * links an existing account of the same address when the provider vouches for
 * the address (email_verified), and refuses otherwise rather than hand over
 * someone else's account.
 */
async function userFor(deps: ApiDeps, identity: VerifiedIdentity): Promise<User> {
  if (identity.local) {
    const user = await findUserById(deps.sql, identity.subject)
    if (!user) throw new ApiError(401, INVALID_TOKEN)
    return user
  }
  const known = await findUserByIdentity(deps.sql, identity.issuer, identity.subject)
  if (known) return known
  if (!identity.email) throw new ApiError(401, 'The identity provider did not share an email address')
  const existing = await findUserByEmail(deps.sql, identity.email)
  if (existing) {
    if (identity.emailVerified !== true) throw new ApiError(409, 'An account with this email already exists')
    await linkIdentity(deps.sql, { issuer: identity.issuer, subject: identity.subject, userId: existing.id })
    return existing
  }
  try {
    return await createUser(deps.sql, { email: identity.email, name: identity.name ?? identity.email }, (tx, u) =>
      linkIdentity(tx, { issuer: identity.issuer, subject: identity.subject, userId: u.id }),
    )
  } catch (error) {
    // Two first sign-ins of one person at once: the other made the user; use it.
    if ((error as { code?: string }).code === '23505') {
      const user = await findUserByIdentity(deps.sql, identity.issuer, identity.subject)
      if (user) return user
    }
    throw error
  }
}
