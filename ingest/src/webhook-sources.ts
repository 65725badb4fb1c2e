import { createLookupCache, type LookupCache, type LookupCacheOptions } from './lookup-cache.ts'

/**
 * Source id → what its webhook needs (organisation, secret), cached briefly
 * (lookup-cache.ts): a pipeline delivering thousands of events a second does
 * not query the metadata store for each. The API invalidates an id when its
 * source is created or deleted.
 */
export interface WebhookSource {
  orgId: string
  sourceId: string
  /** The shared secret: Segment's HMAC key, RudderStack's bearer token. */
  secret: string
}

export type WebhookSources = LookupCache<WebhookSource>

export function createWebhookSourceCache(lookup: (sourceId: string) => Promise<WebhookSource | undefined>, options: LookupCacheOptions = {}): WebhookSources {
  return createLookupCache(lookup, options)
}
