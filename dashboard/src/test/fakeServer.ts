/**
 * A stand-in for the network in component tests (the browser tests run the
 * real API): routes answer JSON, or hold their answer until the test releases
 * it; every call is recorded with its method, path, body and signal; an
 * aborted call rejects with AbortError, as fetch does.
 */
export interface Call {
  method: string
  path: string
  query: URLSearchParams
  body: unknown
  signal?: AbortSignal | null
}

type Answer = Response | { status?: number; body?: unknown } | Promise<Response | { status?: number; body?: unknown }>

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

export function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

export function fakeServer() {
  const calls: Call[] = []
  const routes: Array<{ method: string; path: string | RegExp; answer: (call: Call) => Answer }> = []

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost')
    const call: Call = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init.signal,
    }
    calls.push(call)
    const route = [...routes].reverse().find((r) => r.method === call.method && (typeof r.path === 'string' ? r.path === call.path : r.path.test(call.path)))
    const answer = route ? route.answer(call) : { status: 404, body: { success: false, message: 'Not found', errors: [] } }
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'))
      if (init.signal?.aborted) return abort()
      init.signal?.addEventListener('abort', abort)
      Promise.resolve(answer).then((a) => resolve(a instanceof Response ? a : json(a.status ?? 200, a.body)), reject)
    })
  }

  return {
    fetch: fetch as typeof globalThis.fetch,
    calls,
    on(method: string, path: string | RegExp, answer: Answer | ((call: Call) => Answer)) {
      routes.push({ method, path, answer: typeof answer === 'function' ? (answer as (call: Call) => Answer) : () => answer })
    },
    callsTo(method: string, path: string) {
      return calls.filter((c) => c.method === method && c.path === path)
    },
  }
}
export type FakeServer = ReturnType<typeof fakeServer>
