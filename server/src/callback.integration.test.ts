import { createHmac, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * The identity callback of a running fl0, attacked and used as a partner
 * would (issue 17: 3,000 links in 1.5 s, any visitor to any person): a flood
 * from one address links at most the limit; an organisation with a secret
 * gets the links signed for it and not the unsigned ones; the admin summary
 * counts what was refused. fl0 sits behind a proxy on 127.0.0.1 here
 * (TRUSTED_PROXIES), so each test's client address is its X-Forwarded-For.
 */
const LIMIT = 60
const UP1 = '5x5-00000000000000000000000000000001'
let fl0: TestFl0
let cookie: string
const run = randomUUID().slice(0, 8)

beforeAll(async () => {
  // A window longer than the flood can take on a busy machine: the limit is then exactly LIMIT.
  fl0 = await startTestFl0({ TRUSTED_PROXIES: '127.0.0.1', FL0_CALLBACK_RATE_LIMIT: String(LIMIT), FL0_CALLBACK_RATE_WINDOW_SECONDS: '3600' })
  // The first account: staff, and the test organisation's admin (stores/src/metadata/users.ts).
  cookie = await fl0.signUp('Ada', 'ada@example.com')
})
afterAll(async () => {
  await fl0?.stop()
})

async function callback(query: Record<string, string>, client: string) {
  const res = await fetch(`${fl0.url}/i/callback?${new URLSearchParams(query)}`, { headers: { 'x-forwarded-for': client } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/gif')
  await res.arrayBuffer()
}

async function api(method: string, path: string, body?: BodyInit) {
  const res = await fetch(`${fl0.url}${path}`, { method, headers: { cookie }, body })
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(200)
  return res
}

async function summary(): Promise<Record<string, unknown>> {
  const { data } = (await (await api('GET', '/api-v2/admin/summary')).json()) as { data: Array<{ key: string; value: unknown }> }
  return Object.fromEntries(data.map((r) => [r.key, r.value]))
}

/** Polls the admin summary until `key` holds `value` (refusals are written about once a second). */
async function summaryReaches(key: string, value: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    last = (await summary())[key]
    if (last === value) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`summary ${key}: ${String(last)}, not ${value}`)
}

const links = (prefix: string) => fl0.query<{ puid: string; org_id: string }>(`SELECT puid, org_id FROM identity_links FINAL WHERE startsWith(puid, {p:String}) ORDER BY puid`, { p: prefix })

describe('the identity callback of a running fl0', () => {
  it('links at most the limit of 3,000 callbacks from one address, answering each with the pixel, and counts the rest', { timeout: 180_000 }, async () => {
    const flood = `flood-${run}-`
    const total = 3000
    for (let i = 0; i < total; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, j) => callback({ puid: `${flood}${String(i + j).padStart(4, '0')}`, upid: UP1 }, '198.51.100.7')))
    }
    // Exactly the limit got through: every other callback is counted as refused over it.
    await summaryReaches('callbacksRefusedRateLimited', total - LIMIT)
    await fl0.waitForCount(`SELECT count() AS n FROM identity_links WHERE startsWith(puid, {p:String})`, { p: flood }, LIMIT, 60_000)
    // A callback from another address, published after the flood on the same one-partition topic:
    // once it is stored, everything the flood published is too.
    await callback({ puid: `barrier-${run}`, upid: UP1 }, '198.51.100.99')
    await fl0.waitForCount(`SELECT count() AS n FROM identity_links WHERE puid = {p:String}`, { p: `barrier-${run}` }, 1, 60_000)
    expect(await links(flood)).toHaveLength(LIMIT)
  })

  it('gives an organisation with a secret the links signed for it, not the unsigned ones, and counts those it refused', { timeout: 180_000 }, async () => {
    const org = fl0.org
    const partner = '198.51.100.8'
    const csv = new FormData()
    csv.append('file', new Blob([`up_id,first_name,last_name\n${UP1},Ada,Lovelace\n`]), 'people.csv')
    expect(await (await api('POST', '/api-v2/admin/universal-table/import', csv)).text()).toContain('Done:')

    // Three visitors of the organisation's site, each with the snippet's visitor id.
    const visitor = (name: string) => ({ anonymousId: `${name}-${run}`, puid: `${name}-puid-${run}` })
    const signed = visitor('signed')
    const unsigned = visitor('unsigned')
    const named = visitor('named-unsigned')
    const batch = [signed, unsigned, named].map((v) => ({ type: 'page', anonymousId: v.anonymousId, messageId: randomUUID(), context: { puid: v.puid } }))
    const sent = await fetch(`${fl0.url}/v1/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${fl0.snippet.write_key}:`).toString('base64')}` },
      body: JSON.stringify({ batch }),
    })
    expect(sent.status).toBe(200)
    await fl0.waitForCount('SELECT count() AS n FROM identified_visits FINAL WHERE org_id = {org:String} AND puid IN {p:Array(String)}', { org: org.id, p: batch.map((e) => e.context.puid) }, 3, 60_000)

    // The admin sets the secret (the ingest has not looked this organisation up yet, so nothing of it is cached).
    const { secret } = (await (await api('POST', `/api-v2/orgs/${org.url_code}/settings/callback-secret`)).json()) as { secret: string }

    // The partner signs, as docs/identification.md shows: the version, org, ts, puid, hem and upid, one a line.
    const ts = String(Math.floor(Date.now() / 1000))
    const sig = createHmac('sha256', secret).update(['fl0-callback-v1', org.id, ts, signed.puid, '', UP1].join('\n')).digest('hex')
    await callback({ puid: signed.puid, upid: UP1, org: org.id, ts, sig }, partner)
    // Unsigned and naming the organisation: refused. Unsigned and naming none: stored, but not for it.
    await callback({ puid: named.puid, upid: UP1, org: org.id }, partner)
    await callback({ puid: unsigned.puid, upid: UP1 }, partner)
    // Signed with the wrong key, and signed ten minutes ago.
    await callback({ puid: named.puid, upid: UP1, org: org.id, ts, sig: createHmac('sha256', 'guess').update('x').digest('hex') }, partner)
    const old = String(Number(ts) - 600)
    await callback({ puid: named.puid, upid: UP1, org: org.id, ts: old, sig: createHmac('sha256', secret).update(['fl0-callback-v1', org.id, old, named.puid, '', UP1].join('\n')).digest('hex') }, partner)

    await fl0.waitForCount('SELECT count() AS n FROM identity_links FINAL WHERE puid IN {p:Array(String)}', { p: [signed.puid, unsigned.puid] }, 2, 60_000)
    expect(await links(named.puid)).toEqual([])
    expect(await links(signed.puid)).toEqual([{ puid: signed.puid, org_id: org.id }])
    expect(await links(unsigned.puid)).toEqual([{ puid: unsigned.puid, org_id: '' }])

    const visits = (await (await api('GET', `/api-v2/admin/identified-visits-table?orgId=${org.id}`)).json()) as { data: Array<{ anonymousId: string; personVia: string | null; upId: string | null }> }
    const byVisitor = Object.fromEntries(visits.data.map((v) => [v.anonymousId, [v.personVia, v.upId]]))
    expect(byVisitor).toMatchObject({
      [signed.anonymousId]: ['callback', UP1],
      [unsigned.anonymousId]: [null, null],
      [named.anonymousId]: [null, null],
    })

    await summaryReaches('callbacksRefusedMissingSignature', 1)
    await summaryReaches('callbacksRefusedBadSignature', 1)
    await summaryReaches('callbacksRefusedStaleTimestamp', 1)
    expect((await summary()).callbacksRefusedInvalidIds).toBe(0)
  })
})
