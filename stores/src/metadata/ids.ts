import { randomBytes, randomUUID } from 'node:crypto'

export const newId = (): string => randomUUID()

/** Write keys travel in snippets and Basic auth headers: URL-safe, 32 characters, 192 bits. */
export const newWriteKey = (): string => randomBytes(24).toString('base64url')

/**
 * A secret shared with a sender (a Segment webhook's "Shared Secret", an
 * identity partner's callback secret): 32 random bytes as 64 hex characters,
 * 256 bits, and text a shell's openssl takes as an HMAC key as it is.
 */
export const newSharedSecret = (): string => randomBytes(32).toString('hex')
