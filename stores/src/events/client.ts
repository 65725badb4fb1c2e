import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { createClient, parseError, type ClickHouseClient } from '@clickhouse/client'
import type { ChdbConnection } from 'chdb/connection'
import { ChdbSession, sessionsClient, setParamsSql } from './sessions.ts'

/**
 * The events store: ClickHouse, in process through chDB (embedded) or a server
 * over HTTP (cluster). Both are the same @clickhouse/client; only the connection
 * differs, so every query and migration runs unchanged on either.
 */
export type EventStoreConfig =
  | { kind: 'chdb'; path: string; database?: string }
  | {
      kind: 'http'
      url: string
      database?: string
      username?: string
      password?: string
      /** How long a query of the dashboards or the workers may take before its call fails (default @clickhouse/client's, 30 s); not the migrations'. */
      requestTimeoutMs?: number
    }

export interface EventStore {
  readonly kind: 'chdb' | 'http'
  readonly database: string
  readonly client: ClickHouseClient
  /**
   * The client migrate.ts applies clickhouse/ with. A migration's backfill
   * (an INSERT … SELECT over every event) can run on a large server for far
   * longer than the 30 s a request may take: the client gave up, the server
   * went on with the INSERT, the process failed to start, and its next start
   * ran the backfill again beside the first. On a server this client waits up
   * to MIGRATION_TIMEOUT_MS, and asks for progress in the response's headers
   * so that a proxy between the two does not close the idle connection. In
   * chDB it is the readers' client: there is no connection to lose.
   */
  readonly migrations: ClickHouseClient
  /**
   * The same store for work nobody is waiting on (the bus's consumers, scoring,
   * the admin's jobs): in chDB, sessions of its own (sessions.ts), so that a
   * dashboard's query waits for none of its calls. A ClickHouse server runs
   * queries side by side, so there it is the store itself.
   */
  readonly background: EventStore
  /**
   * Inserts rows given as JSON text, one a line (JSONEachRow): the event
   * writer's and the workers' bulk inserts. In chDB the lines' bytes go to the
   * engine as they are (its raw insert), not copied into the statement's text
   * and back (20,000 events a call: about 12–15 µs of CPU an event against
   * 14–18 through `client.exec`, bench/README.md). A refused insert throws the
   * client's ClickHouseError, as `client.exec` does.
   */
  insertLines(table: string, lines: ReadonlyArray<string | Uint8Array>, options?: InsertLinesOptions): Promise<void>
  /**
   * How many `insertLines` calls the store runs side by side. chDB parses and
   * writes one insert on one thread (20,000 events: 0.5 s of wall time and as
   * much CPU), so the background has a write session per core, and the event
   * writer gives each a part of a large batch (bench/README.md, issue 19). A
   * ClickHouse server parses an insert on threads of its own: 1 there.
   */
  readonly insertSessions: number
  /**
   * A query's rows as they come, a chunk at a time, for reads too large to
   * hold (the admin's jobs read every event or page of an organisation).
   * `client.query(…).stream()` streams from a server, but chDB's connection
   * hands over the whole result at once: "refresh sessions and people" at 10
   * million events ran the embedded process out of memory. In chDB a session
   * of its own reads through chDB's streaming query, one stream at a time,
   * its parameters set on the session (sessions.ts); on a server it is the
   * client's stream. Each row a JSON object (JSONEachRow) or an array of the
   * columns' values (JSONCompactEachRow).
   */
  streamRows<T>(query: string, params: Record<string, unknown>, format: 'JSONEachRow' | 'JSONCompactEachRow'): AsyncIterable<T[]>
  close(): Promise<void>
}

export interface InsertLinesOptions {
  /** The columns the lines fill, when not all of the table's; with JSONCompactEachRow, in the order of each line's values. */
  columns?: readonly string[]
  /** Each line a JSON object (JSONEachRow, the default), or a JSON array of the columns' values (JSONCompactEachRow: no names to write and parse again on every row). */
  format?: 'JSONEachRow' | 'JSONCompactEachRow'
  /** Settings of this insert alone (in the statement: see refusingSessionSettings); numbers only. */
  settings?: Record<string, number>
}

export async function openEventStore(config: EventStoreConfig): Promise<EventStore> {
  const database = config.database ?? 'fl0'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid ClickHouse database name: ${database}`)
  if (config.kind === 'chdb') {
    // chDB allows one data directory per process; a second path throws here. Each connection is a session of its
    // own on the one in-process server (sessions.ts): the readers', the background's bound calls, its writes.
    const sessions = await openChdbSessions(config.path, database)
    const close = async () => {
      await Promise.all([...sessions.readers, sessions.bound, ...sessions.writes, sessions.streams].map((s) => s.client.close()))
    }
    const streamRows = chdbStreamRows(sessions.streams)
    const readers = refusingSessionSettings(sessionsClient(sessions.readers.map((r) => new ChdbSession(r.client))))
    const background: EventStore = {
      kind: 'chdb',
      database,
      client: refusingSessionSettings(sessionsClient([new ChdbSession(sessions.bound.client)], sessions.writes[0]!.client)),
      migrations: readers,
      insertLines: rawInsert(sessions.writes.map((w) => w.connection)),
      insertSessions: sessions.writes.length,
      streamRows,
      close,
      get background() {
        return background
      },
    }
    return {
      kind: 'chdb',
      database,
      client: readers,
      migrations: readers,
      insertLines: rawInsert([sessions.readers[0]!.connection]),
      insertSessions: 1,
      streamRows,
      background,
      close,
    }
  }
  const admin = createClient({ url: config.url, username: config.username, password: config.password })
  await admin.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
  await admin.close()
  const connection = { url: config.url, username: config.username, password: config.password, database }
  const client = createClient({ ...connection, request_timeout: config.requestTimeoutMs })
  // As clickhouse-js's guide to long-running queries has it (docs/howto/long_running_queries.md): a timeout above
  // the longest query, progress headers more often than a load balancer's idle timeout, and room for all of them.
  const migrations = createClient({
    ...connection,
    request_timeout: MIGRATION_TIMEOUT_MS,
    max_response_headers_size: MIGRATION_HEADERS_BYTES,
    clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: String(PROGRESS_INTERVAL_MS) },
  })
  const store: EventStore = {
    kind: 'http',
    database,
    client,
    migrations,
    insertLines: (table, lines, options) => execInsert(client, table, lines, options),
    insertSessions: 1,
    streamRows: (query, params, format) => httpStreamRows(client, query, params, format),
    close: async () => {
      await Promise.all([client.close(), migrations.close()])
    },
    get background() {
      return store
    },
  }
  return store
}

/**
 * A migration's longest wait on a ClickHouse server: a backfill reads every
 * event once (0016's took 6 s for 10 million in chDB on two cores; a server
 * with billions takes minutes to hours).
 */
const MIGRATION_TIMEOUT_MS = 12 * 60 * 60 * 1000
/** Progress in the response's headers at least this often: below the 30–60 s after which proxies and load balancers commonly close an idle connection. */
const PROGRESS_INTERVAL_MS = 20_000
/** Each progress header is about 250 bytes: 12 hours of them, one every 20 s, are about 540 KB (Node's own limit is 16 KB). */
const MIGRATION_HEADERS_BYTES = 4 * 1024 * 1024

interface ChdbSessionHandle {
  client: ClickHouseClient
  connection: ChdbConnection
}

/**
 * Readers' sessions: a dashboard page asks several queries at once (the People
 * list four), and two users ask theirs side by side. Two, for the two cores
 * fl0 is sized for: the People list's first page at 10 million events took
 * 978 ms on one session, 829 on two and 841 on four (bench/README.md).
 */
const READERS = 2

/** Write sessions of the background: one a core of the two fl0 is sized for (EventStore.insertSessions). */
const WRITERS = 2

/**
 * Sessions that set parameters (sessions.ts) parse statements as long as the
 * SET of a large array (the identity worker's visitors, a CSV's people): a
 * bound value used to reach ClickHouse beside the statement, not in it.
 */
const MAX_QUERY_BYTES = 256 * 1024 * 1024

/** The chDB sessions of a store, each on the database. */
async function openChdbSessions(path: string, database: string): Promise<{ readers: ChdbSessionHandle[]; bound: ChdbSessionHandle; writes: ChdbSessionHandle[]; streams: ChdbSessionHandle }> {
  const { createChdbConnection } = await import('chdb/connection')
  let created = false
  const open = async () => {
    const connection = createChdbConnection({ path })
    const client = createClient({ connection } as Parameters<typeof createClient>[0])
    if (!created) await client.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
    created = true
    // A chDB connection is one session: USE sets the default database for every later query of it.
    await client.command({ query: `USE ${database}` })
    await client.command({ query: `SET max_query_size = ${MAX_QUERY_BYTES}` })
    return { client, connection }
  }
  const readers: ChdbSessionHandle[] = []
  for (let i = 0; i < READERS; i++) readers.push(await open())
  const bound = await open()
  const writes: ChdbSessionHandle[] = []
  for (let i = 0; i < WRITERS; i++) writes.push(await open())
  return { readers, bound, writes, streams: await open() }
}

/**
 * streamRows on chDB: its streaming query (chunks fetched off the event loop as
 * they are read) on a session of its own, which holds one stream at a time.
 * A stream keeps the session until it is read to the end or left (a break, a
 * throw): the next waits for it.
 */
function chdbStreamRows(handle: ChdbSessionHandle): EventStore['streamRows'] {
  let tail: Promise<void> = Promise.resolve()
  return async function* <T>(query: string, params: Record<string, unknown>, format: 'JSONEachRow' | 'JSONCompactEachRow') {
    const previous = tail
    let release!: () => void
    tail = new Promise<void>((r) => (release = r))
    try {
      await previous
      if (Object.keys(params).length > 0) await handle.client.command({ query: setParamsSql(params) })
      for await (const chunk of handle.connection.chdb.queryStream(query, { format })) yield chunk.rows<T>()
    } catch (error) {
      throw asClickHouseError(error)
    } finally {
      release()
    }
  }
}

/** streamRows on a server: the client's stream of the response. */
async function* httpStreamRows<T>(client: ClickHouseClient, query: string, params: Record<string, unknown>, format: 'JSONEachRow' | 'JSONCompactEachRow'): AsyncIterable<T[]> {
  const result = await client.query({ query, query_params: params, format })
  for await (const rows of result.stream()) yield rows.map((r) => r.json<T>())
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

/**
 * chDB's raw insert, the lines joined once into a Buffer, which the engine
 * reads in place; on the session of `connections` with the fewest inserts in
 * hand, so that inserts given at once run side by side.
 */
function rawInsert(connections: readonly ChdbConnection[]): EventStore['insertLines'] {
  const inHand = connections.map(() => 0)
  return async (table, lines, options) => {
    if (lines.length === 0) return
    let at = 0
    for (let i = 1; i < connections.length; i++) if (inHand[i]! < inHand[at]!) at = i
    inHand[at]!++
    try {
      await connections[at]!.chdb.rawInsert({
        table,
        format: options?.format ?? 'JSONEachRow',
        values: await linesBuffer(lines),
        ...(options?.columns ? { columns: options.columns } : {}),
        ...(options?.settings ? { settings: options.settings } : {}),
      })
    } catch (error) {
      throw asClickHouseError(error)
    } finally {
      inHand[at]!--
    }
  }
}

/** A chDB call's error as the client throws a server's: a ClickHouseError whose `type` names the cause (TOO_MANY_PARTS, …), for the workers' retry rules. */
function asClickHouseError(error: unknown): unknown {
  const mapped = parseError(error instanceof Error ? error.message : String(error))
  if (mapped !== error) (mapped as Error).cause = error
  return mapped
}

/** The same insert over HTTP: the statement with the lines as its body. */
async function execInsert(client: ClickHouseClient, table: string, lines: ReadonlyArray<string | Uint8Array>, options?: InsertLinesOptions): Promise<void> {
  if (lines.length === 0) return
  const columns = options?.columns ? ` (${options.columns.join(', ')})` : ''
  const settings = options?.settings && Object.keys(options.settings).length > 0
    ? ` SETTINGS ${Object.entries(options.settings).map(([k, v]) => `${k} = ${v}`).join(', ')}`
    : ''
  const result = await client.exec({
    query: `INSERT INTO ${table}${columns}${settings} FORMAT ${options?.format ?? 'JSONEachRow'}`,
    values: Readable.from([await linesBuffer(lines)], { objectMode: false }),
  })
  result.stream.resume()
  await new Promise<void>((resolve, reject) => {
    result.stream.once('end', resolve)
    result.stream.once('error', reject)
    if (result.stream.readableEnded) resolve()
  })
}

/**
 * The lines as one buffer, a newline between them: lines given as bytes (the
 * event writer's, as the bus holds them) are copied as they are, text is
 * encoded. A turn of the event loop is given up every LINES_A_TURN lines:
 * 20,000 at once held it 10–20 ms, which the ingest's requests waited.
 */
const LINES_A_TURN = 2_000
const NEWLINE = 10

async function linesBuffer(lines: ReadonlyArray<string | Uint8Array>): Promise<Buffer> {
  let size = Math.max(0, lines.length - 1)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    size += typeof line === 'string' ? Buffer.byteLength(line) : line.byteLength
  }
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) {
      out[at++] = NEWLINE
      if (i % LINES_A_TURN === 0) await nextTurn()
    }
    const line = lines[i]!
    if (typeof line === 'string') at += out.write(line, at)
    else {
      out.set(line, at)
      at += line.byteLength
    }
  }
  return out
}
