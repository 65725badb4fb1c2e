import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSourceByWriteKey, findWebhookSource } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import type { SegmentDefaults, SnippetDefaults, SourceMetrics, SourceView } from '@fl0/contracts'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * Sources (spec part 1 §5, §7): defaults, list, one, metrics from the real
 * events store (chDB), create with the handed-out id and key, update, delete.
 */
let t: TestApi
let cookie: string
let strangerCookie: string
const revoked: string[] = []
const revokedWebhooks: string[] = []

beforeAll(async () => {
  t = await createTestApi({ revokeWriteKey: (key) => void revoked.push(key), revokeWebhook: (id) => void revokedWebhooks.push(id) })
  ;({ cookie } = await t.signUpWithOrg('Ada', 'Acme'))
  ;({ cookie: strangerCookie } = await t.signUpWithOrg('Eve', 'Elsewhere'))
})
afterAll(() => t.close())

const base = '/api/orgs/acme/sources'
const list = async () => (await (await t.call('GET', base, { cookie })).json()) as SourceView[]
const create = (body: unknown, as = cookie, org = 'acme') => t.call('POST', `/api/orgs/${org}/sources`, { cookie: as, body })
const segmentDefaults = async () => (await (await t.call('GET', '/api/sources/segment', { cookie })).json()) as SegmentDefaults
const snippetDefaults = async () => (await (await t.call('GET', '/api/t/snippet', { cookie })).json()) as SnippetDefaults
const errorsOf = async (res: Response) => ((await res.json()) as { errors: unknown[] }).errors

async function newSegment(name = 'segment') {
  const d = await segmentDefaults()
  const res = await create({ id: d.id, type: 'segment', name, apiKey: d.api_key })
  expect(res.status).toBe(201)
  return (await res.json()) as SourceView
}

async function newSnippet(url: string, name = 'js-snippet') {
  const d = await snippetDefaults()
  const res = await create({ id: d.id, type: 'snippet', name, url, apiKey: d.api_key })
  expect(res.status).toBe(201)
  return (await res.json()) as SourceView & { type: 'snippet' }
}

describe('GET /api/sources/segment', () => {
  it('answers a fresh id and key and the default name, storing nothing', async () => {
    const res = await t.call('GET', '/api/sources/segment', { cookie })
    expect(res.status).toBe(200)
    const d = (await res.json()) as SegmentDefaults
    expect(d).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'segment', api_key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) })
    expect((await segmentDefaults()).api_key).not.toBe(d.api_key)
    expect(await findSourceByWriteKey(t.sql, d.api_key)).toBeUndefined()
  })

  it('needs a signed-in user', async () => {
    expect((await t.call('GET', '/api/sources/segment')).status).toBe(401)
  })
})

describe('creating a source', () => {
  it('an empty organisation lists no source', async () => {
    expect(await list()).toEqual([])
  })

  it('creates a Segment source with the id and key the defaults handed out', async () => {
    const d = await segmentDefaults()
    const res = await create({ id: d.id, type: 'segment', name: '  Backend pipeline', apiKey: d.api_key })
    expect(res.status).toBe(201)
    const webhook = { webhook_url: `http://fl0.test/v1/webhooks/${d.id}`, webhook_secret: expect.stringMatching(/^[0-9a-f]{64}$/) }
    expect(await res.json()).toEqual({ id: d.id, type: 'segment', name: 'Backend pipeline', api_key: d.api_key, ...webhook })
    expect(await list()).toContainEqual({ id: d.id, type: 'segment', name: 'Backend pipeline', api_key: d.api_key, ...webhook })
    // The ingest's cached "unknown key" answer for it, if any, is dropped.
    expect(revoked).toContain(d.api_key)
  })

  it('creates a snippet source whose code carries the key the user may already have pasted', async () => {
    const d = await snippetDefaults()
    const res = await create({ id: d.id, type: 'snippet', name: 'Website', url: ' www.acme.com ', apiKey: d.api_key })
    expect(res.status).toBe(201)
    const view = (await res.json()) as SourceView
    expect(view).toEqual({ id: d.id, type: 'snippet', name: 'Website', api_key: d.api_key, url: 'www.acme.com', snippet: d.snippet, detected: false })
    const one = await t.call('GET', `${base}/${d.id}`, { cookie })
    expect(await one.json()).toEqual(view)
  })

  it('makes a fresh id and key when none is posted', async () => {
    const res = await create({ type: 'segment', name: 'no ids' })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), api_key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) })
  })

  it.each([
    [{ type: 'segment' }, 'name', 'Name must be provided'],
    [{ type: 'segment', name: '   ' }, 'name', 'Name must be provided'],
    [{ type: 'segment', name: 'x'.repeat(100) }, 'name', 'Name must have less than 100 characters'],
    [{ type: 'snippet', name: 'site' }, 'url', 'Domain must be provided'],
    [{ type: 'snippet', name: 'site', url: '  ' }, 'url', 'Domain must be provided'],
    [{ type: 'snippet', name: 'site', url: `${'a'.repeat(296)}.com` }, 'url', 'Domain must have less than 300 characters'],
    [{ type: 'snippet', name: 'site', url: 'localhost' }, 'url', 'Domain must be valid (e.g. a www domain)'],
    [{ type: 'snippet', name: 'site', url: 'https://acme.com' }, 'url', 'Domain must not start with http:// or https://'],
    [{ type: 'ftp', name: 'x' }, 'type', 'Type must be segment or snippet'],
    [{ type: 'segment', name: 'x', id: "1'; DROP TABLE sources; --" }, 'id', 'The source id is not one fl0 hands out'],
    [{ type: 'segment', name: 'x', apiKey: 'short' }, 'apiKey', 'The API key is not one fl0 hands out'],
    [{ type: 'segment', name: 'x', apiKey: 'a'.repeat(31) + '!' }, 'apiKey', 'The API key is not one fl0 hands out'],
  ])('refuses %j: %s %s', async (body, name, message) => {
    const before = (await list()).length
    const res = await create(body)
    expect(res.status).toBe(400)
    const json = (await res.json()) as { success: boolean; message: string; errors: unknown[] }
    expect(json).toEqual({ success: false, message, errors: [{ name, message }] })
    expect(await list()).toHaveLength(before)
  })

  it('accepts a name of 99 characters and a domain of 299', async () => {
    const d = await snippetDefaults()
    expect((await create({ id: d.id, type: 'snippet', name: 'n'.repeat(99), url: `${'a'.repeat(295)}.com`, apiKey: d.api_key })).status).toBe(201)
  })

  it('refuses an id or key that is taken, here or in another organisation: 409', async () => {
    const taken = await newSegment('first')
    const fresh = await segmentDefaults()
    const sameId = await create({ id: taken.id, type: 'segment', name: 'again', apiKey: fresh.api_key })
    expect(sameId.status).toBe(409)
    expect(await errorsOf(sameId)).toEqual([{ name: 'id', message: 'This source id is already in use; open a new source again to get a fresh one' }])
    const sameKey = await create({ id: fresh.id, type: 'segment', name: 'again', apiKey: taken.api_key })
    expect(sameKey.status).toBe(409)
    expect(await errorsOf(sameKey)).toEqual([{ name: 'apiKey', message: 'This API key is already in use; open a new source again to get a fresh one' }])
    // Someone in another organisation who learnt the key cannot claim it either.
    const elsewhere = await create({ id: fresh.id, type: 'segment', name: 'mine now', apiKey: taken.api_key }, strangerCookie, 'elsewhere')
    expect(elsewhere.status).toBe(409)
    expect((await findSourceByWriteKey(t.sql, taken.api_key))?.name).toBe('first')
  })

  it('creates once when the same new source is posted twice at once; the other gets a 409 naming the id', async () => {
    const d = await segmentDefaults()
    const answers = await Promise.all([1, 2, 3].map(() => create({ id: d.id, type: 'segment', name: 'twice', apiKey: d.api_key })))
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409])
    for (const r of answers.filter((a) => a.status === 409)) {
      expect(await errorsOf(r)).toEqual([{ name: 'id', message: 'This source id is already in use; open a new source again to get a fresh one' }])
    }
    expect((await list()).filter((x) => x.id === d.id)).toHaveLength(1)
  })

  it('never gives a deleted source’s key or id to a new one: it may still sit in snippets on websites', async () => {
    const gone = await newSnippet('old.acme.com', 'old site')
    expect((await t.call('DELETE', `${base}/${gone.id}`, { cookie })).status).toBe(204)
    const fresh = await snippetDefaults()
    const res = await create({ id: fresh.id, type: 'snippet', name: 'old site', url: 'old.acme.com', apiKey: gone.api_key }, strangerCookie, 'elsewhere')
    expect(res.status).toBe(409)
    const sameId = await create({ id: gone.id, type: 'snippet', name: 'old site', url: 'old.acme.com', apiKey: fresh.api_key })
    expect(sameId.status).toBe(409)
  })
})

describe("a Segment source's webhook", () => {
  it('is read with the source, list and one alike: its URL under /v1/webhooks and the stored secret', async () => {
    const s = (await newSegment('hooked')) as SourceView & { type: 'segment' }
    const stored = await findWebhookSource(t.sql, s.id)
    expect(s.webhook_secret).toBe(stored!.webhook_secret)
    expect(s.webhook_url).toBe(`http://fl0.test/v1/webhooks/${s.id}`)
    expect(await (await t.call('GET', `${base}/${s.id}`, { cookie })).json()).toEqual(s)
    expect((await list()).find((x) => x.id === s.id)).toEqual(s)
    // The ingest's cached "no such webhook" answer for the new id, if any, is dropped.
    expect(revokedWebhooks).toContain(s.id)
  })

  it('keeps its secret when the source is renamed', async () => {
    const s = (await newSegment('renamed hook')) as SourceView & { type: 'segment' }
    const res = await t.call('PATCH', `${base}/${s.id}`, { cookie, body: { name: 'Renamed' } })
    expect(await res.json()).toEqual({ ...s, name: 'Renamed' })
  })

  it('gives each source its own secret', async () => {
    const [a, b] = [(await newSegment('one')) as SourceView & { type: 'segment' }, (await newSegment('two')) as SourceView & { type: 'segment' }]
    expect(a.webhook_secret).not.toBe(b.webhook_secret)
  })

  it('is not a snippet source’s: it has no webhook', async () => {
    const s = await newSnippet('nohook.acme.com')
    expect(s).not.toHaveProperty('webhook_url')
    expect(s).not.toHaveProperty('webhook_secret')
    expect(await findWebhookSource(t.sql, s.id)).toBeUndefined()
  })

  it('is on the address the dashboard was reached at', async () => {
    const s = await newSegment('reached')
    const res = await t.call('GET', `${base}/${s.id}`, { cookie, url: 'https://analytics.acme.test:8443' })
    expect(((await res.json()) as { webhook_url: string }).webhook_url).toBe(`https://analytics.acme.test:8443/v1/webhooks/${s.id}`)
  })

  it('is on FL0_PUBLIC_URL when set, whatever address the request came to', async () => {
    const configured = await createTestApi({ configuredPublicUrl: 'https://fl0.acme.com/' })
    try {
      const { cookie: c } = await configured.signUpWithOrg('Bea', 'Bea Co')
      const res = await configured.call('POST', '/api/orgs/bea-co/sources', { cookie: c, body: { type: 'segment', name: 'segment' }, url: 'http://10.0.0.7:8080' })
      const view = (await res.json()) as { id: string; webhook_url: string }
      expect(view.webhook_url).toBe(`https://fl0.acme.com/v1/webhooks/${view.id}`)
    } finally {
      await configured.close()
    }
  })

  it('is for members only: another organisation, or no session, gets neither URL nor secret', async () => {
    const s = await newSegment('members only')
    const stranger = await t.call('GET', `/api/orgs/acme/sources/${s.id}`, { cookie: strangerCookie })
    expect(stranger.status).toBe(404)
    expect(await stranger.text()).not.toContain((s as { webhook_secret: string }).webhook_secret)
    expect((await t.call('GET', `/api/orgs/acme/sources/${s.id}`)).status).toBe(401)
    expect((await t.call('GET', '/api/orgs/acme/sources')).status).toBe(401)
  })

  it('stops with the source: deleting it revokes the webhook in the ingest', async () => {
    const s = await newSegment('hook to delete')
    expect((await t.call('DELETE', `${base}/${s.id}`, { cookie })).status).toBe(204)
    expect(revokedWebhooks[revokedWebhooks.length - 1]).toBe(s.id)
    expect(await findWebhookSource(t.sql, s.id)).toBeUndefined()
  })
})

describe('updating a source', () => {
  it('renames a Segment source; a domain sent along is not its to keep', async () => {
    const s = await newSegment()
    const res = await t.call('PATCH', `${base}/${s.id}`, { cookie, body: { name: 'Warehouse', url: 'acme.com' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ...s, name: 'Warehouse' })
  })

  it('changes a snippet source’s name and domain, with the same rules', async () => {
    const s = await newSnippet('acme.com')
    const res = await t.call('PATCH', `${base}/${s.id}`, { cookie, body: { name: 'Shop', url: 'shop.acme.com' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: s.id, name: 'Shop', url: 'shop.acme.com', api_key: s.api_key, snippet: s.snippet })
    const bad = await t.call('PATCH', `${base}/${s.id}`, { cookie, body: { name: '', url: 'http://shop.acme.com' } })
    expect(bad.status).toBe(400)
    expect(await errorsOf(bad)).toEqual([
      { name: 'name', message: 'Name must be provided' },
      { name: 'url', message: 'Domain must not start with http:// or https://' },
    ])
    const missing = await t.call('PATCH', `${base}/${s.id}`, { cookie, body: { name: 'Shop' } })
    expect(await errorsOf(missing)).toEqual([{ name: 'url', message: 'Domain must be provided' }])
  })

  it('is a 404 for an unknown source', async () => {
    const res = await t.call('PATCH', `${base}/no-such-source`, { cookie, body: { name: 'x' } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ success: false, message: 'Source not found', errors: [] })
  })
})

describe('deleting a source', () => {
  it('removes it from the list, revokes its write key, and a second delete is a 404', async () => {
    const s = await newSegment('to delete')
    const res = await t.call('DELETE', `${base}/${s.id}`, { cookie })
    expect(res.status).toBe(204)
    expect(revoked[revoked.length - 1]).toBe(s.api_key)
    expect((await list()).map((x) => x.id)).not.toContain(s.id)
    expect(await findSourceByWriteKey(t.sql, s.api_key)).toBeUndefined()
    expect((await t.call('GET', `${base}/${s.id}`, { cookie })).status).toBe(404)
    expect((await t.call('DELETE', `${base}/${s.id}`, { cookie })).status).toBe(404)
  })
})

describe("another organisation's source", () => {
  it('is not found through a member’s own organisation: read, metrics, update, delete', async () => {
    const s = await newSegment('private')
    const other = `/api/orgs/elsewhere/sources/${s.id}`
    for (const [method, path] of [
      ['GET', other],
      ['GET', `${other}/metrics`],
      ['PATCH', other],
      ['DELETE', other],
    ] as const) {
      const res = await t.call(method, path, { cookie: strangerCookie, body: method === 'PATCH' ? { name: 'stolen' } : undefined })
      expect([method, path, res.status]).toEqual([method, path, 404])
    }
    expect((await t.call('GET', '/api/orgs/elsewhere/sources', { cookie: strangerCookie }).then((r) => r.json())) as SourceView[]).toEqual([])
    expect(await findSourceByWriteKey(t.sql, s.api_key)).toMatchObject({ name: 'private' })
  })
})

describe('metrics', () => {
  // The test clock: 2026-03-02T09:00Z.
  const at = (iso: string) => new Date(iso)
  let orgId: string
  let source: SourceView
  let otherSource: SourceView

  beforeAll(async () => {
    await t.createOrg(cookie, 'Metrics Co')
    const make = async (name: string) => {
      const d = await segmentDefaults()
      return (await (await create({ id: d.id, type: 'segment', name, apiKey: d.api_key }, cookie, 'metrics-co')).json()) as SourceView
    }
    source = await make('app')
    otherSource = await make('other')
    orgId = (await findSourceByWriteKey(t.sql, source.api_key))!.org_id
    const row = (p: { at: string; user?: string; anon?: string; source?: string; org?: string }) =>
      eventRow({ org_id: p.org ?? orgId, source_id: p.source ?? source.id, timestamp: at(p.at), user_id: p.user ?? '', anonymous_id: p.anon ?? '', event: 'E' })
    await insertEvents(t.events, [
      // Today (UTC), twice by one signed-in user who first came anonymously.
      row({ at: '2026-03-02T08:00:00Z', anon: 'a1' }),
      row({ at: '2026-03-02T08:30:00Z', anon: 'a1', user: 'u1' }),
      row({ at: '2026-03-02T08:45:00Z', user: 'u1' }),
      // Yesterday: an anonymous visitor who never signs in, twice, and a second user.
      row({ at: '2026-03-01T12:00:00Z', anon: 'a2' }),
      row({ at: '2026-03-01T13:00:00Z', anon: 'a2' }),
      row({ at: '2026-03-01T23:30:00Z', user: 'u2' }),
      // The first day of the window, and the day before it (counted in the totals only).
      row({ at: '2026-02-01T00:00:00Z', anon: 'a3' }),
      row({ at: '2026-01-31T23:59:59Z', anon: 'a4' }),
      // An event with no id at all: an event, not a user.
      row({ at: '2026-02-15T10:00:00Z' }),
      // Not this source's, not this organisation's.
      row({ at: '2026-03-02T08:00:00Z', anon: 'a9', source: otherSource.id }),
      row({ at: '2026-03-02T08:00:00Z', anon: 'a9', org: 'another-org' }),
    ])
  })

  const metrics = async (id: string) => {
    const res = await t.call('GET', `/api/orgs/metrics-co/sources/${id}/metrics`, { cookie })
    expect(res.status).toBe(200)
    return (await res.json()) as SourceMetrics
  }

  it('counts all of the source’s events, and users once each (an anonymous id that signed in is that user)', async () => {
    const m = await metrics(source.id)
    expect(m.total).toBe(9)
    // u1 (a1 is u1), u2, a2, a3, a4.
    expect(m.unique_users).toBe(5)
  })

  it('gives one point for each of the last 30 days in the organisation’s time zone, days without events as 0', async () => {
    const m = await metrics(source.id)
    expect(m.total_30d).toHaveLength(30)
    expect(m.total_30d[0]).toEqual({ date: '2026-02-01', value: 1 })
    expect(m.total_30d[29]).toEqual({ date: '2026-03-02', value: 3 })
    expect(m.total_30d[28]).toEqual({ date: '2026-03-01', value: 3 })
    expect(m.total_30d.find((d) => d.date === '2026-02-15')).toEqual({ date: '2026-02-15', value: 1 })
    expect(m.total_30d.reduce((n, d) => n + d.value, 0)).toBe(8)
    expect(m.total_30d.filter((d) => d.value === 0)).toHaveLength(26)
  })

  it('moves events to the local day when the organisation’s time zone is not UTC', async () => {
    const saved = await t.call('POST', '/api-v2/orgs/metrics-co/settings/save-settings', { cookie, body: { timezone: 'America/New_York', companyPaths: [] } })
    expect(saved.status).toBe(200)
    const m = await metrics(source.id)
    // 09:00Z is 04:00 in New York: still 2 March. 08:00-08:45Z on 2 March is 03:00-03:45 local, same day;
    // 23:30Z on 1 March is 18:30 local; 00:00Z on 1 February is 31 January, 19:00 local, outside the window.
    expect(m.total_30d[29]).toEqual({ date: '2026-03-02', value: 3 })
    expect(m.total_30d[0]).toEqual({ date: '2026-02-01', value: 0 })
    expect(m.total_30d.reduce((n, d) => n + d.value, 0)).toBe(7)
    await t.call('POST', '/api-v2/orgs/metrics-co/settings/save-settings', { cookie, body: { timezone: 'Asia/Tokyo', companyPaths: [] } })
    const tokyo = await metrics(source.id)
    // 09:00Z is 18:00 in Tokyo on 2 March; 23:30Z on 1 March is 08:30 on 2 March there.
    expect(tokyo.total_30d[29]).toEqual({ date: '2026-03-02', value: 4 })
    // 00:00Z on 1 February and 23:59:59Z on 31 January are both 1 February in Tokyo.
    expect(tokyo.total_30d[0]).toEqual({ date: '2026-02-01', value: 2 })
  })

  it('of a source without events: zeros', async () => {
    const d = await segmentDefaults()
    const empty = (await (await create({ id: d.id, type: 'segment', name: 'quiet', apiKey: d.api_key }, cookie, 'metrics-co')).json()) as SourceView
    const m = await metrics(empty.id)
    expect(m.total).toBe(0)
    expect(m.unique_users).toBe(0)
    expect(m.total_30d.map((p) => p.value)).toEqual(Array(30).fill(0))
  })

  it('of an unknown source: 404', async () => {
    const res = await t.call('GET', "/api/orgs/metrics-co/sources/x'y/metrics", { cookie })
    expect(res.status).toBe(404)
  })
})

describe('snippet status: detected', () => {
  it('once events of that source arrive from its domain or a subdomain of it, www or not', async () => {
    await t.createOrg(cookie, 'Detect Co')
    const org = 'detect-co'
    const make = async (url: string) => {
      const d = await snippetDefaults()
      return (await (await create({ id: d.id, type: 'snippet', name: url, url, apiKey: d.api_key }, cookie, org)).json()) as SourceView
    }
    const www = await make('www.acme.com')
    const shop = await make('shop.globex.com')
    const quiet = await make('initech.com')
    const orgId = (await findSourceByWriteKey(t.sql, www.api_key))!.org_id
    const view = async () => (await (await t.call('GET', `/api/orgs/${org}/sources`, { cookie })).json()) as Array<SourceView & { detected: boolean }>
    expect((await view()).map((s) => s.detected)).toEqual([false, false, false])

    await insertEvents(t.events, [
      // From elsewhere: another host that merely ends with the name, and the right host through another source.
      eventRow({ org_id: orgId, source_id: www.id, page_url: 'https://notacme.com/', event: 'x' }),
      eventRow({ org_id: orgId, source_id: quiet.id, page_url: 'https://www.acme.com/', event: 'x' }),
      eventRow({ org_id: orgId, source_id: shop.id, page_url: 'https://globex.com/', event: 'x' }),
    ])
    expect((await view()).map((s) => s.detected)).toEqual([false, false, false])

    await insertEvents(t.events, [
      eventRow({ org_id: orgId, source_id: www.id, page_url: 'https://blog.ACME.com:8443/post?x=1', event: 'x' }),
      eventRow({ org_id: orgId, source_id: shop.id, page_url: 'https://shop.globex.com/cart', event: 'x' }),
    ])
    expect((await view()).map((s) => [s.name, s.detected])).toEqual([
      ['www.acme.com', true],
      ['shop.globex.com', true],
      ['initech.com', false],
    ])
    const one = (await (await t.call('GET', `/api/orgs/${org}/sources/${www.id}`, { cookie })).json()) as { detected: boolean }
    expect(one.detected).toBe(true)
  })
})
