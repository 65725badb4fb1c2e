import { describe, expect, it, vi } from 'vitest'
import { ApiError, serverErrors } from './errors.ts'
import { createHttp } from './http.ts'
import { fakeServer } from '../test/fakeServer.ts'

describe('the HTTP transport', () => {
  it('turns an error answer into ApiError with the message and field errors', async () => {
    const server = fakeServer()
    server.on('POST', '/api/orgs', { status: 400, body: { success: false, message: 'Invalid body', errors: [{ name: 'name', message: 'Organization name must be provided' }] } })
    const error = await createHttp({ fetch: server.fetch }).post('/api/orgs', { name: '' }).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, message: 'Invalid body', errors: [{ name: 'name', message: 'Organization name must be provided' }] })
    // With field errors, those are what a form shows; the summary message is not repeated.
    expect(serverErrors(error)).toEqual([{ name: 'name', message: 'Organization name must be provided' }])
  })

  it('reads the message when there is no error list', async () => {
    const server = fakeServer()
    server.on('GET', '/api/x', { status: 403, body: { message: 'Only admins can do that' } })
    const error = await createHttp({ fetch: server.fetch }).get('/api/x').catch((e) => e)
    expect(serverErrors(error)).toEqual([{ name: '', message: 'Only admins can do that' }])
  })

  it('logs the user out on a 401 from /api-v2, and only there', async () => {
    const server = fakeServer()
    server.on('GET', '/api-v2/orgs/acme/settings', { status: 401, body: { message: 'Not signed in' } })
    server.on('GET', '/api/users/me', { status: 401, body: { message: 'Not signed in' } })
    const onUnauthorized = vi.fn()
    const http = createHttp({ fetch: server.fetch, onUnauthorized })
    await http.get('/api/users/me').catch(() => {})
    expect(onUnauthorized).not.toHaveBeenCalled()
    await http.get('/api-v2/orgs/acme/settings').catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('sends JSON bodies and query strings, and reads 204 as no content', async () => {
    const server = fakeServer()
    server.on('DELETE', '/api/orgs/acme/users/7', { status: 204 })
    server.on('GET', '/api/list', (call) => ({ body: { page: call.query.get('page'), search: call.query.get('search') } }))
    const http = createHttp({ fetch: server.fetch })
    await expect(http.delete('/api/orgs/acme/users/7')).resolves.toBeUndefined()
    await expect(http.get('/api/list', { query: { page: 2, search: 'a b', skip: undefined } })).resolves.toEqual({ page: '2', search: 'a b' })
  })
})
