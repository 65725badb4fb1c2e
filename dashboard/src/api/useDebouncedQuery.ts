import { useEffect, useRef, useState } from 'react'
import { isSilentError } from './errors.ts'

export interface DebouncedQueryState<T> {
  /** The last answer; it stays while the next one is asked, so the screen does not flicker. */
  data?: T
  error?: string
  /** A question is waiting or in flight. */
  loading: boolean
}

export interface DebouncedQueryOptions {
  /** How long the request must stay the same before it is asked. */
  delayMs: number
  /** The words for a failed question. */
  errorOf: (error: unknown) => string
  /** 'change': loading from the first change (a check the user waits on); 'ask': once the question is asked. */
  loadingFrom: 'change' | 'ask'
  /** What else the question depends on (the organisation): a change asks again, as a new request does. */
  scope?: string
}

/**
 * A question asked once `request` stops changing for `delayMs` (as a form is
 * edited): a new question aborts the one in flight, whose answer is dropped
 * unseen; leaving the screen abandons it. `request` undefined: nothing to
 * ask, nothing shown. Requests are compared as JSON, with `scope`; `ask` is
 * read when it asks, so it must depend on nothing but the two.
 */
export function useDebouncedQuery<Q, T>(request: Q | undefined, ask: (request: Q, signal: AbortSignal) => Promise<T>, options: DebouncedQueryOptions): DebouncedQueryState<T> {
  const [state, setState] = useState<DebouncedQueryState<T>>({ loading: false })
  const inflight = useRef<AbortController | null>(null)
  const key = request === undefined ? '' : JSON.stringify([options.scope ?? '', request])
  // The latest ask and options, read when the question is asked: the key says when.
  const latest = useRef({ ask, options })
  latest.current = { ask, options }

  useEffect(() => {
    if (!key) {
      inflight.current?.abort()
      setState({ loading: false })
      return
    }
    const { options: o } = latest.current
    const loading = (s: DebouncedQueryState<T>) => ({ data: s.data, loading: true })
    if (o.loadingFrom === 'change') setState(loading)
    const timer = setTimeout(() => {
      inflight.current?.abort()
      const controller = new AbortController()
      inflight.current = controller
      if (o.loadingFrom === 'ask') setState(loading)
      latest.current.ask((JSON.parse(key) as [string, Q])[1], controller.signal).then(
        (data) => {
          if (!controller.signal.aborted) setState({ data, loading: false })
        },
        (error: unknown) => {
          if (controller.signal.aborted || isSilentError(error)) return
          setState({ error: latest.current.options.errorOf(error), loading: false })
        },
      )
    }, o.delayMs)
    return () => clearTimeout(timer)
  }, [key])

  useEffect(() => () => inflight.current?.abort(), [])
  return state
}
