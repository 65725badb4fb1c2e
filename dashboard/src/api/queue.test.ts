import { describe, expect, it } from 'vitest'
import { createHttp } from './http.ts'
import { DroppedError } from './queue.ts'
import { isSilentError } from './errors.ts'
import { deferred, fakeServer, json } from '../test/fakeServer.ts'

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('the serial queue for non-GET calls', () => {
  it('sends a write only after the one before it has been answered, in call order', async () => {
    const server = fakeServer()
    const first = deferred<Response>()
    server.on('POST', '/api/a', first.promise)
    server.on('PATCH', '/api/b', { body: { ok: 'b' } })
    server.on('DELETE', '/api/c', { status: 204 })
    const http = createHttp({ fetch: server.fetch })

    const a = http.post('/api/a', { n: 1 })
    const b = http.patch('/api/b', { n: 2 })
    const c = http.delete('/api/c')
    await tick()
    expect(server.calls.map((x) => x.path)).toEqual(['/api/a'])
    expect(http.queue.waiting).toBe(2)

    first.resolve(json(200, { ok: 'a' }))
    await expect(a).resolves.toEqual({ ok: 'a' })
    await expect(b).resolves.toEqual({ ok: 'b' })
    await expect(c).resolves.toBeUndefined()
    expect(server.calls.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /api/a', 'PATCH /api/b', 'DELETE /api/c'])
  })

  it('moves on after a failed call', async () => {
    const server = fakeServer()
    server.on('POST', '/api/fail', { status: 500, body: { success: false, message: 'Boom', errors: [] } })
    server.on('POST', '/api/ok', { body: { ok: true } })
    const http = createHttp({ fetch: server.fetch })
    const failed = http.post('/api/fail')
    const ok = http.post('/api/ok')
    await expect(failed).rejects.toMatchObject({ status: 500, message: 'Boom' })
    await expect(ok).resolves.toEqual({ ok: true })
  })

  it('does not queue GETs behind writes', async () => {
    const server = fakeServer()
    const slow = deferred<Response>()
    server.on('POST', '/api/slow', slow.promise)
    server.on('GET', '/api/list', { body: [1] })
    const http = createHttp({ fetch: server.fetch })
    void http.post('/api/slow')
    await expect(http.get('/api/list')).resolves.toEqual([1])
    slow.resolve(json(204))
  })

  it('drops the calls still waiting: they are never sent and fail silently', async () => {
    const server = fakeServer()
    const first = deferred<Response>()
    server.on('POST', '/api/a', first.promise)
    server.on('POST', '/api/b', { body: {} })
    const http = createHttp({ fetch: server.fetch })
    const a = http.post('/api/a')
    const b = http.post('/api/b')
    await tick()
    http.queue.drop()
    const error = await b.catch((e) => e)
    expect(error).toBeInstanceOf(DroppedError)
    expect(isSilentError(error)).toBe(true)
    first.resolve(json(200, {}))
    await a
    await tick()
    expect(server.calls.map((x) => x.path)).toEqual(['/api/a'])
  })
})
