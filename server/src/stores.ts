import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import {
  createDiskBus,
  createKafkaBus,
  diskSpaceGuard,
  migrateEvents,
  migrateMetadata,
  openEventStore,
  openPglite,
  openPostgres,
  type Bus,
  type DiskSpaceGuard,
  type EventStore,
  type Sql,
} from '@fl0/stores'
import type { Config, Role } from './config.ts'
import type { Logger } from './logger.ts'

export interface Stores {
  metadata?: Sql
  bus?: Bus
  /** Embedded: whether the data directory's disk has room for more events (the ingest refuses them below FL0_MIN_FREE_DISK_MB). */
  diskSpace?: DiskSpaceGuard
  events?: EventStore
  close(): Promise<void>
}

/** Opens what the roles of this process need, and only that, and migrates it. */
export async function openStores(config: Config, roles: Role[], logger: Logger): Promise<Stores> {
  const needs = {
    // workers: the scoring runner's queue and models live in the metadata store.
    metadata: roles.includes('ingest') || roles.includes('api') || roles.includes('workers'),
    bus: roles.includes('ingest') || roles.includes('workers'),
    events: roles.includes('workers') || roles.includes('api'),
  }
  if (!config.KAFKA_BROKERS && needs.bus && roles.length < 3) {
    throw new Error('The on-disk bus serves one process: run all roles together (the default), or set KAFKA_BROKERS to run them apart.')
  }
  mkdirSync(config.dataDir, { recursive: true })
  const stores: Stores = {
    async close() {
      // Bus first: consumers finish their batch (writing to the events store) before it closes.
      await stores.bus?.close()
      await stores.events?.close()
      await stores.metadata?.close()
    },
  }
  try {
    // The events store opens first: chDB takes an OS lock on its directory (released
    // even when a process is killed), so a second fl0 on the same FL0_DATA_DIR stops
    // here, before it has opened PGlite's files or the bus log beside it.
    if (needs.events) {
      stores.events = await openEventStore(
        config.CLICKHOUSE_URL
          ? { kind: 'http', url: config.CLICKHOUSE_URL, username: config.CLICKHOUSE_USER, password: config.CLICKHOUSE_PASSWORD, database: config.CLICKHOUSE_DATABASE }
          : { kind: 'chdb', path: join(config.dataDir, 'clickhouse'), database: config.CLICKHOUSE_DATABASE },
      ).catch((error) => {
        // chDB prints ClickHouse's reason ("Cannot lock file … Another server instance") to stderr
        // and throws only that it could not connect; a directory in use is by far the likeliest cause.
        if ((error as { code?: string }).code !== 'CHDB_CONNECTION') throw error
        throw new Error(
          `Cannot open the event store in ${join(config.dataDir, 'clickhouse')}: another fl0 is probably using ${config.dataDir}. ` +
            'Stop it first, or set FL0_DATA_DIR to another directory.',
          { cause: error },
        )
      })
      const applied = await migrateEvents(stores.events)
      if (applied.length) logger.info({ applied, store: stores.events.kind }, 'event store migrations applied')
    }
    if (needs.metadata) {
      stores.metadata = config.DATABASE_URL
        ? await openPostgres(config.DATABASE_URL, { onError: (err) => logger.warn({ err }, 'postgres: idle connection lost; the pool reconnects') })
        : await openPglite(join(config.dataDir, 'metadata'))
      const applied = await migrateMetadata(stores.metadata)
      if (applied.length) logger.info({ applied, store: stores.metadata.kind }, 'metadata migrations applied')
    }
    if (needs.bus) {
      const onError = (err: unknown, ctx: object) => logger.error({ err, ...ctx }, 'bus consumer batch failed; retrying')
      stores.bus = config.KAFKA_BROKERS
        ? createKafkaBus({ brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()), sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS, partitions: config.KAFKA_PARTITIONS, onError })
        : createDiskBus({ dir: join(config.dataDir, 'bus'), onError })
      if (!config.KAFKA_BROKERS) {
        stores.diskSpace = diskSpaceGuard({
          dir: config.dataDir,
          minFreeBytes: config.FL0_MIN_FREE_DISK_MB * 1024 * 1024,
          onChange: ({ low, freeBytes, minFreeBytes }) => {
            const disk = { dataDir: config.dataDir, freeMb: Math.floor(freeBytes / 1048576), minFreeMb: Math.floor(minFreeBytes / 1048576) }
            if (low) logger.error(disk, 'disk nearly full: the ingest refuses events (429 disk_full) until space is freed or FL0_MIN_FREE_DISK_MB is lowered')
            else logger.info(disk, 'disk space back above the floor: the ingest takes events again')
          },
        })
      }
    }
  } catch (error) {
    await stores.close().catch(() => {})
    throw error
  }
  return stores
}
