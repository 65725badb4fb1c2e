import { createHmac, timingSafeEqual } from 'node:crypto'
import { CALLBACK_MAX_SKEW_S, callbackCanonicalString, type CallbackSignedFields } from '@fl0/contracts'

/**
 * A signed callback's verdict, for an organisation that has a secret: pure,
 * the query's values, the secret and the clock in, one of four answers out.
 * The signature is checked before the time, so that a partner whose clock is
 * off sees its callbacks counted as out of window, not as badly signed.
 */
export type SignatureVerdict = 'ok' | 'missing_signature' | 'bad_signature' | 'stale_timestamp'

export interface SignedQuery extends CallbackSignedFields {
  sig: string
}

const TS = /^\d{1,12}$/
const SIG = /^[0-9a-f]{64}$/

/** The hex HMAC-SHA256 of the canonical string, keyed with the secret as text (what docs/identification.md shows partners). */
export function signCallback(fields: CallbackSignedFields, secret: string): string {
  return createHmac('sha256', secret).update(callbackCanonicalString(fields), 'utf8').digest('hex')
}

export function checkSignature(q: SignedQuery, secret: string, nowMs: number, maxSkewS = CALLBACK_MAX_SKEW_S): SignatureVerdict {
  if (!q.sig || !q.ts) return 'missing_signature'
  const sig = q.sig.toLowerCase()
  if (!SIG.test(sig)) return 'bad_signature'
  // Both sides are 32 bytes: timingSafeEqual compares them in constant time.
  if (!timingSafeEqual(Buffer.from(sig, 'hex'), Buffer.from(signCallback(q, secret), 'hex'))) return 'bad_signature'
  if (!TS.test(q.ts) || Math.abs(Number(q.ts) - nowMs / 1000) > maxSkewS) return 'stale_timestamp'
  return 'ok'
}
