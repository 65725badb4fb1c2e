import { ApiError } from './errors.ts'
import { createSerialQueue, type SerialQueue } from './queue.ts'

export type Query = Record<string, string | number | boolean | undefined | null>

export interface RequestOptions {
  query?: Query
  body?: unknown
  signal?: AbortSignal
  /** Non-GET calls are queued unless a screen says otherwise (the metric graph query). */
  queued?: boolean
}

export interface HttpConfig {
  fetch?: typeof fetch
  baseUrl?: string
  /** Called on a 401 from /api-v2 (part 1 §6): the user is logged out. */
  onUnauthorized?: () => void
}

export interface Http {
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
  delete<T>(path: string, options?: RequestOptions): Promise<T>
  /**
   * A call answered with text streamed in chunks (the universal table
   * import's progress): `onChunk` gets each piece as it arrives, decoded;
   * the promise settles when the answer ends. Not queued: it runs as long as
   * the import does, and the writes made meanwhile should not wait for it.
   */
  stream(method: 'GET' | 'POST', path: string, options: StreamOptions): Promise<void>
  queue: SerialQueue
}

export interface StreamOptions extends RequestOptions {
  onChunk: (text: string) => void
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v))
  const qs = params.toString()
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined
  const text = await response.text()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The transport under the typed client: JSON in and out (a FormData body
 * goes as multipart, for uploads; stream() reads a text answer as it
 * arrives), the session cookie sent along, non-2xx answers turned into
 * ApiError with the server's message and field errors, and non-GET calls
 * through one serial queue.
 */
export function createHttp(config: HttpConfig = {}): Http {
  const queue = createSerialQueue()
  const doFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const base = config.baseUrl ?? ''

  function request(method: string, path: string, options: RequestOptions, accept: string) {
    const init: RequestInit = { method, credentials: 'same-origin', signal: options.signal, headers: { accept } }
    if (options.body instanceof FormData) {
      // Uploaded files (the admin imports): fetch writes the multipart content type with its boundary.
      init.body = options.body
    } else if (options.body !== undefined) {
      init.body = JSON.stringify(options.body)
      init.headers = { ...init.headers, 'content-type': 'application/json' }
    }
    return doFetch(base + withQuery(path, options.query), init)
  }

  function failure(path: string, response: Response, body: unknown): ApiError {
    if (response.status === 401 && (path === '/api-v2' || path.startsWith('/api-v2/'))) config.onUnauthorized?.()
    const b = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; errors?: unknown }
    const message = typeof b.message === 'string' && b.message ? b.message : typeof body === 'string' && body ? body : `Request failed (${response.status})`
    const errors = Array.isArray(b.errors) ? b.errors.filter((e) => e && typeof e.message === 'string') : []
    return new ApiError(response.status, message, errors)
  }

  async function send<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await request(method, path, options, 'application/json')
    const body = await readBody(response)
    if (response.ok) return body as T
    throw failure(path, response, body)
  }

  async function stream(method: string, path: string, options: StreamOptions): Promise<void> {
    const response = await request(method, path, options, 'text/plain, application/json')
    if (!response.ok) throw failure(path, response, await readBody(response))
    if (!response.body) {
      const text = await response.text()
      if (text) options.onChunk(text)
      return
    }
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        // stream: true keeps a character split across two chunks whole.
        const text = decoder.decode(value, { stream: true })
        if (text) options.onChunk(text)
      }
      const rest = decoder.decode()
      if (rest) options.onChunk(rest)
    } finally {
      reader.releaseLock()
    }
  }

  function write<T>(method: string, path: string, options: RequestOptions) {
    if (options.queued === false) return send<T>(method, path, options)
    return queue.run(() => send<T>(method, path, options))
  }

  return {
    get: (path, options) => send('GET', path, options),
    post: (path, body, options = {}) => write('POST', path, { ...options, body }),
    patch: (path, body, options = {}) => write('PATCH', path, { ...options, body }),
    delete: (path, options = {}) => write('DELETE', path, options),
    stream: (method, path, options) => stream(method, path, options),
    queue,
  }
}
