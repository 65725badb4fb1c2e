export type { Bus, BusMessage, ConsumeOptions, Consumer, DeliveredMessage, ViewSource } from './types.ts'
export { createDiskBus } from './disk.ts'
export { createKafkaBus } from './kafka.ts'
export { diskSpaceGuard, DiskFullError, type DiskSpaceGuard, type DiskSpaceOptions, type DiskSpaceState } from './disk-space.ts'
