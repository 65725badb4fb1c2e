import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useEffect } from 'react'
import { useApi } from '../../api/context.tsx'
import { deferred, fakeServer, json } from '../../test/fakeServer.ts'
import { renderWithApp } from '../../test/render.tsx'
import { useSnackbar, type Snackbar } from './state.ts'

function Show({ snackbars }: { snackbars: Array<Omit<Snackbar, 'id'>> }) {
  const snackbar = useSnackbar()
  useEffect(() => {
    for (const s of snackbars) snackbar.show(s)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return null
}

describe('snackbars', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows info, error and ok, each leaving after 3 s with a 200 ms leave animation', () => {
    renderWithApp(<Show snackbars={[{ kind: 'info', message: 'Saved draft' }, { kind: 'error', message: 'Could not save' }, { kind: 'ok', message: 'All good' }]} />)
    const info = screen.getByText('Saved draft')
    expect(info.dataset.kind).toBe('info')
    expect(screen.getByText('Could not save').dataset.kind).toBe('error')
    expect(screen.getByRole('alert').textContent).toBe('Could not save')
    expect(screen.getByText('All good').dataset.kind).toBe('ok')

    act(() => vi.advanceTimersByTime(2999))
    expect(info.dataset.leaving).toBeUndefined()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.getByText('Saved draft').dataset.leaving).toBe('true')
    act(() => vi.advanceTimersByTime(199))
    expect(screen.queryByText('Saved draft')).not.toBeNull()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText('Saved draft')).toBeNull()
    expect(screen.queryByText('Could not save')).toBeNull()
    expect(screen.queryByText('All good')).toBeNull()
  })

  it('pauses while the pointer is over it and resumes with the time that was left', () => {
    renderWithApp(<Show snackbars={[{ kind: 'info', message: 'Hover me' }]} />)
    act(() => vi.advanceTimersByTime(1000))
    fireEvent.mouseEnter(screen.getByText('Hover me'))
    act(() => vi.advanceTimersByTime(10_000))
    expect(screen.getByText('Hover me').dataset.leaving).toBeUndefined()
    fireEvent.mouseLeave(screen.getByText('Hover me'))
    act(() => vi.advanceTimersByTime(1999))
    expect(screen.getByText('Hover me').dataset.leaving).toBeUndefined()
    act(() => vi.advanceTimersByTime(1 + 200))
    expect(screen.queryByText('Hover me')).toBeNull()
  })

  it('with reload on close: blocks input, drops the queued calls, and reloads once it has gone', async () => {
    const server = fakeServer()
    const first = deferred<Response>()
    server.on('POST', '/api/first', first.promise)
    server.on('POST', '/api/second', { body: {} })
    const reload = vi.fn()
    let second: Promise<unknown> | undefined
    function Queue() {
      const api = useApi()
      useEffect(() => {
        void api.http.post('/api/first')
        second = api.http.post('/api/second').catch((e) => e)
      }, [api])
      return null
    }
    renderWithApp(
      <>
        <Queue />
        <Show snackbars={[{ kind: 'error', message: 'An error has occurred saving organization settings', reloadOnClose: true }]} />
      </>,
      { server, reload },
    )
    expect(screen.getByTestId('input-blocker')).toBeTruthy()
    await act(async () => {
      first.resolve(json(200, {}))
      await vi.advanceTimersByTimeAsync(0)
    })
    expect((await second) as Error).toMatchObject({ name: 'DroppedError' })
    expect(server.calls.map((c) => c.path)).toEqual(['/api/first'])

    act(() => vi.advanceTimersByTime(3000))
    expect(reload).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(200))
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
