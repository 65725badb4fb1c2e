/**
 * The metadata store's whole surface: parameterised SQL and transactions.
 * PGlite (embedded) and PostgreSQL (cluster) both speak it, with `$1`-style
 * parameters, so every repository and migration runs on both unchanged.
 */
export interface Sql {
  readonly kind: 'pglite' | 'postgres'
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(text: string): Promise<void>
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
  close(): Promise<void>
}
