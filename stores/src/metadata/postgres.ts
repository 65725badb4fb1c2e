import pg from 'pg'
import type { Sql } from './sql.ts'

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number
  /**
   * Called when an idle pooled connection fails (the server restarted, a
   * failover, an administrator ended it). The pool has already dropped it and
   * opens a new one on the next query; this is for the log. Default: a line on stderr.
   */
  onError?: (error: Error) => void
}

/** PostgreSQL through node-postgres' pool (DATABASE_URL). */
export async function openPostgres(connectionString: string, options: PostgresOptions = {}): Promise<Sql> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 })
  // node-postgres emits 'error' on the pool when an idle connection dies; an
  // 'error' event without a listener would end the process, so a Postgres
  // restart would take every api and worker role down with it.
  pool.on('error', options.onError ?? ((error) => console.error(`postgres: idle connection lost: ${error.message}`)))
  // Fail at start, with the server's own message, rather than on the first request.
  try {
    ;(await pool.connect()).release()
  } catch (error) {
    await pool.end().catch(() => {})
    throw error
  }
  return {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      return (await pool.query(text, params)).rows as T[]
    },
    async exec(text: string) {
      await pool.query(text)
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const conn = await pool.connect()
      // A connection whose ROLLBACK failed is in an unknown state: destroy it
      // (release with an error) rather than hand it to the next caller.
      let broken: Error | undefined
      try {
        await conn.query('BEGIN')
        const result = await fn(onConnection(conn))
        await conn.query('COMMIT')
        return result
      } catch (error) {
        await conn.query('ROLLBACK').catch((e: Error) => {
          broken = e
        })
        throw error
      } finally {
        conn.release(broken)
      }
    },
    close: () => pool.end(),
  }
}

/** The transaction's view: everything on one connection; a nested transaction joins the outer one. */
function onConnection(conn: pg.PoolClient): Sql {
  const tx: Sql = {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      return (await conn.query(text, params)).rows as T[]
    },
    async exec(text: string) {
      await conn.query(text)
    },
    transaction: (fn) => fn(tx),
    close: async () => {},
  }
  return tx
}
