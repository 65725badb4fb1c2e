import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  addCallbackRefusals,
  callbackRefusalTotals,
  createDiskBus,
  createOrganisation,
  findCallbackOrg,
  migrateMetadata,
  openPglite,
  removeCallbackSecret,
  setCallbackSecret,
  type Bus,
  type DeliveredMessage,
  type Organisation,
  type Sql,
} from '@fl0/stores'
import { createCallbackRoutes, LINKS_TOPIC, PIXEL } from './callback.ts'
import { parseTrustedProxies } from './client-ip.ts'
import { createRefusalCounter } from './callback/refusals.ts'
import { createReplayCache, type ReplayCache } from './callback/replays.ts'
import { createCallbackSecretCache } from './callback/secrets.ts'
import { signCallback } from './callback/signature.ts'

/**
 * GET /i/callback on a real disk bus and a real metadata store (PGlite): a
 * pixel always; a link only for a puid with a valid hem or upid, within the
 * address's allowance, and signed when it names an organisation that has a
 * secret, each signature once; every refusal counted by reason in the store.
 */
const UPID = '5x5-12345678901234567890123456789012'
const HEM = 'fb98d44ad7501a959f3f4f4a3f004fe2d9e581ea6207e218c4b02c08a4d75adf'
const NOW = new Date('2026-03-02T09:00:00.000Z')
const NOW_S = NOW.getTime() / 1000
let bus: Bus
let sql: Sql
let signedOrg: Organisation & { secret: string }
let openOrg: Organisation
const delivered: DeliveredMessage[] = []
let stop: () => Promise<void>
beforeAll(async () => {
  bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-callback-')) })
  const consumer = await bus.consume({ topic: LINKS_TOPIC, group: 'test', maxWaitMs: 5, onBatch: async (m) => void delivered.push(...m) })
  stop = () => consumer.stop()
  sql = await openPglite()
  await migrateMetadata(sql)
  const org = await createOrganisation(sql, 'Signed Corp')
  signedOrg = { ...org, secret: (await setCallbackSecret(sql, org.id)).secret }
  openOrg = await createOrganisation(sql, 'Open Corp')
})
afterAll(async () => {
  await stop?.()
  await bus?.close()
  await sql?.close()
})
beforeEach(async () => {
  await sql.query('DELETE FROM callback_refusals')
})

type Link = Record<string, unknown>

/** A callback app with its own allowance and counter; call() answers what it published (the bus took it before the pixel was sent). */
function setup(options: { points?: number; trusted?: string; publish?: () => Promise<void>; errors?: string[]; clock?: { now: Date }; replays?: ReplayCache } = {}) {
  const published: Link[] = []
  const refusals = createRefusalCounter({ store: (day, counts) => addCallbackRefusals(sql, day, counts), delayMs: 60_000 })
  const app = createCallbackRoutes({
    publish:
      options.publish ??
      (async (records) => {
        await bus.publish(LINKS_TOPIC, records)
        published.push(...records.map((r) => ({ key: r.key, ...JSON.parse(r.value) })))
      }),
    limit: { points: options.points ?? 1000, durationS: 60 },
    // No time to live: a secret set or removed counts at the next callback.
    secrets: createCallbackSecretCache((org) => findCallbackOrg(sql, org), { ttlMs: 0 }),
    refusals,
    replays: options.replays,
    trustedProxies: parseTrustedProxies(options.trusted ?? ''),
    logger: { warn() {}, error: (_o, m) => void options.errors?.push(m) },
    now: () => options.clock?.now ?? NOW,
  })
  async function call(query: string, init: { remote?: string; forwardedFor?: string } = {}): Promise<Link[]> {
    const before = published.length
    const headers: Record<string, string> = init.forwardedFor ? { 'x-forwarded-for': init.forwardedFor } : {}
    const res = await app.request(`http://fl0.test/i/callback${query}`, { headers }, { incoming: { socket: { remoteAddress: init.remote ?? '203.0.113.9', remotePort: 5555, remoteFamily: 'IPv4' } } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/gif')
    expect(res.headers.get('cache-control')).toContain('no-store')
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PIXEL)
    return published.slice(before)
  }
  /** What this app refused, as written to the metadata store. */
  async function stored() {
    await refusals.flush()
    return callbackRefusalTotals(sql)
  }
  return { call, refusals, stored }
}

/** A signed callback's query: org, ts and sig after the ids, as docs/identification.md shows partners. */
function signed(ids: { puid: string; hem?: string; upid?: string }, org: string, secret: string, ts = String(NOW_S)) {
  const fields = { org, ts, puid: ids.puid, hem: ids.hem ?? '', upid: ids.upid ?? '' }
  const q = new URLSearchParams({ puid: fields.puid, hem: fields.hem, upid: fields.upid, org, ts, sig: signCallback(fields, secret) })
  return `?${q}`
}

describe('GET /i/callback', () => {
  it('links a puid to a upid and a hashed e-mail (lowercased), through the bus', async () => {
    const { call } = setup()
    expect(await call(`?puid=p-1&hem=${HEM.toUpperCase()}&upid=${UPID}`)).toEqual([
      { key: 'p-1', puid: 'p-1', up_id: UPID, hem: HEM, source: 'callback', linked_at: '2026-03-02 09:00:00.000', org_id: '' },
    ])
    const deadline = Date.now() + 10_000
    while (!delivered.some((m) => m.key === 'p-1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(JSON.parse(delivered.find((m) => m.key === 'p-1')!.value)).toMatchObject({ puid: 'p-1', up_id: UPID, hem: HEM })
  })

  it('links with only one of hem and upid', async () => {
    const { call } = setup()
    expect(await call(`?puid=p-2&upid=${UPID}`)).toMatchObject([{ puid: 'p-2', up_id: UPID, hem: '' }])
    expect(await call(`?puid=p-3&hem=${HEM}`)).toMatchObject([{ puid: 'p-3', up_id: '', hem: HEM }])
  })

  it('answers the pixel, links nothing and counts invalid_ids when a part it needs is missing or invalid', async () => {
    const { call, stored } = setup()
    expect(await call(`?hem=${HEM}&upid=${UPID}`)).toEqual([]) // no puid
    expect(await call('?puid=p-4')).toEqual([]) // neither hem nor upid
    expect(await call('')).toEqual([]) // nothing at all
    expect(await call(`?puid=p-5&upid=5x5-123`)).toEqual([])
    expect(await call(`?puid=p-5&hem=not-a-hash`)).toEqual([])
    expect(await call(`?puid=${'x'.repeat(201)}&upid=${UPID}`)).toEqual([])
    expect(await call(`?puid=has%20space&upid=${UPID}`)).toEqual([])
    expect(await call(`?puid=p-5&upid=${UPID}&org=${encodeURIComponent("x' OR 1=1")}`)).toEqual([]) // no organisation is named so
    expect(await stored()).toEqual({ invalid_ids: 8 })
  })

  it('keeps the valid part when the other is invalid', async () => {
    const { call, stored } = setup()
    expect(await call(`?puid=p-6&hem=zzz&upid=${UPID}`)).toMatchObject([{ puid: 'p-6', up_id: UPID, hem: '' }])
    expect(await stored()).toEqual({})
  })

  it('still answers the pixel when the bus is down', async () => {
    const errors: string[] = []
    const { call } = setup({ publish: async () => Promise.reject(new Error('bus down')), errors })
    expect(await call(`?puid=p-7&upid=${UPID}`)).toEqual([])
    expect(errors).toEqual(['identity callback: publish to bus failed; link dropped'])
  })
})

describe('the per-address limit', () => {
  it('links the limit from one address; past it answers the pixel, links nothing and counts rate_limited', async () => {
    const { call, stored } = setup({ points: 5 })
    const links: Link[] = []
    for (let i = 0; i < 12; i++) links.push(...(await call(`?puid=flood-${i}&upid=${UPID}`, { remote: '198.51.100.1' })))
    expect(links.map((l) => l.puid)).toEqual(['flood-0', 'flood-1', 'flood-2', 'flood-3', 'flood-4'])
    // Another address has its own allowance.
    expect(await call(`?puid=other&upid=${UPID}`, { remote: '198.51.100.2' })).toHaveLength(1)
    // Refused before anything else is read: an invalid callback over the limit is counted as over the limit.
    expect(await call('?puid=p', { remote: '198.51.100.1' })).toEqual([])
    expect(await stored()).toEqual({ rate_limited: 8 })
  })

  it('counts an IPv6 client by its /64', async () => {
    const { call, stored } = setup({ points: 2 })
    for (let i = 0; i < 4; i++) await call(`?puid=v6-${i}&upid=${UPID}`, { remote: `2001:db8:5:6::${i + 1}` })
    expect(await call(`?puid=v6-x&upid=${UPID}`, { remote: '2001:db8:5:7::1' })).toHaveLength(1)
    expect(await stored()).toEqual({ rate_limited: 2 })
  })

  it('limits the client behind a trusted proxy, not the proxy; an untrusted caller cannot pose as many', async () => {
    const behind = setup({ points: 1, trusted: '10.0.0.0/8' })
    for (const client of ['198.51.100.10', '198.51.100.11', '198.51.100.12']) {
      expect(await behind.call(`?puid=${client}&upid=${UPID}`, { remote: '10.0.0.5', forwardedFor: client })).toHaveLength(1)
    }
    expect(await behind.call(`?puid=again&upid=${UPID}`, { remote: '10.0.0.5', forwardedFor: '198.51.100.10' })).toEqual([])

    const direct = setup({ points: 1, trusted: '10.0.0.0/8' })
    expect(await direct.call(`?puid=d-1&upid=${UPID}`, { remote: '203.0.113.50', forwardedFor: '198.51.100.20' })).toHaveLength(1)
    expect(await direct.call(`?puid=d-2&upid=${UPID}`, { remote: '203.0.113.50', forwardedFor: '198.51.100.21' })).toEqual([])
  })
})

describe('signed callbacks', () => {
  it('links a callback signed with the organisation’s secret to that organisation, named by id or url code', async () => {
    const { call, stored } = setup()
    expect(await call(signed({ puid: 's-1', upid: UPID }, signedOrg.id, signedOrg.secret))).toMatchObject([{ puid: 's-1', up_id: UPID, org_id: signedOrg.id }])
    expect(await call(signed({ puid: 's-2', hem: HEM }, signedOrg.url_code, signedOrg.secret))).toMatchObject([{ puid: 's-2', hem: HEM, org_id: signedOrg.id }])
    expect(await stored()).toEqual({})
  })

  it('refuses, and counts by reason, what an organisation with a secret did not sign', async () => {
    const { call, stored } = setup()
    const org = signedOrg.id
    // Unsigned, or half signed.
    expect(await call(`?puid=u-1&upid=${UPID}&org=${org}`)).toEqual([])
    expect(await call(`${signed({ puid: 'u-2', upid: UPID }, org, signedOrg.secret)}`.replace(/&sig=[0-9a-f]+/, ''))).toEqual([])
    // Signed with another key, or for other ids than those sent.
    expect(await call(signed({ puid: 'u-3', upid: UPID }, org, 'f'.repeat(64)))).toEqual([])
    expect(await call(signed({ puid: 'u-4', upid: UPID }, org, signedOrg.secret).replace('u-4', 'u-5'))).toEqual([])
    expect(await call(signed({ puid: 'u-6', upid: UPID }, org, signedOrg.secret).replace(/sig=[0-9a-f]+/, 'sig=xyz'))).toEqual([])
    // Signed, but six minutes old or ahead: a replay, or a clock astray.
    expect(await call(signed({ puid: 'u-7', upid: UPID }, org, signedOrg.secret, String(NOW_S - 360)))).toEqual([])
    expect(await call(signed({ puid: 'u-8', upid: UPID }, org, signedOrg.secret, String(NOW_S + 360)))).toEqual([])
    expect(await stored()).toEqual({ missing_signature: 2, bad_signature: 3, stale_timestamp: 2 })
  })

  it('links unscoped what names no organisation, one without a secret, or one that does not exist', async () => {
    const { call, stored } = setup()
    expect(await call(`?puid=n-1&upid=${UPID}`)).toMatchObject([{ org_id: '' }])
    expect(await call(`?puid=n-2&upid=${UPID}&org=${openOrg.id}`)).toMatchObject([{ org_id: '' }])
    // Signed for an organisation that has no secret (it removed it, say): nothing to check, the link is unscoped.
    expect(await call(signed({ puid: 'n-3', upid: UPID }, openOrg.url_code, 'e'.repeat(64)))).toMatchObject([{ org_id: '' }])
    expect(await call(`?puid=n-4&upid=${UPID}&org=no-such-org`)).toMatchObject([{ org_id: '' }])
    expect(await stored()).toEqual({})
  })

  it('follows a secret set, rotated and removed', async () => {
    const { call } = setup()
    const org = await createOrganisation(sql, 'Rotating Corp')
    const first = (await setCallbackSecret(sql, org.id)).secret
    expect(await call(signed({ puid: 'r-1', upid: UPID }, org.id, first))).toMatchObject([{ org_id: org.id }])
    const second = (await setCallbackSecret(sql, org.id)).secret
    expect(await call(signed({ puid: 'r-2', upid: UPID }, org.id, first))).toEqual([])
    expect(await call(signed({ puid: 'r-3', upid: UPID }, org.id, second))).toMatchObject([{ org_id: org.id }])
    await removeCallbackSecret(sql, org.id)
    expect(await call(`?puid=r-4&upid=${UPID}&org=${org.id}`)).toMatchObject([{ org_id: '' }])
  })

  it('does not hold a valid signature against the address: a partner may call from its own servers', async () => {
    const { call, stored } = setup({ points: 3 })
    const links: Link[] = []
    for (let i = 0; i < 10; i++) links.push(...(await call(signed({ puid: `srv-${i}`, upid: UPID }, signedOrg.id, signedOrg.secret), { remote: '192.0.2.80' })))
    expect(links).toHaveLength(10)
    // Badly signed ones are: the address is held to its allowance.
    for (let i = 0; i < 5; i++) await call(signed({ puid: `bad-${i}`, upid: UPID }, signedOrg.id, '0'.repeat(64)), { remote: '192.0.2.80' })
    expect(await stored()).toEqual({ bad_signature: 3, rate_limited: 2 })
  })
})

describe('replayed signatures', () => {
  it('links a signed URL once: sent again, in either case of hex, it is refused, counted, and held against the address', async () => {
    const { call, stored } = setup({ points: 3 })
    const url = signed({ puid: 'rp-1', upid: UPID }, signedOrg.id, signedOrg.secret)
    const from = { remote: '192.0.2.90' }
    expect(await call(url, from)).toMatchObject([{ puid: 'rp-1', org_id: signedOrg.id }])
    expect(await call(url, from)).toEqual([])
    expect(await call(url.replace(/sig=([0-9a-f]+)/, (_, sig: string) => `sig=${sig.toUpperCase()}`), from)).toEqual([])
    expect(await call(url, from)).toEqual([])
    // The first use gave its allowance back, the three replays did not: the address has spent its three.
    expect(await call(url, from)).toEqual([])
    expect(await stored()).toEqual({ replayed: 3, rate_limited: 1 })
    // Signed afresh (another second), the same ids link again: each callback is signed anew.
    const fresh = signed({ puid: 'rp-1', upid: UPID }, signedOrg.id, signedOrg.secret, String(NOW_S + 1))
    expect(await call(fresh, { remote: '192.0.2.91' })).toMatchObject([{ puid: 'rp-1', org_id: signedOrg.id }])
  })

  it('holds a signature until its ts leaves the window, then lets it go: the URL is stale, a fresh signature links', async () => {
    const clock = { now: NOW }
    const replays = createReplayCache()
    const { call, stored } = setup({ clock, replays })
    const url = signed({ puid: 'rp-2', upid: UPID }, signedOrg.id, signedOrg.secret)
    expect(await call(url)).toHaveLength(1)
    clock.now = new Date(NOW.getTime() + 300_000) // the last moment of its window
    expect(await call(url)).toEqual([])
    clock.now = new Date(NOW.getTime() + 301_000)
    expect(await call(url)).toEqual([])
    expect(await stored()).toEqual({ replayed: 1, stale_timestamp: 1 })
    expect(replays.size()).toBe(1)
    const fresh = signed({ puid: 'rp-2', upid: UPID }, signedOrg.id, signedOrg.secret, String(NOW_S + 301))
    expect(await call(fresh)).toMatchObject([{ puid: 'rp-2', org_id: signedOrg.id }])
    // The expired signature was dropped to make room: only the fresh one is held.
    expect(replays.size()).toBe(1)
    expect(await call(fresh)).toEqual([])
  })

  it('at its cap forgets the oldest signature first: that URL links once more, the others stay refused', async () => {
    const replays = createReplayCache({ maxEntries: 2 })
    const { call, stored } = setup({ replays })
    const urls = ['rp-a', 'rp-b', 'rp-c'].map((puid) => signed({ puid, upid: UPID }, signedOrg.id, signedOrg.secret))
    for (const url of urls) expect(await call(url)).toHaveLength(1)
    expect(replays.size()).toBe(2)
    expect(await call(urls[2]!)).toEqual([])
    expect(await call(urls[0]!)).toMatchObject([{ puid: 'rp-a' }]) // forgotten; its link adds nothing new to the identity worker's set
    expect(await stored()).toEqual({ replayed: 1 })
  })
})
