import { Hono } from 'hono'
import {
  EMAIL_LINK_INVALID,
  INVALID_CREDENTIALS,
  NOT_THE_SIGN_UP_PASSWORD,
  localSignInSchema,
  localSignUpSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  verifyEmailSchema,
  type AuthConfig,
  type MailedResponse,
  type TokenResponse,
} from '@fl0/contracts'
import {
  createPasswordResetLink,
  createPendingSignup,
  createUser,
  deleteSessionsOfUser,
  findLocalAccount,
  findPendingSignup,
  findUserByEmail,
  findUserById,
  setLocalPassword,
  usePasswordResetLink,
  usePendingSignup,
  type User,
} from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords.ts'
import type { AccountMailKind } from '../mail/mailer.ts'
import { newSecret, publicLink, secretId } from '../auth/secrets.ts'
import { signInKeys } from '../auth/throttle.ts'

/** How long the links fl0 e-mails work: a day to confirm an address, an hour to reset a password. */
const LINK_TTL_MS: Record<AccountMailKind, number> = {
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

/** A new link's secret, where it is stored, and when it stops working. */
function newLink(deps: ApiDeps, kind: AccountMailKind) {
  const { secret, id } = newSecret()
  const expiresAt = new Date(deps.now().getTime() + LINK_TTL_MS[kind])
  return { id, url: publicLink(deps, `${LINK_PAGES[kind]}?token=${secret}`), expiresAt }
}

/**
 * E-mails a link without waiting for the mail server: the answer must not
 * take longer for an address that has an account (a mail is sent) than for
 * one that has none (none is). A failure is logged; the user asks again.
 */
function mailLater(deps: ApiDeps, to: string, kind: AccountMailKind, link: { url: string; expiresAt: Date }) {
  deps.mailer.sendAccountMail({ to, kind, link: link.url, expiresAt: link.expiresAt }).catch((err: unknown) => {
    deps.logger.error({ err, email: to, kind }, 'account e-mail failed')
  })
}

/** A reset link for `user`, stored and e-mailed (`kind`: a reset asked for, or a sign-up with their address). */
async function mailResetLink(deps: ApiDeps, user: User, kind: 'reset-password' | 'account-exists') {
  const link = newLink(deps, kind)
  await createPasswordResetLink(deps.sql, { id: link.id, userId: user.id, expiresAt: link.expiresAt }, deps.now())
  mailLater(deps, user.email, kind, link)
}

/**
 * /api/auth: which provider signs users in, and the built-in provider itself
 * (sign-up, sign-in, confirming an address, resetting a password, its key set
 * and discovery document). All public. With an external issuer configured,
 * the built-in provider's calls answer 404.
 *
 * Against a hostile network: sign-up and reset requests answer the same, in
 * the same time, whether an address has an account or not (only the e-mail
 * to that address tells); a local account is made only when the link
 * e-mailed to its address is followed with the password chosen at sign-up, so
 * before that nothing about the address changes; guesses are limited per
 * address and per account (auth/throttle.ts).
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

  /**
   * Sign-up: 202, and one row and one e-mail whether the address is new (a
   * sign-up waiting for its confirmation link) or taken (a reset link for its
   * owner, told that someone tried): the caller learns nothing either way.
   */
  app.post('/local/sign-up', jsonBody(localSignUpSchema), async (c) => {
    local()
    const { name, email, password } = c.req.valid('json')
    await deps.throttle.hit([
      ['signUpAddress', deps.clientAddress(c)],
      ['mailAccount', email],
    ])
    const passwordHash = await hashPassword(password)
    const user = await findUserByEmail(deps.sql, email)
    if (user) {
      await mailResetLink(deps, user, 'account-exists')
    } else {
      const link = newLink(deps, 'verify-email')
      await createPendingSignup(deps.sql, { id: link.id, email, name, password_hash: passwordHash, expiresAt: link.expiresAt }, deps.now())
      mailLater(deps, email, 'verify-email', link)
    }
    return c.json({ email, delivery: deps.mailer.delivery } satisfies MailedResponse, 202)
  })

  app.post('/local/sign-in', jsonBody(localSignInSchema), async (c) => {
    const provider = local()
    const { email, password } = c.req.valid('json')
    const address = deps.clientAddress(c)
    // Counted before the password is judged (a hundred guesses at once are a hundred), and forgiven when it is right.
    const attempts = signInKeys(email, address)
    await deps.throttle.hit(attempts)
    const account = await findLocalAccount(deps.sql, email)
    const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
    if (!account || !ok) throw new ApiError(401, INVALID_CREDENTIALS)
    await deps.throttle.forgive(attempts)
    return c.json({ token: await provider.issueToken(account.user) } satisfies TokenResponse)
  })

  /**
   * Following a confirmation link, with the password chosen at sign-up: the
   * account is made, and its owner signed in. Someone the link reaches who did
   * not sign up (sent it by a stranger who typed their address) cannot make
   * the account: they do not know the stranger's password.
   */
  app.post('/local/verify-email', jsonBody(verifyEmailSchema), async (c) => {
    const provider = local()
    const { token, password } = c.req.valid('json')
    const id = secretId(token)
    const pending = await findPendingSignup(deps.sql, id, deps.now())
    if (!pending) throw fieldError('token', EMAIL_LINK_INVALID)
    if (!(await verifyPassword(password, pending.password_hash))) throw fieldError('password', NOT_THE_SIGN_UP_PASSWORD)
    if (!(await usePendingSignup(deps.sql, id, pending.email))) throw fieldError('token', EMAIL_LINK_INVALID)
    let user: User
    try {
      user = await createUser(deps.sql, { email: pending.email, name: pending.name }, (tx, u) => setLocalPassword(tx, u.id, pending.password_hash))
    } catch (error) {
      // The address got an account meanwhile (an invitation's sign-in through another link): this link is spent.
      if ((error as { code?: string }).code === '23505') throw fieldError('token', EMAIL_LINK_INVALID)
      throw error
    }
    deps.logger.info({ userId: user.id, isStaff: user.is_staff }, 'local account created, its address confirmed')
    return c.json({ token: await provider.issueToken(user) } satisfies TokenResponse, 201)
  })

  /** Asking for a reset link: 202, in the same time, whether the address has an account or not. */
  app.post('/local/password-reset', jsonBody(passwordResetRequestSchema), async (c) => {
    local()
    const { email } = c.req.valid('json')
    await deps.throttle.hit([
      ['mailAddress', deps.clientAddress(c)],
      ['mailAccount', email],
    ])
    const user = await findUserByEmail(deps.sql, email)
    if (user) await mailResetLink(deps, user, 'reset-password')
    return c.json({ email, delivery: deps.mailer.delivery } satisfies MailedResponse, 202)
  })

  /**
   * Following a reset link: the new password is set, every session of the
   * account ends (whoever knew the old password is signed out), its guesses
   * are forgotten (its owner proved the address), and its owner is signed in.
   */
  app.post('/local/password-reset/confirm', jsonBody(passwordResetSchema), async (c) => {
    const provider = local()
    const { token, password } = c.req.valid('json')
    const userId = await usePasswordResetLink(deps.sql, secretId(token), deps.now())
    const user = userId ? await findUserById(deps.sql, userId) : undefined
    if (!user) throw fieldError('token', EMAIL_LINK_INVALID)
    await setLocalPassword(deps.sql, user.id, await hashPassword(password))
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
