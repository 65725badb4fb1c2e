export { createDeadLetter, DEAD_LETTER_TOPIC, type DeadLetter, type PoisonRecord } from './dead-letter.ts'
export { isolatePoison, isTransient, type BatchHandler } from './isolate.ts'
