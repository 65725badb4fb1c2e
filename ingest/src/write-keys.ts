/**
 * Write key → source, cached briefly so that ingest at thousands of requests a
 * second does not query the metadata store each time. Unknown keys are cached
 * too (a flood of bad keys costs one look-up per key per TTL). invalidate() drops
 * a key at once, which the API calls when a source is deleted in this process;
 * other processes (cluster ingest roles) see it within the TTL.
 */
export interface SourceRef {
  orgId: string
  sourceId: string
}

export interface WriteKeys {
  resolve(writeKey: string): Promise<SourceRef | undefined>
  invalidate(writeKey?: string): void
}

export function createWriteKeyCache(
  lookup: (writeKey: string) => Promise<SourceRef | undefined>,
  options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): WriteKeys {
  const ttl = options.ttlMs ?? 2000
  const max = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const cache = new Map<string, { at: number; value: Promise<SourceRef | undefined> }>()
  return {
    resolve(writeKey) {
      const hit = cache.get(writeKey)
      if (hit && now() - hit.at < ttl) return hit.value
      if (cache.size >= max) cache.clear()
      const value = lookup(writeKey)
      cache.set(writeKey, { at: now(), value })
      value.catch(() => cache.delete(writeKey))
      return value
    },
    invalidate(writeKey) {
      if (writeKey === undefined) cache.clear()
      else cache.delete(writeKey)
    },
  }
}
