export { createIngestApp, EVENTS_TOPIC, type IngestDeps } from './app.ts'
export { createWriteKeyCache, type WriteKeys, type SourceRef } from './write-keys.ts'
export { parseTrustedProxies } from './client-ip.ts'
