export { createIngestApp, EVENTS_TOPIC, type IngestDeps } from './app.ts'
export { createWriteKeyCache, type WriteKeys, type SourceRef } from './write-keys.ts'
export { parseTrustedProxies } from './client-ip.ts'
export { createCallbackRoutes, LINKS_TOPIC, PIXEL, type CallbackDeps } from './callback.ts'
