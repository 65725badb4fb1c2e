import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { FieldError } from '@fl0/contracts'

/**
 * How a pipeline proves it holds a source's webhook secret. Pure: headers and
 * body text in, a verdict out.
 *
 * - Segment's Webhooks destination (classic) and Webhooks (Actions) with a
 *   Shared Secret send `X-Signature`: the hex HMAC-SHA1 of the body with the
 *   secret. Actions signs the JSON of the data it sends, which for one event is
 *   the body; for a batch (a JSON array), `X-Signature` covers only the first
 *   event (kept so by Segment for compatibility), so it cannot vouch for the
 *   rest and is not accepted for a batch. Its "Use X-Segment-Signature Header"
 *   setting sends `X-Segment-Signature` instead, over the whole body, batch
 *   included.
 * - RudderStack's Webhook destination cannot sign; it sends custom headers, so
 *   the secret travels as `Authorization: Bearer {secret}` (a custom header
 *   there, the Bearer Token authentication of its HTTP Webhook destination).
 *
 * Any one credential that holds is enough, since each alone proves the secret:
 * a batched Actions delivery with the legacy signature is accepted when a
 * Bearer header is set beside it. Comparisons are constant-time: both sides are
 * hashed to the same length and compared with timingSafeEqual, so neither the
 * content nor the length of the secret leaks through timing.
 *
 * The body is the decoded text (readBody undoes Content-Encoding), signed as
 * UTF-8: what Segment signs, JSON.stringify of the data, before any compression.
 */
export const SIGNATURE_HEADERS = ['x-segment-signature', 'x-signature'] as const

export type Credentials = { signatures: Array<{ header: string; value: string }>; bearer?: string }

export type Refusal = { ok: false; code: string; message: string; error: FieldError }
export type Verdict = { ok: true } | Refusal

/** The credentials a request carries, read from its headers alone (nothing of the body). */
export function credentialsOf(header: (name: string) => string | undefined): Credentials | undefined {
  const signatures = SIGNATURE_HEADERS.flatMap((name) => {
    const value = header(name)?.trim()
    return value ? [{ header: name, value }] : []
  })
  const bearer = /^Bearer\s+(.+)$/i.exec(header('authorization')?.trim() ?? '')?.[1]?.trim()
  if (signatures.length === 0 && !bearer) return undefined
  return { signatures, bearer }
}

export const MISSING: Refusal = {
  ok: false,
  code: 'missing_signature',
  message: 'Missing webhook signature',
  error: {
    name: 'x-signature',
    message: "must be the hex HMAC-SHA1 of the body with the source's webhook secret (Segment's Shared Secret), or send the secret as Authorization: Bearer",
  },
}

export function verify(credentials: Credentials, body: string, secret: string): Verdict {
  if (credentials.bearer !== undefined && sameText(credentials.bearer, secret)) return { ok: true }
  const expected = createHmac('sha1', secret).update(body, 'utf8').digest('hex')
  if (credentials.signatures.some((s) => sameText(s.value.toLowerCase(), expected))) return { ok: true }

  const first = credentials.signatures[0]
  if (!first) {
    return { ok: false, code: 'invalid_secret', message: 'Invalid webhook secret', error: { name: 'authorization', message: "must be Bearer followed by the source's webhook secret" } }
  }
  const batch = body.trimStart().startsWith('[')
  return {
    ok: false,
    code: 'invalid_signature',
    message: 'Invalid webhook signature',
    error: {
      name: first.header,
      message:
        first.header === 'x-signature' && batch
          ? "must be the hex HMAC-SHA1 of the whole body with the source's webhook secret: a batched Webhooks (Actions) delivery signs only its first event under X-Signature, so turn on Use X-Segment-Signature Header in the destination's settings"
          : "must be the hex HMAC-SHA1 of the body with the source's webhook secret (Segment's Shared Secret)",
    },
  }
}

function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a, 'utf8').digest(), createHash('sha256').update(b, 'utf8').digest())
}
