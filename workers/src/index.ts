export { startEventWriter, DEAD_LETTER_TOPIC, type EventWriterDeps } from './event-writer/index.ts'
export { readHead, checkRecord } from './event-writer/record.ts'
