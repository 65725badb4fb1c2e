import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, TEST_PUBLIC_URL, type TestApi } from '../testing.ts'
import { CROSS_SITE_REFUSED } from './same-origin.ts'

/**
 * Cross-site request forgery from a sibling of fl0's site (another port, a
 * subdomain): the browser sends the session cookie there, SameSite=Lax or not.
 * A change of each kind of body is refused when the browser says it comes
 * from another origin, and nothing happens: no job starts, no organisation is made.
 */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUp('Ada')) // the first account: staff
})
afterAll(() => t.close())

const jobCount = async () => ((await (await t.call('GET', '/api-v2/admin/jobs', { cookie })).json()) as { total: number }).total
const orgCount = async () => ((await (await t.call('GET', '/api/users/me', { cookie })).json()) as { orgs: unknown[] }).orgs.length

function multipart(): { body: string; type: string } {
  const boundary = 'fl0boundary'
  const body = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="ranges.csv"', 'Content-Type: text/csv', '', 'network,company_name,domain', '192.0.2.0/24,Evil Corp,evil.example', `--${boundary}--`, ''].join('\r\n')
  return { body, type: `multipart/form-data; boundary=${boundary}` }
}

/** The three kinds of body a page can send: JSON (fetch), a multipart form (an upload), none (a bare POST). */
const KINDS = {
  json: { path: '/api/orgs', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Forged', variant: 'modal' }), happened: orgCount },
  multipart: { path: '/api-v2/admin/import-ip-to-company', headers: { 'content-type': multipart().type }, body: multipart().body, happened: jobCount },
  empty: { path: '/api-v2/admin/refresh-pages-and-activities', headers: {}, body: undefined, happened: jobCount },
} as const

const send = (kind: keyof typeof KINDS, headers: Record<string, string>) => {
  const k = KINDS[kind]
  return t.app.request(`${TEST_PUBLIC_URL}${k.path}`, { method: 'POST', headers: { cookie, ...k.headers, ...headers }, body: k.body })
}

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('a %s body', (kind) => {
  it.each([
    ['another port', { origin: 'http://fl0.test:8081' }],
    ['a subdomain', { origin: 'http://evil.fl0.test' }],
    ['an opaque origin', { origin: 'null' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site', origin: 'http://fl0.test:8081' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('from %s is refused with a 403 and nothing happens', async (_, headers) => {
    const before = await KINDS[kind].happened()
    const res = await send(kind, headers)
    expect(res.status).toBe(403)
    const body = (await res.json()) as { message: string; errors: Array<{ name: string }> }
    expect(body.message).toBe(CROSS_SITE_REFUSED)
    expect(body.errors[0]!.name).toBe('sec-fetch-site' in headers ? 'sec-fetch-site' : 'origin')
    expect(await KINDS[kind].happened()).toBe(before)
  })

  it.each([
    ['fl0 itself (Origin)', { origin: TEST_PUBLIC_URL }],
    ['fl0 itself (Sec-Fetch-Site)', { 'sec-fetch-site': 'same-origin', origin: TEST_PUBLIC_URL }],
    ['no browser (neither header)', {}],
  ])('from %s goes through', async (_, headers) => {
    const before = await KINDS[kind].happened()
    const res = await send(kind, headers)
    expect(res.status).toBeLessThan(300)
    expect(await KINDS[kind].happened()).toBe(before + 1)
  })
})

it.each([
  ['PATCH', '/api/users/me/preferences', { isMenuCollapsed: true }],
  ['DELETE', '/api/orgs/nowhere/users/nobody', undefined],
  ['PUT', '/api/users/me', {}],
])('refuses %s from another origin as it refuses POST', async (method, path, body) => {
  const res = await t.call(method, path, { cookie, body, headers: { origin: 'http://fl0.test:8081', 'sec-fetch-site': 'same-site' } })
  expect(res.status).toBe(403)
  expect(((await res.json()) as { message: string }).message).toBe(CROSS_SITE_REFUSED)
})

it('refuses Sec-Fetch-Site none on a change (a navigation the user typed never posts)', async () => {
  const res = await t.call('POST', '/api/orgs', { cookie, body: { name: 'Typed', variant: 'modal' }, headers: { 'sec-fetch-site': 'none' } })
  expect(res.status).toBe(403)
})

it('leaves reading alone: a GET from another origin is answered (CORS keeps its body from the page)', async () => {
  const res = await t.call('GET', '/api/users/me', { cookie, headers: { origin: 'http://fl0.test:8081', 'sec-fetch-site': 'same-site' } })
  expect(res.status).toBe(200)
})

it('refuses sign-in from another origin too (login CSRF)', async () => {
  const res = await t.call('POST', '/api/auth/local/sign-in', { body: { email: 'ada@example.com', password: 'correct horse battery' }, headers: { origin: 'http://evil.fl0.test' } })
  expect(res.status).toBe(403)
})
