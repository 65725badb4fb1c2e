export * from './errors.ts'
export * from './ingest.ts'
