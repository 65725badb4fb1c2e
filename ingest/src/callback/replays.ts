/**
 * The signatures this ingest process has taken, each until its `ts` leaves the
 * window (CALLBACK_MAX_SKEW_S): a signed URL links once. Without it, one signed
 * URL, visible wherever the partner renders its pixel, could be sent again and
 * again for ten minutes, each time published to the bus and, its signature
 * being valid, never held against the sender's address (callback.ts).
 *
 * Bounded: at most `maxEntries` (100,000 by default, about 17 MB), the oldest
 * taken forgotten first when more arrive. Only more than that many valid
 * signatures within one window (about 170 a second, sustained) would let an
 * early one through twice; its link would add nothing new, as the identity
 * worker stores links in a set.
 *
 * Per process, as the rate limit is: in a cluster, a URL replayed to another
 * ingest process is caught only by that process's own record, so it may link
 * once per ingest process, adding no new link.
 *
 * A Map in insertion order: the oldest taken sit at its front. Entries expire
 * from the front as they are passed; one taken later with an earlier `ts` (a
 * partner's clock behind another's) waits behind the front at most the
 * window's width, counted within the bound meanwhile. (lru-cache would do, but
 * fl0 has it only as a development dependency of jsdom; this is the part of it
 * the callback needs.)
 */
export interface ReplayCache {
  /**
   * Takes a signature valid until `expiresAtMs`: true the first time; false
   * while it is held (a replay). Synchronous, so that two callbacks with the
   * same signature arriving together cannot both take it.
   */
  take(sig: string, expiresAtMs: number, nowMs: number): boolean
  /** How many signatures are held, expired ones not yet dropped included. */
  size(): number
}

export interface ReplayCacheOptions {
  maxEntries?: number
}

export const REPLAY_CACHE_MAX_ENTRIES = 100_000

export function createReplayCache(options: ReplayCacheOptions = {}): ReplayCache {
  const max = Math.max(1, options.maxEntries ?? REPLAY_CACHE_MAX_ENTRIES)
  const held = new Map<string, number>()

  function dropExpired(nowMs: number) {
    for (const [sig, expiresAtMs] of held) {
      if (expiresAtMs >= nowMs) return
      held.delete(sig)
    }
  }

  return {
    take(sig, expiresAtMs, nowMs) {
      dropExpired(nowMs)
      const until = held.get(sig)
      if (until !== undefined && until >= nowMs) return false
      held.delete(sig) // expired, behind the front: taken afresh at the back
      while (held.size >= max) held.delete(held.keys().next().value!)
      held.set(sig, expiresAtMs)
      return true
    },
    size: () => held.size,
  }
}
