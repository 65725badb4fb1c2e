import { describe, expect, it, vi } from 'vitest'
import { ApiError } from './errors.ts'
import { createHttp } from './http.ts'
import { deferred, fakeServer } from '../test/fakeServer.ts'

/** A text answer whose chunks the test writes one at a time. */
function chunkedAnswer() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    write: (bytes: Uint8Array | string) => controller.enqueue(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes),
    end: () => controller.close(),
  }
}

describe('the HTTP transport: uploads and streamed answers', () => {
  it('sends a FormData body as it is (multipart), through the queue', async () => {
    const server = fakeServer()
    const sent: unknown[] = []
    const gate = deferred<{ status: number; body: unknown }>()
    server.on('POST', '/api/first', gate.promise)
    server.on('POST', '/api-v2/admin/import-cookies', { body: { imported: 2 } })
    const http = createHttp({
      fetch: (input, init) => {
        sent.push(init?.body)
        return server.fetch(input, init)
      },
    })
    const form = new FormData()
    form.append('file', new File(['puid,upid\n'], 'cookies.csv', { type: 'text/csv' }))
    const first = http.post('/api/first', { a: 1 })
    const upload = http.post('/api-v2/admin/import-cookies', form)
    // Queued behind the write already in flight.
    await vi.waitFor(() => expect(server.calls).toHaveLength(1))
    expect(http.queue.waiting).toBe(1)
    gate.resolve({ status: 200, body: {} })
    await first
    await expect(upload).resolves.toEqual({ imported: 2 })
    expect(sent[1]).toBe(form)
  })

  it('hands each chunk to onChunk as it arrives, keeping a character split across chunks whole', async () => {
    const server = fakeServer()
    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    const chunks: string[] = []
    const done = createHttp({ fetch: server.fetch }).stream('POST', '/api-v2/admin/universal-table/import', { onChunk: (t) => chunks.push(t) })
    answer.write('read 1000 rows\n')
    await vi.waitFor(() => expect(chunks).toEqual(['read 1000 rows\n']))
    const e = new TextEncoder().encode('café\n')
    answer.write(e.slice(0, 4)) // 'caf' and the first byte of 'é'
    await vi.waitFor(() => expect(chunks).toEqual(['read 1000 rows\n', 'caf']))
    answer.write(e.slice(4))
    answer.end()
    await done
    expect(chunks.join('')).toBe('read 1000 rows\ncafé\n')
  })

  it('turns an error answer into ApiError, with a 401 from /api-v2 logging out', async () => {
    const server = fakeServer()
    server.on('POST', '/api-v2/admin/universal-table/import', { status: 401, body: { message: 'Not signed in' } })
    const onUnauthorized = vi.fn()
    const onChunk = vi.fn()
    const error = await createHttp({ fetch: server.fetch, onUnauthorized })
      .stream('POST', '/api-v2/admin/universal-table/import', { onChunk })
      .catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 401, message: 'Not signed in' })
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
    expect(onChunk).not.toHaveBeenCalled()
  })
})
