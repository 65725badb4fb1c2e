// k6 equivalent of `npx tsx bench/src/ingest.ts batch`: /v1/batch, 100 events a request.
//   k6 run -e URL=http://localhost:8080 -e WRITE_KEY=... bench/k6/batch.js
import http from 'k6/http'
import encoding from 'k6/encoding'
import { check } from 'k6'

export const options = {
  scenarios: { batch: { executor: 'constant-vus', vus: 16, duration: '30s' } },
  thresholds: { http_req_failed: ['rate<0.001'] },
}

const auth = `Basic ${encoding.b64encode(`${__ENV.WRITE_KEY}:`)}`
const EVENTS = ['Page Viewed', 'Report Created', 'Dashboard Viewed', 'Invite Sent', 'Feature Used']

function event(i) {
  return {
    type: 'track',
    userId: `user-${i % 5000}`,
    anonymousId: `anon-${i % 20000}`,
    event: EVENTS[i % EVENTS.length],
    properties: { plan: i % 3 ? 'pro' : 'free', charts: i % 17, path: `/reports/${i % 101}`, shared: i % 2 === 0 },
    context: {
      page: { url: `https://app.example.com/reports/${i % 101}`, path: `/reports/${i % 101}`, referrer: 'https://www.google.com/', title: 'Reports', search: '' },
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      library: { name: 'k6', version: '1.0.0' },
    },
    timestamp: new Date().toISOString(),
  }
}

export default function () {
  const start = (__VU * 1_000_000 + __ITER * 100)
  const body = JSON.stringify({ batch: Array.from({ length: 100 }, (_, k) => event(start + k)) })
  const res = http.post(`${__ENV.URL}/v1/batch`, body, { headers: { authorization: auth, 'content-type': 'application/json' } })
  check(res, { '200': (r) => r.status === 200 })
}
