import { Hono } from 'hono'
import { chTime, isPuid, isUpId, normalizeHem, type IdentityLinkRecord } from '@fl0/contracts'

/** The identity callback's bus topic, consumed by the identity worker (workers/src/identity). */
export const LINKS_TOPIC = 'identity-links'

/** A 1×1 transparent GIF: 42 bytes. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

export interface CallbackDeps {
  publish: (records: Array<{ key: string; value: string }>) => Promise<void>
  logger?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  now?: () => Date
}

/**
 * GET /i/callback?puid=&hem=&upid=: an identity partner's pixel links the
 * snippet's visitor id (puid) to a hashed e-mail and/or a universal person id.
 *
 * It answers as a pixel would, always: 200, a 1×1 GIF, no-store, whatever
 * it was given and whatever happens behind it. A partner's tag is loaded by
 * visitors' browsers, so an error page would show nobody anything and a
 * failure must not break the page that loaded it. Only a puid with at least
 * one valid hem or upid makes a link; the rest is ignored (an invalid part is
 * dropped, a valid one kept). The link goes on the bus, keyed by puid, and
 * the identity worker stores it in a set: a repeated callback adds nothing.
 */
export function createCallbackRoutes(deps: CallbackDeps) {
  const app = new Hono()
  const now = deps.now ?? (() => new Date())
  app.get('/i/callback', async function identityCallback(c) {
    const puid = (c.req.query('puid') ?? '').trim()
    const upid = (c.req.query('upid') ?? '').trim()
    const hem = normalizeHem(c.req.query('hem') ?? '') ?? ''
    const link: IdentityLinkRecord | undefined =
      isPuid(puid) && (isUpId(upid) || hem) ? { puid, up_id: isUpId(upid) ? upid : '', hem, source: 'callback', linked_at: chTime(now()) } : undefined
    if (link) {
      try {
        await deps.publish([{ key: puid, value: JSON.stringify(link) }])
      } catch (err) {
        deps.logger?.error({ err }, 'identity callback: publish to bus failed; link dropped')
      }
    }
    return c.body(new Uint8Array(PIXEL), 200, { 'content-type': 'image/gif', 'cache-control': 'no-store, max-age=0', 'content-length': String(PIXEL.length) })
  })
  return app
}
