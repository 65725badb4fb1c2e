import { PGlite, type Transaction } from '@electric-sql/pglite'
import type { Sql } from './sql.ts'

/**
 * PGlite: PostgreSQL compiled to WebAssembly, in process. `dataDir` undefined
 * keeps it in memory (tests); a path persists it. Close it on shutdown, or the
 * process will not exit.
 */
export async function openPglite(dataDir?: string): Promise<Sql> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite()
  await db.waitReady
  return {
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query<T>(text, params)).rows
    },
    async exec(text: string) {
      await db.exec(text)
    },
    transaction: (fn) => db.transaction((tx) => fn(inTransaction(tx))),
    close: () => db.close(),
  }
}

function inTransaction(t: Transaction): Sql {
  const tx: Sql = {
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      return (await t.query<T>(text, params)).rows
    },
    async exec(text: string) {
      await t.exec(text)
    },
    transaction: (fn) => fn(tx),
    close: async () => {},
  }
  return tx
}
