import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSourceByWriteKey, listSources } from '@fl0/stores'
import { createTestApi, type TestApi } from '../testing.ts'

/** The snippet's calls (spec part 1 §5, §7): defaults for a new snippet source, the data-sources record and its domain rules. */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUpWithOrg('Ada', 'Acme'))
})
afterAll(() => t.close())

type Record = { domain: string; snippet: string }
const get = () => t.call('GET', '/api-v2/orgs/acme/data-sources', { cookie })
const save = (body: unknown) => t.call('POST', '/api-v2/orgs/acme/data-sources/save-data-sources', { cookie, body })
const keyIn = (snippet: string) => /"([A-Za-z0-9_-]{32})"/.exec(snippet)?.[1]

describe('GET /api/t/snippet', () => {
  it('answers a fresh id, the default name and a snippet loading fl0.js from this host with a new key', async () => {
    const res = await t.call('GET', '/api/t/snippet', { cookie })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { id: string; snippet: string; name: string; url: string; api_key: string }
    expect(body).toMatchObject({ name: 'js-snippet', url: '' })
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(body.api_key).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(body.snippet).toMatch(/^<script>/)
    expect(keyIn(body.snippet)).toBe(body.api_key)
    expect(body.snippet).toContain('"apiHost":"http://fl0.test"')
    const again = (await (await t.call('GET', '/api/t/snippet', { cookie })).json()) as { api_key: string }
    expect(again.api_key).not.toBe(body.api_key)
  })
})

describe('data sources', () => {
  it('shows the snippet of the organisation’s one snippet source, made on first read', async () => {
    const first = (await (await get()).json()) as Record
    expect(first.domain).toBe('')
    const key = keyIn(first.snippet)!
    const source = await findSourceByWriteKey(t.sql, key)
    expect(source).toMatchObject({ type: 'snippet', name: 'js-snippet' })
    const second = (await (await get()).json()) as Record
    expect(keyIn(second.snippet)).toBe(key)
    expect((await listSources(t.sql, source!.org_id)).filter((s) => s.type === 'snippet')).toHaveLength(1)
  })

  it('saves the domain on that source, trimmed', async () => {
    const res = await save({ domain: '  www.acme.com ' })
    expect(res.status).toBe(200)
    const saved = (await res.json()) as Record
    expect(saved.domain).toBe('www.acme.com')
    expect((await (await get()).json()) as Record).toMatchObject({ domain: 'www.acme.com' })
    expect((await findSourceByWriteKey(t.sql, keyIn(saved.snippet)!))?.url).toBe('www.acme.com')
  })

  it.each([
    [{}, 'Domain must be provided'],
    [{ domain: '   ' }, 'Domain must be provided'],
    [{ domain: `${'a'.repeat(296)}.com` }, 'Domain must have less than 300 characters'],
    [{ domain: 'localhost' }, 'Domain must be valid (e.g. a www domain)'],
    [{ domain: 'acme .com' }, 'Domain must be valid (e.g. a www domain)'],
    [{ domain: 'http://www.acme.com' }, 'Domain must not start with http:// or https://'],
    [{ domain: 'https://acme.com' }, 'Domain must not start with http:// or https://'],
  ])('refuses %j: %s', async (body, message) => {
    const res = await save(body)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { errors: unknown[] }).errors).toEqual([{ name: 'domain', message }])
    expect((await (await get()).json()) as Record).toMatchObject({ domain: 'www.acme.com' })
  })

  it('accepts a domain of 299 characters', async () => {
    expect((await save({ domain: `${'a'.repeat(295)}.com` })).status).toBe(200)
  })
})

describe('the host a snippet points at', () => {
  it('is the address the dashboard was reached at when FL0_PUBLIC_URL is not set', async () => {
    const res = await t.call('GET', '/api/t/snippet', { cookie, url: 'http://analytics.acme.test:8080' })
    expect(((await res.json()) as { snippet: string }).snippet).toContain('"apiHost":"http://analytics.acme.test:8080"')
  })

  it('is FL0_PUBLIC_URL when set, whatever address the request came to', async () => {
    const configured = await createTestApi({ configuredPublicUrl: 'https://fl0.acme.com/' })
    try {
      const { cookie: c } = await configured.signUp('Bea')
      const res = await configured.call('GET', '/api/t/snippet', { cookie: c, url: 'http://10.0.0.7:8080' })
      expect(((await res.json()) as { snippet: string }).snippet).toContain('"apiHost":"https://fl0.acme.com"')
    } finally {
      await configured.close()
    }
  })
})
