import { createLookupCache, type LookupCache, type LookupCacheOptions } from '../lookup-cache.ts'

/**
 * A callback's `org` (an organisation's id or url code) → the organisation and
 * its secret, cached briefly (lookup-cache.ts): a secret set, rotated or
 * removed counts in every ingest process within the cache's time to live
 * (2 s). The callback asks only after the caller's address has passed the
 * rate limit, so a flood of made-up organisations costs at most the limit's
 * look-ups per address.
 */
export interface CallbackOrgSecret {
  orgId: string
  /** null: the organisation takes unsigned callbacks. */
  secret: string | null
}

export type CallbackSecrets = LookupCache<CallbackOrgSecret>

export function createCallbackSecretCache(lookup: (org: string) => Promise<CallbackOrgSecret | undefined>, options: LookupCacheOptions = {}): CallbackSecrets {
  return createLookupCache(lookup, options)
}
