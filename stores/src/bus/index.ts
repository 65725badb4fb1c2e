export type { Bus, BusMessage, ConsumeOptions, Consumer, DeliveredMessage } from './types.ts'
export { createDiskBus } from './disk.ts'
export { createKafkaBus } from './kafka.ts'
