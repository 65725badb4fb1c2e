import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JSONWebKeySet, type JWK } from 'jose'
import { getOrCreateSigningKey, type Sql, type User } from '@fl0/stores'
import { keptOnceLoaded } from './kept-once-loaded.ts'
import { publicLink } from './secrets.ts'

/**
 * fl0 as its own minimal identity provider (when no OIDC_ISSUER is set): it
 * issues ID tokens of the same shape an external issuer would (iss, aud 'fl0',
 * sub = the user id, email, name; ES256), which the dashboard posts to
 * /api/sign-in like any other. The key pair lives in the metadata store, so
 * every api process of an install signs and verifies with the same one.
 */
export const LOCAL_AUDIENCE = 'fl0'
/** A token only carries the user from the sign-in form to /api/sign-in, once. */
const TOKEN_TTL_SECONDS = 10 * 60
const KEY_PURPOSE = 'local-id-token'

export interface LocalProvider {
  issuer(): string
  jwks(): Promise<JSONWebKeySet>
  issueToken(user: Pick<User, 'id' | 'email' | 'name'>): Promise<string>
}

export function createLocalProvider(opts: { sql: Sql; publicUrl: () => string; now: () => Date }): LocalProvider {
  const load = keptOnceLoaded(async () => {
    const stored = await getOrCreateSigningKey(opts.sql, KEY_PURPOSE, async () => {
      const pair = await generateKeyPair('ES256', { extractable: true })
      const kid = randomUUID()
      return { kid, alg: 'ES256', private_jwk: { ...(await exportJWK(pair.privateKey)) }, public_jwk: { ...(await exportJWK(pair.publicKey)) } }
    })
    return {
      kid: stored.kid,
      privateKey: await importJWK(stored.private_jwk as JWK, 'ES256'),
      publicJwk: { ...(stored.public_jwk as JWK), kid: stored.kid, alg: 'ES256', use: 'sig' } as JWK,
    }
  })
  const issuer = () => publicLink(opts, '/api/auth/local')
  return {
    issuer,
    async jwks() {
      return { keys: [(await load()).publicJwk] }
    },
    async issueToken(user) {
      const { kid, privateKey } = await load()
      const iat = Math.floor(opts.now().getTime() / 1000)
      return new SignJWT({ email: user.email, name: user.name })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(issuer())
        .setAudience(LOCAL_AUDIENCE)
        .setSubject(user.id)
        // Its id, by which /api/sign-in lets it open one session only (stores' useIdTokenOnce).
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_TTL_SECONDS)
        .sign(privateKey)
    },
  }
}
