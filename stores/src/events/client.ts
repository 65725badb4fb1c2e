import { createClient, type ClickHouseClient } from '@clickhouse/client'

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
  close(): Promise<void>
}

export async function openEventStore(config: EventStoreConfig): Promise<EventStore> {
  const database = config.database ?? 'fl0'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid ClickHouse database name: ${database}`)
  if (config.kind === 'chdb') {
    // chDB allows one data directory per process; a second path throws here.
    const { createChdbConnection } = await import('chdb/connection')
    const client = refusingSessionSettings(createClient({ connection: createChdbConnection({ path: config.path }) } as Parameters<typeof createClient>[0]))
    await client.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
    // The chDB connection is one session: USE sets the default database for every later query.
    await client.command({ query: `USE ${database}` })
    return { kind: 'chdb', database, client, close: () => client.close() }
  }
  const admin = createClient({ url: config.url, username: config.username, password: config.password })
  await admin.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: database } })
  await admin.close()
  const client = createClient({ url: config.url, username: config.username, password: config.password, database })
  return { kind: 'http', database, client, close: () => client.close() }
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
