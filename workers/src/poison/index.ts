export { createDeadLetter, DEAD_LETTER_TOPIC, type DeadLetter, type PoisonRecord } from './dead-letter.ts'
export { isolatePoison, type BatchHandler } from './isolate.ts'
