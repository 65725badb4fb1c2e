import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib'
import type { Context } from 'hono'
import type { FieldError } from '@fl0/contracts'

/**
 * Reads a request body as text, within a size limit, decoding the
 * Content-Encoding that SDKs use: RudderStack's Python and Node SDKs gzip
 * their batches by default, and Segment's libraries can be told to.
 *
 * The limit is on the decoded size, as on a plain body: the compressed bytes
 * are read up to the limit, then inflated with zlib's maxOutputLength, which
 * stops inflating once the output passes the limit (at most one 16 KB chunk
 * beyond it), so a small compressed bomb costs no more memory than an honest
 * body at the limit.
 */
export type Body = { ok: true; text: string } | { ok: false; status: 400 | 415; code: string; message: string; error: FieldError }

const inflateAsync = promisify(inflate)
const inflateRawAsync = promisify(inflateRaw)

const DECODERS: Record<string, (buffer: Buffer, options: ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: inflateZlibOrRaw,
  br: promisify(brotliDecompress) as (buffer: Buffer, options: ZlibOptions) => Promise<Buffer>,
}

export const SUPPORTED_ENCODINGS = ['gzip', 'deflate', 'br']

/** Not a closure in readBody: every request would name one anew (tsx keeps function names), a cost seen on /v1/track. */
function tooLargeBody(what: string, maxSize: number, suffix = ''): Body {
  return {
    ok: false,
    status: 400,
    code: 'body_too_large',
    message: 'Request body too large',
    error: { name: 'body', message: `${what} must be at most ${size(maxSize)}${suffix}` },
  }
}

export async function readBody(c: Context, maxSize: number, what: string): Promise<Body> {
  const encoding = (c.req.header('content-encoding') ?? '').trim().toLowerCase()
  const length = c.req.header('content-length')
  const sized = length !== undefined && c.req.header('transfer-encoding') === undefined

  if (encoding === '' || encoding === 'identity') {
    // The raw request's text, which Hono's c.req.text() would also keep for the request's life (all of its wait for the fsync).
    if (sized) return Number(length) > maxSize ? tooLargeBody(what, maxSize) : { ok: true, text: await c.req.raw.text() }
    const bytes = await readLimited(c, maxSize)
    return bytes ? { ok: true, text: bytes.toString('utf8') } : tooLargeBody(what, maxSize)
  }

  const decode = DECODERS[encoding]
  if (!decode) {
    return {
      ok: false,
      status: 415,
      code: 'unsupported_encoding',
      message: 'Unsupported Content-Encoding',
      error: { name: 'content-encoding', message: `must be one of ${SUPPORTED_ENCODINGS.join(', ')} or identity` },
    }
  }
  // Compressed data is never much larger than what it holds; a body past the limit cannot decode within it.
  const compressedLimit = maxSize + 1024
  if (sized && Number(length) > compressedLimit) return tooLargeBody(what, maxSize)
  const compressed = await readLimited(c, compressedLimit)
  if (!compressed) return tooLargeBody(what, maxSize)
  try {
    const text = (await decode(compressed, { maxOutputLength: maxSize })).toString('utf8')
    return { ok: true, text }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return tooLargeBody(what, maxSize, ' once decompressed')
    return {
      ok: false,
      status: 400,
      code: 'invalid_encoding',
      message: 'Body does not match its Content-Encoding',
      error: { name: 'body', message: `must be ${encoding}-compressed, as Content-Encoding says` },
    }
  }
}

/** 32768 → "32 KB", 4194304 → "4 MB": as the limits are documented. */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`
}

/** The body's bytes, or undefined once more than `maxBytes` have arrived (the rest is not read). */
async function readLimited(c: Context, maxBytes: number): Promise<Buffer | undefined> {
  const stream = c.req.raw.body
  if (!stream) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * HTTP's "deflate" is zlib-wrapped (RFC 9110), but some clients send raw
 * deflate under that name, as browsers have long tolerated: try both.
 */
async function inflateZlibOrRaw(buffer: Buffer, options: ZlibOptions): Promise<Buffer> {
  try {
    return await inflateAsync(buffer, options)
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error
    return inflateRawAsync(buffer, options)
  }
}
