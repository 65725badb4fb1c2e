/** Realistic Segment payloads for load: a page-view-and-product-event mix of about 600 bytes each. */
const EVENTS = ['Page Viewed', 'Report Created', 'Dashboard Viewed', 'Invite Sent', 'Feature Used']

export function trackEvent(i: number, messageId?: string, visitors = LOAD_VISITORS) {
  return {
    type: 'track',
    ...(messageId ? { messageId } : {}),
    userId: `user-${i % 5000}`,
    anonymousId: `anon-${i % visitors}`,
    event: EVENTS[i % EVENTS.length],
    properties: { plan: i % 3 ? 'pro' : 'free', charts: i % 17, path: `/reports/${i % 101}`, shared: i % 2 === 0 },
    context: {
      page: { url: `https://app.example.com/reports/${i % 101}`, path: `/reports/${i % 101}`, referrer: 'https://www.google.com/', title: 'Reports', search: '' },
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      library: { name: 'bench', version: '1.0.0' },
      locale: 'en-GB',
      timezone: 'Europe/London',
    },
    timestamp: new Date().toISOString(),
  }
}

export function batchBody(size: number, start = 0, ids?: string[]) {
  return JSON.stringify({ batch: Array.from({ length: size }, (_, k) => trackEvent(start + k, ids?.[k])) })
}

/** The visitors a load cycles through by default (anon-0 … anon-19999, as trackEvent numbers them). */
export const LOAD_VISITORS = 20_000
const NOW = '\u0000now\u0000'

/**
 * Request bodies as a site's visitors send them, for a load generator: each
 * request's events stamped with the time it is sent, and the requests cycling
 * through `visitors` visitors (`size` events a request; `size` 1 is a
 * /v1/track body). With one body sent again and again, every event carried the
 * one time it was made and the same 100 visitors, so the identity worker's
 * visits never changed after the first request and it wrote none: the load
 * left its cost out (bench/README.md, issue 19, 2026-12-07).
 */
export function liveBodies(size: number, visitors = LOAD_VISITORS): () => string {
  const count = Math.max(1, Math.floor(visitors / size))
  // Each body as its text split where the time goes: a body is then one join, not a parse and a stringify.
  const templates = Array.from({ length: count }, (_, k) => {
    const events = Array.from({ length: size }, (_, j) => ({ ...trackEvent(k * size + j, undefined, visitors), timestamp: NOW }))
    return JSON.stringify(size === 1 ? events[0] : { batch: events }).split(JSON.stringify(NOW).slice(1, -1))
  })
  let next = 0
  return () => {
    const parts = templates[next++ % count]!
    return parts.join(new Date().toISOString())
  }
}

/** autocannon's setupRequest giving each request a body of its own (liveBodies). */
export function liveRequests(size: number, visitors = LOAD_VISITORS): <R extends { body?: unknown }>(request: R) => R {
  const next = liveBodies(size, visitors)
  return (request) => ({ ...request, body: next() })
}
