import { createLookupCache, type LookupCache, type LookupCacheOptions } from './lookup-cache.ts'

/** Write key → source, cached briefly (lookup-cache.ts). */
export interface SourceRef {
  orgId: string
  sourceId: string
}

export type WriteKeys = LookupCache<SourceRef>

export function createWriteKeyCache(lookup: (writeKey: string) => Promise<SourceRef | undefined>, options: LookupCacheOptions = {}): WriteKeys {
  return createLookupCache(lookup, options)
}
