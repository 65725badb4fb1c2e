/**
 * The identity callback's signature and refusals (docs/identification.md, "Signed
 * callbacks"): one source for the ingest that checks a signature, the API and the
 * screen that hand out the secret, and the admin summary that counts refusals.
 *
 * A partner configured with an organisation's secret adds to its callback
 * `org` (the organisation's id or url code), `ts` (Unix seconds) and `sig`: the
 * hex HMAC-SHA256, keyed with the secret as text, of the canonical string
 * below. The values are the query's values as sent (after URL decoding), each
 * one missing written as empty.
 */
export const CALLBACK_SIGNATURE_VERSION = 'fl0-callback-v1'

/** How far `ts` may be from the server's clock, either way: partners' clocks drift, replays go stale. */
export const CALLBACK_MAX_SKEW_S = 300

export interface CallbackSignedFields {
  org: string
  ts: string
  puid: string
  hem: string
  upid: string
}

/**
 * The text a partner signs: the version, then org, ts, puid, hem and upid, one a
 * line ("\n"), no line end after the last. No value the callback accepts can
 * hold a line end (ids are printable ASCII, ts is digits), so no two different
 * callbacks share a canonical string.
 */
export function callbackCanonicalString(f: CallbackSignedFields): string {
  return [CALLBACK_SIGNATURE_VERSION, f.org, f.ts, f.puid, f.hem, f.upid].join('\n')
}

/** Why the callback refused to link: the admin summary counts each (metadata migration 0015). */
export const CALLBACK_REFUSAL_REASONS = ['rate_limited', 'bad_signature', 'stale_timestamp', 'replayed', 'missing_signature', 'invalid_ids'] as const
export type CallbackRefusalReason = (typeof CALLBACK_REFUSAL_REASONS)[number]

/** The admin summary's rows, one per reason, in this order. */
export const CALLBACK_REFUSAL_LABELS: Record<CallbackRefusalReason, { key: string; label: string }> = {
  rate_limited: { key: 'callbacksRefusedRateLimited', label: 'Identity callbacks refused: over the per-address rate limit' },
  bad_signature: { key: 'callbacksRefusedBadSignature', label: 'Identity callbacks refused: bad signature' },
  stale_timestamp: { key: 'callbacksRefusedStaleTimestamp', label: 'Identity callbacks refused: timestamp out of window' },
  replayed: { key: 'callbacksRefusedReplayed', label: 'Identity callbacks refused: signed URL already used (replayed)' },
  missing_signature: { key: 'callbacksRefusedMissingSignature', label: 'Identity callbacks refused: unsigned, for an organization that requires a signature' },
  invalid_ids: { key: 'callbacksRefusedInvalidIds', label: 'Identity callbacks refused: invalid ids' },
}

/**
 * GET, POST and DELETE /api-v2/orgs/{organization}/settings/callback-secret.
 * `secret` only in the answer of the POST that made it: it is shown once.
 */
export interface CallbackSecretState {
  /** What the partner sends as `org`: the organisation's id (its url code is accepted too). */
  orgId: string
  configured: boolean
  /** When the current secret was made (ISO 8601), or null. */
  createdAt: string | null
  secret?: string
}

export const CALLBACK_SECRET_TEXT = {
  heading: 'Identity callback',
  unsigned: 'Callbacks are accepted without a signature.',
  signed: 'Only callbacks signed with this organization’s secret are linked to it.',
  generate: 'Generate secret',
  rotate: 'Rotate secret',
  remove: 'Remove secret',
  shownOnce: 'Copy the secret now: it will not be shown again.',
  confirmRotate: 'Rotate the secret? Callbacks signed with the current one are refused from now on.',
  confirmRemove: 'Remove the secret? Unsigned callbacks are linked to this organization again.',
  generated: 'A new callback secret has been generated',
  removed: 'The callback secret has been removed',
} as const
