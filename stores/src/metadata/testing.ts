import type { Sql } from './sql.ts'

/**
 * `sql`, except that the first query whose text contains `text` fails, as a
 * passing database error would (a dropped connection); every other query, and
 * that one's later runs, go through. `asked()` says how often that query was asked for.
 */
export function failingOnce(sql: Sql, text: string): Sql & { asked(): number } {
  let asked = 0
  return {
    kind: sql.kind,
    query: <T,>(query: string, params?: unknown[]) => {
      if (query.includes(text) && asked++ === 0) return Promise.reject(new Error('connection reset'))
      return sql.query<T>(query, params)
    },
    exec: (query) => sql.exec(query),
    transaction: (fn) => sql.transaction(fn),
    close: async () => {},
    asked: () => asked,
  }
}
