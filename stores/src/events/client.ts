import { createClient, type ClickHouseClient } from '@clickhouse/client'
import PQueue from 'p-queue'

/**
 * The events store: ClickHouse, in process through chDB (embedded) or a server
 * over HTTP (cluster). Both are the same @clickhouse/client; only the connection
 * differs, so every query and migration runs unchanged on either.
 */
export type EventStoreConfig =
  | { kind: 'chdb'; path: string; database?: string }
  | { kind: 'http'; url: string; database?: string; username?: string; password?: string }

export interface EventStore {
  readonly kind: 'chdb' | 'http'
  readonly database: string
  readonly client: ClickHouseClient
  /**
   * The same store for work nobody is waiting on (the bus's consumers, scoring,
   * the admin's jobs): in chDB, its calls wait while a reader's are queued.
   * A ClickHouse server runs queries side by side, so there it is the store itself.
   */
  readonly background: EventStore
  close(): Promise<void>
}

export async function openEventStore(config: EventStoreConfig): Promise<EventStore> {
  const database = config.database ?? 'fl0'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid ClickHouse database name: ${database}`)
  if (config.kind === 'chdb') {
    // chDB allows one data directory per process; a second path throws here.
    const { createChdbConnection } = await import('chdb/connection')
    const client = createClient({ connection: createChdbConnection({ path: config.path }) } as Parameters<typeof createClient>[0])
    await client.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
    // The chDB connection is one session: USE sets the default database for every later query.
    await client.command({ query: `USE ${database}` })
    const lanes = new PQueue({ concurrency: 1 })
    const close = () => client.close()
    const background: EventStore = { kind: 'chdb', database, client: refusingSessionSettings(inLane(client, lanes, BACKGROUND)), close, get background() { return background } }
    return { kind: 'chdb', database, client: refusingSessionSettings(inLane(client, lanes, INTERACTIVE)), background, close }
  }
  const admin = createClient({ url: config.url, username: config.username, password: config.password })
  await admin.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
  await admin.close()
  const client = createClient({ url: config.url, username: config.username, password: config.password, database })
  const store: EventStore = { kind: 'http', database, client, close: () => client.close(), get background() { return store } }
  return store
}

const INTERACTIVE = 1
const BACKGROUND = 0

/**
 * chDB runs one query at a time in a process (two `SELECT sleep(1)` at once take
 * 2 s), in the order they reach it. With the event writer, the lexicon and the
 * identity worker each sending inserts and look-ups while events arrive, a
 * dashboard query would wait behind all of theirs (measured: seconds at 10,000
 * events a second). So calls reach chDB one at a time through a queue in which
 * a reader's call (priority INTERACTIVE) goes ahead of every waiting background
 * one: it waits at most for the call in hand. A call whose signal aborts while
 * it waits leaves the queue without reaching chDB.
 * Results are whole when a call resolves (chDB's connection reads them before
 * answering), so the call's turn ends with its promise.
 */
function inLane(client: ClickHouseClient, lanes: PQueue, priority: number): ClickHouseClient {
  const view = Object.create(client) as ClickHouseClient
  for (const method of ['query', 'exec', 'insert', 'command'] as const) {
    const original = (client[method] as (params: { abort_signal?: AbortSignal }) => Promise<unknown>).bind(client)
    ;(view as unknown as Record<string, unknown>)[method] = (params: { abort_signal?: AbortSignal }) =>
      lanes.add(() => original(params), { priority, signal: params?.abort_signal })
  }
  return view
}

/**
 * chDB's connection turns a call's `clickhouse_settings` into `SET k = v` on its
 * one session, where they stay for every later query of every part of fl0 that
 * shares the store: measured, the lexicon's input_format_allow_errors_ratio = 1
 * made the event writer's inserts drop rows they should have refused. Settings
 * belong in the statement (`INSERT INTO t SETTINGS k = v FORMAT …`,
 * `SELECT … SETTINGS k = v`), which both connections scope to the one query;
 * passing them as clickhouse_settings throws here, so that no call can leak them.
 */
function refusingSessionSettings(client: ClickHouseClient): ClickHouseClient {
  for (const method of ['query', 'exec', 'insert', 'command'] as const) {
    const original = (client[method] as (params: { clickhouse_settings?: object }) => Promise<unknown>).bind(client)
    ;(client as unknown as Record<string, unknown>)[method] = (params: { clickhouse_settings?: object }) => {
      if (params?.clickhouse_settings && Object.keys(params.clickhouse_settings).length > 0) {
        throw new Error(`chDB keeps clickhouse_settings on its session for every later query: put SETTINGS in the statement instead (${Object.keys(params.clickhouse_settings).join(', ')})`)
      }
      return original(params)
    }
  }
  return client
}
