import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose'
import { keptOnceLoaded } from './kept-once-loaded.ts'

/**
 * ID-token verification: one path for both providers. jose checks the signature
 * against the issuer's key set, and iss, aud and exp (at the injected clock);
 * only the source of the key set differs: the external issuer's jwks_uri from
 * its discovery document, or the built-in provider's public key.
 */
export interface VerifiedIdentity {
  /** The issuer as configured (the key under which (issuer, subject) pairs are stored). */
  issuer: string
  subject: string
  email: string | undefined
  emailVerified: boolean | undefined
  name: string | undefined
  /** True for the built-in provider, whose subject is the fl0 user id. */
  local: boolean
  /** The token's own id (jti) and expiry, by which a built-in token opens one session only. */
  tokenId: string | undefined
  expiresAt: Date
}

export interface TokenVerifier {
  readonly provider: 'local' | 'oidc'
  readonly issuer: string
  readonly audience: string
  verify(token: string): Promise<VerifiedIdentity>
}

export class InvalidTokenError extends Error {}
/** The issuer's discovery document could not be read: the provider's fault or the network's, not the token's. */
export class ProviderUnavailableError extends Error {}

type KeySet = Parameters<typeof jwtVerify>[1]

function createVerifier(opts: {
  provider: 'local' | 'oidc'
  /** Read per call: the built-in issuer follows the public URL, known only once the server listens. */
  issuer: () => string
  audience: string
  keySet: () => Promise<KeySet>
  algorithms?: string[]
  requiredClaims?: string[]
  now: () => Date
}): TokenVerifier {
  return {
    provider: opts.provider,
    get issuer() {
      return opts.issuer()
    },
    audience: opts.audience,
    async verify(token) {
      const keySet = await opts.keySet()
      const issuer = opts.issuer()
      let payload: JWTPayload
      try {
        ;({ payload } = await jwtVerify(token, keySet, {
          issuer,
          audience: opts.audience,
          algorithms: opts.algorithms,
          requiredClaims: ['sub', 'exp', ...(opts.requiredClaims ?? [])],
          currentDate: opts.now(),
        }))
      } catch (error) {
        throw new InvalidTokenError((error as Error).message, { cause: error })
      }
      // The claims fl0 stores or looks up: the metadata store refuses NUL in any text, so a token carrying one is not one fl0 can sign in.
      for (const claim of ['sub', 'email', 'name', 'preferred_username'] as const) {
        const value = payload[claim]
        if (typeof value === 'string' && value.includes('\u0000')) throw new InvalidTokenError(`the ${claim} claim holds the NUL character (\\u0000)`)
      }
      return {
        issuer,
        subject: String(payload.sub),
        email: typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined,
        emailVerified: typeof payload.email_verified === 'boolean' ? payload.email_verified : undefined,
        name: typeof payload.name === 'string' ? payload.name : typeof payload.preferred_username === 'string' ? payload.preferred_username : undefined,
        local: opts.provider === 'local',
        tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
        expiresAt: new Date(payload.exp! * 1000),
      }
    },
  }
}

/**
 * An external OIDC issuer. Its discovery document is read on the first sign-in
 * (not at start, so fl0 starts while the provider is down) and again after a
 * failure; jose caches the key set and refetches it when a token names an unknown key.
 */
export function createOidcVerifier(opts: { issuer: string; clientId: string; now: () => Date; fetch?: typeof fetch }): TokenVerifier {
  const issuer = opts.issuer
  const keySet = keptOnceLoaded(() =>
    discover(issuer, opts.fetch ?? fetch).catch((error) => {
      throw new ProviderUnavailableError((error as Error).message, { cause: error })
    }),
  )
  return createVerifier({ provider: 'oidc', issuer: () => issuer, audience: opts.clientId, keySet, now: opts.now })
}

async function discover(issuer: string, fetchImpl: typeof fetch): Promise<KeySet> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`OIDC discovery: ${url} answered ${res.status}`)
  const doc = (await res.json()) as { issuer?: string; jwks_uri?: string }
  // OpenID Connect Discovery §4.3: the document's issuer must be the one asked for.
  if (doc.issuer !== issuer) throw new Error(`OIDC discovery: issuer is ${doc.issuer}, expected ${issuer}`)
  if (!doc.jwks_uri) throw new Error(`OIDC discovery: ${url} has no jwks_uri`)
  return createRemoteJWKSet(new URL(doc.jwks_uri))
}

/** The built-in provider's tokens, checked against its own public key set. */
export function createLocalVerifier(opts: { issuer: () => string; audience: string; jwks: () => Promise<JSONWebKeySet>; now: () => Date }): TokenVerifier {
  const load = keptOnceLoaded(async (): Promise<KeySet> => createLocalJWKSet(await opts.jwks()))
  // Every built-in token carries a jti: one without it (made before tokens had one) cannot be used once only, so it is not taken.
  return createVerifier({ provider: 'local', issuer: opts.issuer, audience: opts.audience, keySet: load, algorithms: ['ES256'], requiredClaims: ['jti'], now: opts.now })
}
