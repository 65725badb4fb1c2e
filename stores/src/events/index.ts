export { openEventStore, type EventStore, type EventStoreConfig } from './client.ts'
export { migrateEvents } from './migrate.ts'
