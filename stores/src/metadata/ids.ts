import { randomBytes, randomUUID } from 'node:crypto'

export const newId = (): string => randomUUID()

/** Write keys travel in snippets and Basic auth headers: URL-safe, 32 characters, 192 bits. */
export const newWriteKey = (): string => randomBytes(24).toString('base64url')

/** A webhook's shared secret (Segment's "Shared Secret"): 32 random bytes as 64 hex characters, 256 bits. */
export const newWebhookSecret = (): string => randomBytes(32).toString('hex')
