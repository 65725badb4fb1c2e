import { Hono, type Context } from 'hono'
import { CALLBACK_MAX_SKEW_S, chTime, isPuid, isUpId, normalizeHem, type CallbackRefusalReason, type IdentityLinkRecord } from '@fl0/contracts'
import { requestClientIp, type TrustedProxies } from './client-ip.ts'
import { createCallbackLimiter, type CallbackLimit } from './callback/limiter.ts'
import type { RefusalCounter } from './callback/refusals.ts'
import { createReplayCache, type ReplayCache } from './callback/replays.ts'
import type { CallbackSecrets } from './callback/secrets.ts'
import { checkSignature, type SignedQuery } from './callback/signature.ts'

/** The identity callback's bus topic, consumed by the identity worker (workers/src/identity). */
export const LINKS_TOPIC = 'identity-links'

/** A 1×1 transparent GIF: 42 bytes. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

export interface CallbackDeps {
  publish: (records: Array<{ key: string; value: string }>) => Promise<void>
  /** Per client address (callback/limiter.ts); fl0's default: 60 a minute (server/src/config.ts). */
  limit: CallbackLimit
  /** Organisations' callback secrets, by `org` (callback/secrets.ts). */
  secrets: CallbackSecrets
  /** Where refusals are counted (callback/refusals.ts). */
  refusals: RefusalCounter
  /** The signatures already taken (callback/replays.ts); by default this process's own, up to 100,000. */
  replays?: ReplayCache
  /** Proxies whose X-Forwarded-For is believed (client-ip.ts): the limit is the client's, not the proxy's. */
  trustedProxies?: TrustedProxies
  logger?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  now?: () => Date
}

/** What a callback comes to: a link to publish, a refusal to count, or nothing (a look-up failed; logged). */
export type CallbackOutcome = { link: IdentityLinkRecord } | { refused: CallbackRefusalReason } | { dropped: 'lookup_failed' }

/** An organisation's id (a UUID) or url code: anything else names none. */
const ORG_REF = /^[A-Za-z0-9-]{1,64}$/

/**
 * GET /i/callback?puid=&hem=&upid=[&org=&ts=&sig=]: an identity partner's pixel
 * links the snippet's visitor id (puid) to a hashed e-mail and/or a universal
 * person id (docs/identification.md, "The identity callback").
 *
 * It answers as a pixel would, always: 200, a 1×1 GIF, no-store, whatever it
 * was given and whatever happens behind it, refusals included. A partner's tag
 * is loaded by visitors' browsers: an error would show nobody anything, could
 * break the page or make a tag retry, and a 429 would tell a flood only what
 * the counts already tell the operator. Refusals are counted by reason and
 * shown in the admin summary.
 *
 * The steps, in this order:
 * 1. the client address's allowance (callback/limiter.ts): first because it is
 *    the cheapest, and it bounds every step after it, the secret's look-up
 *    included. Over it: refused, rate_limited.
 * 2. the ids: a valid puid and at least one valid hem or upid (an invalid one
 *    beside a valid one is dropped, the valid one kept), and an `org` that
 *    could name an organisation. Otherwise: refused, invalid_ids.
 * 3. the organisation: with no `org`, or one that names no organisation with
 *    a secret, the link is stored unscoped (org_id ''), and counts for every
 *    organisation that does not require signatures; `ts` and `sig` are then
 *    not read (a partner signing for an organisation that removed its secret
 *    keeps working). An organisation with a secret needs a valid signature
 *    (callback/signature.ts): else refused, missing_signature, bad_signature
 *    or stale_timestamp.
 * 4. the signature's first use (callback/replays.ts): a valid signature this
 *    process has already taken is refused, replayed, and stays held against
 *    the address. Checked after the signature, so that only valid signatures
 *    fill the record; before the allowance is given back, so that one signed
 *    URL, visible wherever the partner's pixel is, cannot be sent without
 *    limit. A first use scopes the link to that organisation and gives the
 *    address its allowance back: a partner calling from its own servers is
 *    not limited by address.
 * The link goes on the bus, keyed by puid, and the identity worker stores it
 * in a set: a repeated callback adds nothing.
 */
export function createCallbackRoutes(deps: CallbackDeps) {
  const app = new Hono()
  const now = deps.now ?? (() => new Date())
  const limiter = createCallbackLimiter(deps.limit)
  const replays = deps.replays ?? createReplayCache()
  const trusted = deps.trustedProxies ?? []

  async function judge(q: SignedQuery, address: string): Promise<CallbackOutcome> {
    if (!(await limiter.take(address))) return { refused: 'rate_limited' }
    const puid = q.puid.trim()
    const upid = q.upid.trim()
    const hem = normalizeHem(q.hem) ?? ''
    if (!isPuid(puid) || !(isUpId(upid) || hem) || (q.org && !ORG_REF.test(q.org))) return { refused: 'invalid_ids' }
    const link = (orgId: string): CallbackOutcome => ({
      link: { puid, up_id: isUpId(upid) ? upid : '', hem, source: 'callback', linked_at: chTime(now()), org_id: orgId },
    })
    if (!q.org) return link('')
    let org
    try {
      org = await deps.secrets.resolve(q.org)
    } catch (err) {
      deps.logger?.error({ err }, 'identity callback: organisation look-up failed; link dropped')
      return { dropped: 'lookup_failed' }
    }
    if (!org?.secret) return link('')
    const nowMs = now().getTime()
    const verdict = checkSignature(q, org.secret, nowMs)
    if (verdict !== 'ok') return { refused: verdict }
    // Held until its ts leaves the window; then checkSignature refuses it as stale. Either case of hex is one signature.
    if (!replays.take(q.sig.toLowerCase(), (Number(q.ts) + CALLBACK_MAX_SKEW_S) * 1000, nowMs)) return { refused: 'replayed' }
    await limiter.giveBack(address)
    return link(org.orgId)
  }

  app.get('/i/callback', async function identityCallback(c) {
    const outcome = await judge(queryOf(c), requestClientIp(c, trusted))
    if ('refused' in outcome) deps.refusals.count(outcome.refused)
    if ('link' in outcome) {
      try {
        await deps.publish([{ key: outcome.link.puid, value: JSON.stringify(outcome.link) }])
      } catch (err) {
        deps.logger?.error({ err }, 'identity callback: publish to bus failed; link dropped')
      }
    }
    return c.body(new Uint8Array(PIXEL), 200, { 'content-type': 'image/gif', 'cache-control': 'no-store, max-age=0', 'content-length': String(PIXEL.length) })
  })
  return app
}

/** The query's values as sent (URL-decoded, the first of each name): what a partner signs. */
function queryOf(c: Context): SignedQuery {
  const q = (name: string) => c.req.query(name) ?? ''
  return { puid: q('puid'), hem: q('hem'), upid: q('upid'), org: q('org'), ts: q('ts'), sig: q('sig') }
}

