import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { Lanes, type Lane } from './lanes.ts'

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
  /**
   * How many rows a background insert should write in one call. chDB runs one
   * call at a time, and a reader's query waits for the call in hand: while the
   * dashboard is being read (a reader's call within the last READING_MS),
   * background inserts go in slices of READING_SLICE rows, each a short wait;
   * otherwise, and on a ClickHouse server, in one call.
   */
  insertSlice(): number
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
    const lanes = new Lanes()
    const close = () => client.close()
    const insertSlice = () => (performance.now() - lanes.lastReadAt < READING_MS ? READING_SLICE : Infinity)
    const background: EventStore = {
      kind: 'chdb',
      database,
      client: refusingSessionSettings(inLane(client, lanes, 'background')),
      insertSlice,
      close,
      get background() {
        return background
      },
    }
    return { kind: 'chdb', database, client: refusingSessionSettings(inLane(client, lanes, 'reader')), background, insertSlice, close }
  }
  const admin = createClient({ url: config.url, username: config.username, password: config.password })
  await admin.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
  await admin.close()
  const client = createClient({ url: config.url, username: config.username, password: config.password, database })
  const store: EventStore = {
    kind: 'http',
    database,
    client,
    insertSlice: () => Infinity,
    close: () => client.close(),
    get background() {
      return store
    },
  }
  return store
}

/**
 * An insert has a fixed cost besides its rows' (measured: 2,500 events cost 52 µs of CPU each to
 * insert, 10,000 29 µs, 50,000 23–26 µs; bench/README.md), so slices are not smaller than this;
 * 10,000 events took chDB about 300 ms while the ingest and a reader shared the 2 cores, too long a wait.
 */
const READING_SLICE = 5_000
const READING_MS = 10_000

/**
 * The client whose calls reach chDB through `lanes` (lanes.ts), in `lane`.
 * Results are whole when a call resolves (chDB's connection reads them before
 * answering), so the call's turn ends with its promise.
 */
function inLane(client: ClickHouseClient, lanes: Lanes, lane: Lane): ClickHouseClient {
  const view = Object.create(client) as ClickHouseClient
  for (const method of ['query', 'exec', 'insert', 'command'] as const) {
    const original = (client[method] as (params: { abort_signal?: AbortSignal }) => Promise<unknown>).bind(client)
    ;(view as unknown as Record<string, unknown>)[method] = (params: { abort_signal?: AbortSignal }) => lanes.run(lane, () => original(params), params?.abort_signal)
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
