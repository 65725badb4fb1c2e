import { createPrivateKey, type KeyObject } from 'node:crypto'
import { SignJWT } from 'jose'
import { paragonAudience, PARAGON_SDK_URL_DEFAULT, PARAGON_TOKEN_TTL_SECONDS } from '@fl0/contracts'

/**
 * Paragon's Connect SDK authenticates a user with a token the product signs:
 * paragon.authenticate(projectId, token). The token is a JWT, RS256, signed with
 * the project's signing key (Paragon dashboard, Settings > SDK Setup; Paragon
 * keeps only the public half), naming the user in `sub`, the project in
 * `aud` (useparagon.com/{projectId}), with iat and exp.
 */
export interface ParagonSettings {
  projectId: string
  signingKey: KeyObject
  sdkUrl: string
}

/** What the server's configuration hands the api: the key as PEM text. */
export interface ParagonOptions {
  projectId: string
  /** PEM, PKCS#1 ("BEGIN RSA PRIVATE KEY", as Paragon's dashboard gives it) or PKCS#8. */
  signingKey: string
  sdkUrl?: string
}

/**
 * Reads an RSA private key from PEM. Paragon suggests keeping the key on one
 * line with "\n" escapes in secret stores, so those are turned back into newlines.
 */
export function parseParagonSigningKey(pem: string): KeyObject {
  const text = pem.includes('\\n') && !pem.includes('\n') ? pem.replaceAll('\\n', '\n') : pem
  let key: KeyObject
  try {
    key = createPrivateKey({ key: text.trim(), format: 'pem' })
  } catch {
    throw new Error('the Paragon signing key is not a PEM private key')
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`the Paragon signing key must be an RSA key (RS256), not ${key.asymmetricKeyType}`)
  return key
}

export function paragonSettings(options: ParagonOptions): ParagonSettings {
  return { projectId: options.projectId, signingKey: parseParagonSigningKey(options.signingKey), sdkUrl: options.sdkUrl ?? PARAGON_SDK_URL_DEFAULT }
}

/** The user token for paragon.authenticate, valid for an hour from `now`. */
export async function signParagonUserToken(settings: ParagonSettings, userId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000)
  const exp = iat + PARAGON_TOKEN_TTL_SECONDS
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(paragonAudience(settings.projectId))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(settings.signingKey)
  return { token, expiresAt: new Date(exp * 1000) }
}
