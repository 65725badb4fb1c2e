import { createHash, randomBytes } from 'node:crypto'

/**
 * The secrets fl0 hands out (a session's cookie, an invitation's link, a
 * confirmation or reset link): 32 random bytes, and the id they are stored
 * by, the sha256 of the secret, so that the store never holds one.
 */
export const secretId = (secret: string) => createHash('sha256').update(secret).digest('hex')

export function newSecret(): { secret: string; id: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, id: secretId(secret) }
}

/** An address under fl0's public URL (a link in an e-mail, the built-in provider's issuer). */
export const publicLink = (deps: { publicUrl: () => string }, path: string) => `${deps.publicUrl().replace(/\/+$/, '')}${path}`
