import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { chTime, type IngestedEvent } from '@fl0/contracts'
import { openEventStore, type EventStore } from './client.ts'
import { migrateEvents } from './migrate.ts'

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
