// k6 equivalent of `npx tsx bench/src/ingest.ts track`: /v1/track, one event a request.
//   k6 run -e URL=http://localhost:8080 -e WRITE_KEY=... bench/k6/track.js
import http from 'k6/http'
import encoding from 'k6/encoding'
import { check } from 'k6'

export const options = {
  scenarios: { track: { executor: 'constant-vus', vus: 32, duration: '30s' } },
  thresholds: { http_req_failed: ['rate<0.001'], http_req_duration: ['p(99)<20'] },
}

const auth = `Basic ${encoding.b64encode(`${__ENV.WRITE_KEY}:`)}`

export default function () {
  const body = JSON.stringify({
    userId: `user-${__VU}`,
    event: 'Report Created',
    properties: { charts: __ITER % 17, plan: 'pro' },
    context: { page: { url: 'https://app.example.com/reports', path: '/reports', title: 'Reports' }, library: { name: 'k6', version: '1.0.0' } },
    timestamp: new Date().toISOString(),
  })
  const res = http.post(`${__ENV.URL}/v1/track`, body, { headers: { authorization: auth, 'content-type': 'application/json' } })
  check(res, { '200': (r) => r.status === 200 })
}
