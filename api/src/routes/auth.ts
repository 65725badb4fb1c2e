import { Hono } from 'hono'
import { randomBytes } from 'node:crypto'
import {
  EMAIL_LINK_INVALID,
  EMAIL_NOT_CONFIRMED,
  emailLinkSchema,
  INVALID_CREDENTIALS,
  localSignInSchema,
  localSignUpSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  type AuthConfig,
  type MailedResponse,
  type TokenResponse,
} from '@fl0/contracts'
import {
  createEmailLink,
  createUser,
  deleteSessionsOfUser,
  findLocalAccount,
  findUserByEmail,
  findUserById,
  markEmailVerified,
  setLocalPassword,
  useEmailLink,
  type User,
} from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords.ts'
import type { AccountMailKind } from '../mail/mailer.ts'
import { sessionIdOf } from '../guard/index.ts'

/** How long the links fl0 e-mails work: a day to confirm an address, an hour to reset a password. */
export const LINK_TTL_MS: Record<AccountMailKind, number> = {
  'verify-email': 24 * 60 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
  'account-exists': 60 * 60 * 1000,
}

/** Where each e-mailed link opens in the dashboard. */
const LINK_PAGES: Record<AccountMailKind, string> = {
  'verify-email': '/account/verify-email',
  'reset-password': '/account/reset-password',
  'account-exists': '/account/reset-password',
}

/** Links are stored by this hash of their secret, as sessions are. */
const linkIdOf = sessionIdOf

/** Makes a link for `user` and e-mails it (or logs it, with no SMTP server). */
async function mailLink(deps: ApiDeps, user: User, kind: AccountMailKind) {
  const secret = randomBytes(32).toString('base64url')
  const expiresAt = new Date(deps.now().getTime() + LINK_TTL_MS[kind])
  await createEmailLink(deps.sql, { id: linkIdOf(secret), userId: user.id, purpose: kind === 'verify-email' ? 'verify-email' : 'reset-password', expiresAt }, deps.now())
  const link = `${deps.publicUrl().replace(/\/+$/, '')}${LINK_PAGES[kind]}?token=${secret}`
  await deps.mailer.sendAccountMail({ to: user.email, kind, link, expiresAt })
}

/**
 * /api/auth: which provider signs users in, and the built-in provider itself
 * (sign-up, sign-in, confirming an address, resetting a password, its key set
 * and discovery document). All public. With an external issuer configured,
 * the built-in provider's calls answer 404.
 *
 * Against a hostile network: sign-up and reset requests answer the same
 * whether an address has an account or not (only the e-mail to that address
 * tells); a new account signs in once its owner has followed the link e-mailed
 * to it; guesses are limited per address and per account (auth/throttle.ts).
 */
export function createAuthRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/config', (c) => {
    const body: AuthConfig =
      deps.tokens.provider === 'oidc'
        ? { provider: 'oidc', issuer: deps.tokens.issuer, clientId: deps.tokens.audience }
        : { provider: 'local', issuer: deps.tokens.issuer, clientId: deps.tokens.audience }
    return c.json(body)
  })

  const local = () => {
    if (!deps.local) throw notFound('The built-in sign-in is off: fl0 uses an external identity provider')
    return deps.local
  }

  /** Sign-up: 202 and an e-mail, whether the address is new or taken (the e-mail says which, to its owner only). */
  app.post('/local/sign-up', jsonBody(localSignUpSchema), async (c) => {
    local()
    const { name, email, password } = c.req.valid('json')
    await deps.throttle.hit([
      ['signUpAddress', deps.clientAddress(c)],
      ['mailAccount', email],
    ])
    // Hashed whatever comes next, so that a taken address answers in the time a new one does.
    const passwordHash = await hashPassword(password)
    let user = await findUserByEmail(deps.sql, email)
    let kind: AccountMailKind = 'account-exists'
    if (!user) {
      try {
        user = await createUser(deps.sql, { email, name }, (tx, u) => setLocalPassword(tx, u.id, passwordHash))
        kind = 'verify-email'
        deps.logger.info({ userId: user.id, isStaff: user.is_staff }, 'local account created, its address not yet confirmed')
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error
        user = await findUserByEmail(deps.sql, email) // two sign-ups of one address at once: the other made it
        if (!user) throw error
      }
    }
    // A taken address is sent a reset link: its owner signs in, or sets a password if they forgot it (or never had one here).
    await mailLink(deps, user, kind)
    return c.json({ email: user.email, delivery: deps.mailer.delivery } satisfies MailedResponse, 202)
  })

  app.post('/local/sign-in', jsonBody(localSignInSchema), async (c) => {
    const provider = local()
    const { email, password } = c.req.valid('json')
    const address = deps.clientAddress(c)
    const accountKey = email.toLowerCase()
    // Counted before the password is judged, and forgiven when it is right.
    await deps.throttle.hit([
      ['signInAddress', address],
      ['signInAccount', accountKey],
    ])
    const account = await findLocalAccount(deps.sql, email)
    const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
    if (!account || !ok) throw new ApiError(401, INVALID_CREDENTIALS)
    await deps.throttle.forgive([
      ['signInAddress', address],
      ['signInAccount', accountKey],
    ])
    if (!account.email_verified_at) {
      // The password was right, so the owner is told (and sent a new link, within the e-mail limits).
      const sendable = await deps.throttle.hit([['mailAccount', accountKey]]).then(
        () => true,
        () => false,
      )
      if (sendable) await mailLink(deps, account.user, 'verify-email')
      throw fieldError('email', EMAIL_NOT_CONFIRMED, 403)
    }
    return c.json({ token: await provider.issueToken(account.user) } satisfies TokenResponse)
  })

  /** Following the link of a confirmation e-mail: the address is proven, and its owner signed in. */
  app.post('/local/verify-email', jsonBody(emailLinkSchema), async (c) => {
    const provider = local()
    const userId = await useEmailLink(deps.sql, linkIdOf(c.req.valid('json').token), 'verify-email', deps.now())
    const user = userId ? await findUserById(deps.sql, userId) : undefined
    if (!user) throw fieldError('token', EMAIL_LINK_INVALID)
    await markEmailVerified(deps.sql, user.id, deps.now())
    deps.logger.info({ userId: user.id }, 'local account: address confirmed')
    return c.json({ token: await provider.issueToken(user) } satisfies TokenResponse)
  })

  /** Asking for a reset link: 202 whether the address has an account or not. */
  app.post('/local/password-reset', jsonBody(passwordResetRequestSchema), async (c) => {
    local()
    const { email } = c.req.valid('json')
    await deps.throttle.hit([
      ['mailAddress', deps.clientAddress(c)],
      ['mailAccount', email],
    ])
    const user = await findUserByEmail(deps.sql, email)
    if (user) await mailLink(deps, user, 'reset-password')
    return c.json({ email, delivery: deps.mailer.delivery } satisfies MailedResponse, 202)
  })

  /**
   * Following a reset link: the new password is set, the address counts as
   * proven (the link went to it), every session of the account ends (whoever
   * knew the old password is signed out), and its owner is signed in.
   */
  app.post('/local/password-reset/confirm', jsonBody(passwordResetSchema), async (c) => {
    const provider = local()
    const { token, password } = c.req.valid('json')
    const userId = await useEmailLink(deps.sql, linkIdOf(token), 'reset-password', deps.now())
    const user = userId ? await findUserById(deps.sql, userId) : undefined
    if (!user) throw fieldError('token', EMAIL_LINK_INVALID)
    await setLocalPassword(deps.sql, user.id, await hashPassword(password))
    await markEmailVerified(deps.sql, user.id, deps.now())
    const ended = await deleteSessionsOfUser(deps.sql, user.id)
    await deps.throttle.clear('signInAccount', user.email)
    deps.logger.info({ userId: user.id, sessionsEnded: ended }, 'local account: password reset')
    return c.json({ token: await provider.issueToken(user) } satisfies TokenResponse)
  })

  app.get('/local/jwks', async (c) => c.json(await local().jwks()))

  /** Discovery, so the built-in provider reads like any OIDC issuer to tools that ask. */
  app.get('/local/.well-known/openid-configuration', (c) => {
    const issuer = local().issuer()
    return c.json({
      issuer,
      jwks_uri: `${issuer}/jwks`,
      id_token_signing_alg_values_supported: ['ES256'],
      subject_types_supported: ['public'],
      response_types_supported: ['id_token'],
    })
  })

  return app
}
