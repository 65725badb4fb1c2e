import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'
import type { SnippetDefaults, SourceMetrics, SourceView } from '@fl0/contracts'

/**
 * Sources in a real fl0 (server/src/fl0.ts: api, ingest and event writer in one
 * process): a source created from the defaults takes events with the key the
 * user was shown before saving, and deleting a source refuses its key on the
 * very next call, not when the ingest's key cache expires.
 */
let fl0: TestFl0
let cookie: string
beforeAll(async () => {
  fl0 = await startTestFl0()
  cookie = await fl0.signUp('Ada', 'ada@example.com', 'analytical engine')
})
afterAll(async () => {
  await fl0?.stop()
})

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${fl0.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

const track = (writeKey: string, event: string) =>
  post('/v1/track', { userId: 'user-1', event }, { authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}` })

const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${fl0.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as T }
}

describe('sources in a running fl0', () => {
  it('deleting a source through the api refuses its write key on the very next call', async () => {
    const org = fl0.org.url_code
    const key = fl0.snippet.write_key
    expect((await track(key, 'Before')).status).toBe(200)
    // The ingest now holds the key in its cache (2 s); the delete must drop it.
    expect((await api('DELETE', `/api/orgs/${org}/sources/${fl0.snippet.id}`)).status).toBe(204)
    const after = await track(key, 'After')
    expect(after.status).toBe(401)
    expect(await after.json()).toMatchObject({ success: false, message: 'Unknown write key' })
    // The other source is untouched.
    expect((await track(fl0.segment.write_key, 'Still here')).status).toBe(200)
  })

  it('a snippet pasted before saving works once the source is saved, at once, and its events count', async () => {
    const org = fl0.org.url_code
    const defaults = (await api<SnippetDefaults>('GET', '/api/t/snippet')).body
    // The site sends before the source exists: refused (and the miss is cached by the ingest).
    expect((await track(defaults.api_key, 'Too early')).status).toBe(401)
    const created = await api<SourceView>('POST', `/api/orgs/${org}/sources`, { id: defaults.id, type: 'snippet', name: 'Site', url: 'site.example.com', apiKey: defaults.api_key })
    expect(created.status).toBe(201)
    expect((await track(defaults.api_key, 'Saved')).status).toBe(200)
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE source_id = {s:String}', { s: defaults.id }, 1)
    const metrics = await api<SourceMetrics>('GET', `/api/orgs/${org}/sources/${defaults.id}/metrics`)
    expect(metrics.body).toMatchObject({ total: 1, unique_users: 1 })
    expect(metrics.body.total_30d.at(-1)?.value).toBe(1)
  })
})
