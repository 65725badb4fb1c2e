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
    const client = createClient({ connection: createChdbConnection({ path: config.path }) } as Parameters<typeof createClient>[0])
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
