/**
 * What to do with a batch after a send: fl0's ingest answers 2xx when the
 * events are durable, 4xx when they can never be accepted, 429 or 5xx when it
 * cannot take them now; 0 stands for a network failure (offline, DNS, CORS).
 * Pure: tested in retry.test.ts.
 */

/** Delivered, or refused for good: either way the batch leaves the queue, since sending it again cannot help. */
export const settled = (status: number): boolean => status > 0 && status < 500 && status != 429

/**
 * Milliseconds before the next try: the server's Retry-After (seconds, or an
 * HTTP date) when it gave one; otherwise exponential backoff from 1 s to 1
 * minute with jitter, so that visitors who all lost the server at once do not
 * all come back at once. Never more than an hour.
 */
export const retryDelay = (failures: number, retryAfter: string | null | undefined, nowMs: number, random: number): number =>
  Math.min(36e5, +retryAfter! * 1e3 || Date.parse(retryAfter!) - nowMs || Math.min(6e4, 500 * 2 ** failures) * (1 + random))
