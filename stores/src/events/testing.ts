import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { chTime, type IngestedEvent } from '@fl0/contracts'
import { openEventStore, type EventStore } from './client.ts'
import { migrateEvents, MIGRATIONS_DIR } from './migrate.ts'

let path: string | undefined
let opened = 0

/**
 * A migrated event store on chDB, for tests that query events without running
 * the ingest (`migrate: false`: an empty one). chDB allows one data directory per process, so every store a
 * process opens shares one directory and gets a database of its own.
 */
export async function openTestEventStore(options: { migrate?: boolean } = {}): Promise<EventStore> {
  path ??= mkdtempSync(join(tmpdir(), 'fl0-events-'))
  const store = await openEventStore({ kind: 'chdb', path, database: `fl0_test_${process.pid}_${++opened}` })
  if (options.migrate ?? true) await migrateEvents(store)
  return store
}

/** A store for the test of one migration, as it stands before it: see openStoreBefore. */
export interface StoreBefore {
  store: EventStore
  /** Applies the migrations before the one under test (answers those applied); migrateEvents(store) applies the rest. */
  migrateBefore(): Promise<string[]>
  close(): Promise<void>
}

/**
 * A chDB store on a directory of its own for the test of migration `version`
 * (clickhouse/NNNN_…): the migrations before it run first, events are stored
 * as they were, then migrateEvents(store) applies it and those after it, as
 * an upgrade does.
 */
export async function openStoreBefore(version: string, database: string): Promise<StoreBefore> {
  const dataDir = mkdtempSync(join(tmpdir(), `fl0-${database}-`))
  const before = mkdtempSync(join(tmpdir(), 'fl0-migrations-'))
  for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}_/.test(f) && f < version)) copyFileSync(join(MIGRATIONS_DIR, f), join(before, f))
  const store = await openEventStore({ kind: 'chdb', path: dataDir, database })
  return {
    store,
    migrateBefore: () => migrateEvents(store, `${before}/`),
    async close() {
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(before, { recursive: true, force: true })
    },
  }
}

/** A stored event row with every column filled: what the ingest would have written for `partial`. */
export function eventRow(partial: Partial<Omit<IngestedEvent, 'timestamp'>> & { org_id: string; timestamp?: Date | string }): IngestedEvent {
  const at = partial.timestamp instanceof Date ? chTime(partial.timestamp) : (partial.timestamp ?? chTime(new Date()))
  return {
    message_id: randomUUID(),
    source_id: '',
    type: 'track',
    event: '',
    name: '',
    user_id: '',
    anonymous_id: '',
    group_id: '',
    previous_id: '',
    original_timestamp: null,
    sent_at: null,
    received_at: at,
    ip: '',
    user_agent: '',
    page_url: '',
    page_path: '',
    page_referrer: '',
    page_title: '',
    page_search: '',
    properties: {},
    traits: {},
    context: {},
    integrations: '{}',
    ...partial,
    timestamp: at,
  }
}

/** Inserts rows as the event writer does (JSONEachRow). */
export async function insertEvents(store: EventStore, rows: IngestedEvent[]): Promise<void> {
  if (rows.length === 0) return
  await store.client.insert({ table: 'events', values: rows, format: 'JSONEachRow' })
}
