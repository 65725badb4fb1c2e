import { Hono } from 'hono'
import { INVALID_CREDENTIALS, localSignInSchema, localSignUpSchema, type AuthConfig } from '@fl0/contracts'
import { createUser, findLocalAccount, setLocalPassword } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords.ts'

export const EMAIL_TAKEN = 'An account with this email already exists'

/**
 * /api/auth: which provider signs users in, and the built-in provider itself
 * (sign-up, sign-in, its key set and discovery document). All public. With an
 * external issuer configured, the built-in provider's calls answer 404.
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

  app.post('/local/sign-up', jsonBody(localSignUpSchema), async (c) => {
    const provider = local()
    const { name, email, password } = c.req.valid('json')
    const passwordHash = await hashPassword(password)
    try {
      const user = await createUser(deps.sql, { email, name }, (tx, u) => setLocalPassword(tx, u.id, passwordHash))
      deps.logger.info({ userId: user.id, isStaff: user.is_staff }, 'local account created')
      return c.json({ token: await provider.issueToken(user) }, 201)
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw fieldError('email', EMAIL_TAKEN, 409)
      throw error
    }
  })

  app.post('/local/sign-in', jsonBody(localSignInSchema), async (c) => {
    const provider = local()
    const { email, password } = c.req.valid('json')
    const account = await findLocalAccount(deps.sql, email)
    const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
    if (!account || !ok) throw new ApiError(401, INVALID_CREDENTIALS)
    return c.json({ token: await provider.issueToken(account.user) })
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
