import { PGlite, type Transaction } from '@electric-sql/pglite'
import type { Sql } from './sql.ts'

/**
 * PostgreSQL's own page cache in PGlite. Its default, 128 MB, is sized for a
 * server whose backends share it; here one backend reads a metadata database
 * of about 9 MB at demo scale (events, people and identities are in
 * ClickHouse), whose files the OS caches too. At 128 MB, PGlite held about
 * 120 MB more of resident memory from the moment it opened, even on an empty
 * database (bench/README.md, issue 19). Training a scoring model on 300,000
 * users, which writes them all here, took as long with 16 MB.
 */
export const PGLITE_SHARED_BUFFERS = '16MB'

/**
 * PGlite: PostgreSQL compiled to WebAssembly, in process. `dataDir` undefined
 * keeps it in memory (tests); a path persists it. Close it on shutdown, or the
 * process will not exit.
 */
export async function openPglite(dataDir?: string): Promise<Sql> {
  // PGlite's own start parameters kept, the buffers' size added: on the command line, it holds whatever the data directory's postgresql.conf says.
  const options = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] }
  const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options)
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
