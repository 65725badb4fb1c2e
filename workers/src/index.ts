export { startEventWriter, DEAD_LETTER_TOPIC, type EventWriterDeps } from './event-writer/index.ts'
export { toRow, parseEvent, chTime } from './event-writer/row.ts'
