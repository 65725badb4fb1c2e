import pg from 'pg'
import type { Sql } from './sql.ts'

/** PostgreSQL through node-postgres' pool (DATABASE_URL). */
export async function openPostgres(connectionString: string, max = 10): Promise<Sql> {
  const pool = new pg.Pool({ connectionString, max })
  // Fail at start, with the server's own message, rather than on the first request.
  ;(await pool.connect()).release()
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
      try {
        await conn.query('BEGIN')
        const result = await fn(onConnection(conn))
        await conn.query('COMMIT')
        return result
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        conn.release()
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
