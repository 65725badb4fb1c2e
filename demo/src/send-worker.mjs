// Entry of the sending thread (see send-worker.ts). Plain JavaScript so that it
// starts in any Node process, with or without a TypeScript loader (tsx's CLI,
// vitest), and loads the TypeScript through tsx's API.
import { tsImport } from 'tsx/esm/api'

await tsImport('./send-worker.ts', import.meta.url)
