export { startEventWriter, DEAD_LETTER_TOPIC, EVENT_WRITER_GROUP, type EventWriterDeps } from './event-writer/index.ts'
export { startLexiconWorker, indexRecords, LEXICON_GROUP, type LexiconWorkerDeps } from './lexicon/index.ts'
export { startIdentityWorker, storeHits, IDENTITY_GROUP, LINKS_TOPIC, type IdentityWorkerDeps } from './identity/index.ts'
export { createDeadLetter, deadLetterCounts, isolatePoison, type DeadLetter, type PoisonRecord } from './poison/index.ts'
