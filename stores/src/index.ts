export * from './bus/index.ts'
export * from './metadata/index.ts'
export * from './events/index.ts'
