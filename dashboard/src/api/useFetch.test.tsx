import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useState } from 'react'
import { useApi } from './context.tsx'
import { refetch } from './refetch.ts'
import { useFetch } from './useFetch.ts'
import { FetchView } from '../ui/FetchView.tsx'
import { deferred, fakeServer, json } from '../test/fakeServer.ts'
import { renderWithApp } from '../test/render.tsx'

function Items({ name }: { name?: string }) {
  const api = useApi()
  const [page, setPage] = useState(1)
  const fetched = useFetch((signal) => api.http.get<string[]>('/api/items', { signal, query: { page } }), [page], { name })
  return (
    <div>
      <button onClick={() => setPage((p) => p + 1)}>next</button>
      <button onClick={fetched.refetch}>refetch</button>
      <FetchView fetched={fetched}>{(items) => <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>}</FetchView>
    </div>
  )
}

describe('fetching', () => {
  it('shows a spinner while pending, then the data', async () => {
    const server = fakeServer()
    const answer = deferred<Response>()
    server.on('GET', '/api/items', answer.promise)
    renderWithApp(<Items />, { server })
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy()
    answer.resolve(json(200, ['one']))
    expect(await screen.findByText('one')).toBeTruthy()
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull()
  })

  it("shows the server's message in the error panel, else the error's own", async () => {
    const server = fakeServer()
    server.on('GET', '/api/items', { status: 500, body: { success: false, message: 'The events store is unreachable', errors: [] } })
    renderWithApp(<Items />, { server })
    expect((await screen.findByRole('alert')).textContent).toBe('The events store is unreachable')

    const offline = fakeServer()
    offline.on('GET', '/api/items', Promise.reject(new TypeError('Failed to fetch')))
    renderWithApp(<Items />, { server: offline })
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Failed to fetch'))
  })

  it('aborts the GET in flight when the address changes, and drops its late answer', async () => {
    const server = fakeServer()
    const pages = new Map([1, 2].map((p) => [p, deferred<Response>()]))
    server.on('GET', '/api/items', (call) => pages.get(Number(call.query.get('page')))!.promise)
    renderWithApp(<Items />, { server })
    await waitFor(() => expect(server.calls).toHaveLength(1))
    act(() => screen.getByText('next').click())
    await waitFor(() => expect(server.calls).toHaveLength(2))
    expect(server.calls[0].signal?.aborted).toBe(true)
    expect(server.calls[1].signal?.aborted).toBe(false)

    pages.get(2)!.resolve(json(200, ['page two']))
    expect(await screen.findByText('page two')).toBeTruthy()
    // The first page's answer arrives late: it is dropped, and the abort shows no error.
    pages.get(1)!.resolve(json(200, ['page one']))
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.queryByText('page one')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('refetches by name and by the returned function, aborting the earlier load', async () => {
    const server = fakeServer()
    let n = 0
    const held = deferred<Response>()
    server.on('GET', '/api/items', () => (++n === 2 ? held.promise : { body: [`load ${n}`] }))
    renderWithApp(<Items name="items" />, { server })
    expect(await screen.findByText('load 1')).toBeTruthy()

    act(() => refetch('items'))
    await waitFor(() => expect(server.calls).toHaveLength(2))
    // While a named refetch runs, what was loaded stays on screen.
    expect(screen.getByText('load 1')).toBeTruthy()
    act(() => screen.getByText('refetch').click())
    await waitFor(() => expect(server.calls).toHaveLength(3))
    expect(server.calls[1].signal?.aborted).toBe(true)
    expect(await screen.findByText('load 3')).toBeTruthy()
    held.resolve(json(200, ['load 2']))
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.queryByText('load 2')).toBeNull()
  })
})
