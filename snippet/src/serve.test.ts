import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { acceptsGzip, createSnippetRoutes, LIBRARY_FILE } from './serve.ts'

const app = createSnippetRoutes()
const library = readFileSync(LIBRARY_FILE)

describe('GET /fl0.js', () => {
  it('serves the built library as JavaScript with a cache lifetime', async () => {
    const res = await app.request('/fl0.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(Buffer.from(await res.arrayBuffer())).toEqual(library)
  })

  it('serves the precompressed copy to clients that accept gzip', async () => {
    const res = await app.request('/fl0.js', { headers: { 'Accept-Encoding': 'br, gzip;q=0.8' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const body = Buffer.from(await res.arrayBuffer())
    expect(body.length).toBeLessThan(library.length)
    expect(Number(res.headers.get('content-length'))).toBe(body.length)
    expect(gunzipSync(body)).toEqual(library)
  })

  it('answers 304 to a matching ETag, per representation', async () => {
    const plain = await app.request('/fl0.js')
    const gzip = await app.request('/fl0.js', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(plain.headers.get('etag')).not.toBe(gzip.headers.get('etag'))
    const again = await app.request('/fl0.js', { headers: { 'If-None-Match': plain.headers.get('etag')! } })
    expect(again.status).toBe(304)
    const mismatched = await app.request('/fl0.js', { headers: { 'If-None-Match': plain.headers.get('etag')!, 'Accept-Encoding': 'gzip' } })
    expect(mismatched.status).toBe(200)
  })

  it('answers HEAD without a body', async () => {
    const res = await app.request('/fl0.js', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/)
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  it('takes its cache lifetime from the options', async () => {
    const res = await createSnippetRoutes({ maxAge: 60 }).request('/fl0.js')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
  })
})

describe('acceptsGzip', () => {
  it('reads codings and qualities', () => {
    expect(acceptsGzip(undefined)).toBe(false)
    expect(acceptsGzip('')).toBe(false)
    expect(acceptsGzip('gzip')).toBe(true)
    expect(acceptsGzip('deflate, GZIP;q=0.5')).toBe(true)
    expect(acceptsGzip('*')).toBe(true)
    expect(acceptsGzip('gzip;q=0')).toBe(false)
    expect(acceptsGzip('br, deflate')).toBe(false)
    expect(acceptsGzip('x-gzip')).toBe(false)
  })
})
