/** Realistic Segment payloads for load: a page-view-and-product-event mix of about 600 bytes each. */
const EVENTS = ['Page Viewed', 'Report Created', 'Dashboard Viewed', 'Invite Sent', 'Feature Used']

export function trackEvent(i: number, messageId?: string) {
  return {
    type: 'track',
    ...(messageId ? { messageId } : {}),
    userId: `user-${i % 5000}`,
    anonymousId: `anon-${i % 20000}`,
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
