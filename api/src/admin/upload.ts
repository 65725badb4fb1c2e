import { Readable, Transform } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { Context } from 'hono'
import Busboy from '@fastify/busboy'
import { IDENTIFICATION_TEXT } from '@fl0/contracts'
import { fieldError } from '../http/errors.ts'
import { nulError, NUL_RULE } from '../http/nul.ts'
import { bodyTooLarge } from '../http/body-limit.ts'

/** An uploaded file as it arrives: read it as a stream, never whole (a universal table runs to gigabytes). */
export interface Upload {
  fileName: string
  stream: Readable
}

/**
 * The multipart body's `file` field, streamed (@fastify/busboy, the parser
 * behind Fastify's and undici's multipart support). Resolves as soon as the
 * file's part begins; throws 400 `file: File must be provided` when the body
 * has none, and 400 on `file` when its name holds the NUL character (the job's
 * row keeps the name, and the metadata store refuses NUL). Other parts are
 * drained. A body past `maxBytes` (one sent without a Content-Length, which
 * http/body-limit.ts could not refuse up front) fails the file's stream at
 * its first byte past the limit, and with it the import.
 */
export function uploadedFile(c: Context, maxBytes: number): Promise<Upload> {
  const type = c.req.header('content-type') ?? ''
  const body = c.req.raw.body
  if (!/^multipart\/form-data/i.test(type) || !body) return Promise.reject(fieldError('file', IDENTIFICATION_TEXT.fileRequired))
  return new Promise<Upload>((resolve, reject) => {
    let found = false
    let file: Readable | undefined
    const busboy = Busboy({ headers: { 'content-type': type }, limits: { files: 1, fields: 20 } })
    busboy.on('file', (field, stream, fileName) => {
      if (field !== 'file' || found) {
        stream.resume()
        return
      }
      found = true
      file = stream
      if (fileName?.includes('\u0000')) {
        stream.resume()
        reject(nulError([{ name: 'file', message: NUL_RULE }]))
        return
      }
      resolve({ fileName: fileName || 'upload', stream })
    })
    busboy.on('finish', () => {
      if (!found) reject(fieldError('file', IDENTIFICATION_TEXT.fileRequired))
    })
    busboy.on('error', (err: unknown) => {
      if (!found) reject(fieldError('file', IDENTIFICATION_TEXT.fileRequired))
      else busboy.emit('close', err)
    })
    // A failure of the body (the client went, or it ran past the limit) fails the file's stream, and with it the import.
    const fail = (e: Error) => {
      if (!found) reject(e)
      file?.destroy(e)
      busboy.destroy(e)
    }
    Readable.fromWeb(body as unknown as WebReadableStream)
      .on('error', fail)
      .pipe(countBytes(maxBytes))
      .on('error', fail)
      .pipe(busboy)
  })
}

/** Passes bytes through until more than `maxBytes` have passed, then fails. */
function countBytes(maxBytes: number): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length
      done(seen > maxBytes ? bodyTooLarge(maxBytes) : null, chunk)
    },
  })
}
