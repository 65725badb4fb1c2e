import type { ClickHouseClient } from '@clickhouse/client'
import { formatQueryParams } from '@clickhouse/client-common'

/**
 * chDB sessions that bind parameters themselves, so that bound calls of
 * different sessions run side by side.
 *
 * chdb-node runs every call that binds parameters (`query_params`) one at a
 * time in the whole process: its binder is not safe across connections (two
 * bound calls at once on two connections clobber each other's values). Every
 * dashboard query binds its parameters, so a page's four queries ran one after
 * another, and each waited for the workers' bound call in hand.
 *
 * A ClickHouse session keeps query parameters of its own (`SET param_x = …`),
 * the same text a server takes as `param_x` in an HTTP call's URL, parsed by
 * the placeholder's type. So a bound call here is, in one turn of its session:
 * the parameters set on the session (formatted by @clickhouse/client, as it
 * formats them for a server), then the statement, unbound. A session runs its
 * calls one at a time (a turn lasts until chDB has finished the call, even one
 * whose caller gave up); calls on different sessions run side by side.
 */
export class ChdbSession {
  private tail: Promise<unknown> = Promise.resolve()
  /** Calls waiting or in hand. */
  private waiting = 0

  constructor(readonly client: ClickHouseClient) {}

  get load(): number {
    return this.waiting
  }

  /**
   * Runs a client call in this session's next turn, its parameters set on the session first. A call whose
   * signal aborts while it waits never runs; one aborted in hand answers its caller at once, and its turn
   * lasts until chDB has finished it (chDB has no interrupt), so the next call's parameters cannot meet it.
   */
  call<T>(method: Method, params: CallParams): Promise<T> {
    const { query_params: values, abort_signal: signal, ...rest } = params ?? {}
    if (signal?.aborted) return Promise.reject(signal.reason)
    this.waiting++
    const turn = this.tail.then(async () => {
      if (signal?.aborted) throw signal.reason
      if (values && Object.keys(values).length > 0) await this.client.command({ query: setParamsSql(values) })
      return (this.client[method] as (p: object) => Promise<T>)(rest)
    })
    this.tail = turn.then(
      () => this.waiting--,
      () => this.waiting--,
    )
    return signal ? untilAborted(turn, signal) : turn
  }
}

/** The call's answer, or its signal's reason as soon as it aborts. */
function untilAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    call.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

type Method = 'query' | 'exec' | 'insert' | 'command'
type CallParams = { abort_signal?: AbortSignal; query_params?: Record<string, unknown> }

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `SET param_a = '…', param_b = '…'`: each value as a server takes it in a URL, as a string literal. */
export function setParamsSql(values: Record<string, unknown>): string {
  const assignments = Object.entries(values).map(([name, value]) => {
    if (!PARAM_NAME.test(name)) throw new Error(`invalid query parameter name: ${JSON.stringify(name)}`)
    return `param_${name} = ${stringLiteral(formatQueryParams({ value }))}`
  })
  return `SET ${assignments.join(', ')}`
}

/** A ClickHouse string literal of any text: backslashes and quotes escaped, every other character as it is. */
function stringLiteral(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`
}

/**
 * A client whose calls go to the least busy of `sessions`; with `unbound`,
 * calls that bind nothing go straight to it instead (the background's writes:
 * an insert in hand then holds up no bound call).
 */
export function sessionsClient(sessions: readonly ChdbSession[], unbound?: ClickHouseClient): ClickHouseClient {
  const view = Object.create(sessions[0]!.client) as ClickHouseClient
  for (const method of ['query', 'exec', 'insert', 'command'] as const) {
    const direct = unbound && (unbound[method] as (params: CallParams) => Promise<unknown>).bind(unbound)
    ;(view as unknown as Record<string, unknown>)[method] = (params: CallParams) => {
      const binds = params?.query_params !== undefined && Object.keys(params.query_params).length > 0
      if (direct && !binds) return direct(params)
      let least = sessions[0]!
      for (const s of sessions) if (s.load < least.load) least = s
      return least.call(method, params)
    }
  }
  return view
}
