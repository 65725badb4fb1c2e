/**
 * Source id → what its webhook needs (organisation, secret), cached briefly as
 * write keys are (write-keys.ts): a pipeline delivering thousands of events a
 * second does not query the metadata store for each. Unknown ids are cached
 * too; invalidate() drops one at once, which the API calls when a source is
 * created or deleted in this process; other processes (cluster ingest roles)
 * see a deletion within the TTL.
 */
export interface WebhookSource {
  orgId: string
  sourceId: string
  /** The shared secret: Segment's HMAC key, RudderStack's bearer token. */
  secret: string
}

export interface WebhookSources {
  resolve(sourceId: string): Promise<WebhookSource | undefined>
  invalidate(sourceId?: string): void
}

export function createWebhookSourceCache(
  lookup: (sourceId: string) => Promise<WebhookSource | undefined>,
  options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): WebhookSources {
  const ttl = options.ttlMs ?? 2000
  const max = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const cache = new Map<string, { at: number; value: Promise<WebhookSource | undefined> }>()
  return {
    resolve(sourceId) {
      const hit = cache.get(sourceId)
      if (hit && now() - hit.at < ttl) return hit.value
      if (cache.size >= max) cache.clear()
      const value = lookup(sourceId)
      cache.set(sourceId, { at: now(), value })
      value.catch(() => cache.delete(sourceId))
      return value
    },
    invalidate(sourceId) {
      if (sourceId === undefined) cache.clear()
      else cache.delete(sourceId)
    },
  }
}
