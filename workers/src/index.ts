export { startEventWriter, DEAD_LETTER_TOPIC, type EventWriterDeps } from './event-writer/index.ts'
export { startLexiconWorker, indexRecords, LEXICON_GROUP, type LexiconWorkerDeps } from './lexicon/index.ts'
export { startIdentityWorker, storeHits, IDENTITY_GROUP, LINKS_TOPIC, type IdentityWorkerDeps } from './identity/index.ts'
