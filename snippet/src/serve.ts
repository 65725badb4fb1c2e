import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { Hono } from 'hono'

/** The built library, committed in dist/ so that fl0 serves it without a build step. */
export const LIBRARY_FILE = fileURLToPath(new URL('../dist/fl0.js', import.meta.url))

export interface SnippetRoutesOptions {
  /** The file to serve; the built dist/fl0.js by default. */
  file?: string
  /**
   * Seconds browsers and CDNs may keep it. Sites load it from a fixed URL
   * (/fl0.js, no version in it), so this bounds how long visitors keep an
   * old library after fl0 is upgraded. One hour by default, as Segment's CDN.
   */
  maxAge?: number
}

/**
 * GET /fl0.js: the tracking library, from fl0's own host (or through a site's
 * first-party proxy, see snippet/README.md). The file is read and gzipped
 * once, when the routes are made, so that each request only picks a buffer.
 */
export function createSnippetRoutes(options: SnippetRoutesOptions = {}) {
  const plain = readFileSync(options.file ?? LIBRARY_FILE)
  const gzipped = gzipSync(plain, { level: 9 })
  const hash = createHash('sha256').update(plain).digest('base64url').slice(0, 20)
  const cacheControl = `public, max-age=${options.maxAge ?? 3600}`
  const app = new Hono()

  app.get('/fl0.js', function serveLibrary(c) {
    const gzip = acceptsGzip(c.req.header('accept-encoding'))
    // One ETag per representation: a cache must not answer a gzip request from a plain copy.
    const etag = gzip ? `"${hash}-gz"` : `"${hash}"`
    const headers: Record<string, string> = {
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': cacheControl,
      ETag: etag,
      Vary: 'Accept-Encoding',
      // Lets a site load it with crossorigin and subresource integrity.
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    }
    const ifNoneMatch = c.req.header('if-none-match')
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') == etag)) {
      return c.body(null, 304, headers)
    }
    const body = gzip ? gzipped : plain
    if (gzip) headers['Content-Encoding'] = 'gzip'
    headers['Content-Length'] = String(body.length)
    return c.body(new Uint8Array(body), 200, headers)
  })

  return app
}

/** True when an Accept-Encoding header takes gzip (or *) with a quality above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';')
    if (coding.trim() != 'gzip' && coding.trim() != '*') return false
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return !q || Number(q.slice(2)) > 0
  })
}
