export { startEventWriter, DEAD_LETTER_TOPIC, type EventWriterDeps } from './event-writer/index.ts'
