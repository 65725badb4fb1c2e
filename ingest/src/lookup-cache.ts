/**
 * A look-up in the metadata store, cached briefly, so that ingest at thousands
 * of requests a second does not query the store each time: write keys
 * (write-keys.ts) and webhook sources (webhook-sources.ts). Misses are cached
 * too (a flood of bad keys costs one look-up per key per TTL); a failed look-up
 * is not. invalidate() drops a key at once, which the API calls when a source
 * changes in this process; other processes (cluster ingest roles) see it within
 * the TTL.
 */
export interface LookupCache<T> {
  resolve(key: string): Promise<T | undefined>
  invalidate(key?: string): void
}

export interface LookupCacheOptions {
  ttlMs?: number
  maxEntries?: number
  now?: () => number
}

export function createLookupCache<T>(lookup: (key: string) => Promise<T | undefined>, options: LookupCacheOptions = {}): LookupCache<T> {
  const ttl = options.ttlMs ?? 2000
  const max = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const cache = new Map<string, { at: number; value: Promise<T | undefined> }>()
  return {
    resolve(key) {
      const hit = cache.get(key)
      if (hit && now() - hit.at < ttl) return hit.value
      if (cache.size >= max) cache.clear()
      const value = lookup(key)
      cache.set(key, { at: now(), value })
      value.catch(() => cache.delete(key))
      return value
    },
    invalidate(key) {
      if (key === undefined) cache.clear()
      else cache.delete(key)
    },
  }
}
