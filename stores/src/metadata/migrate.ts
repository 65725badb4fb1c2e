import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Sql } from './sql.ts'

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url))

/**
 * Applies migrations/NNNN_name.sql in order, each in its own transaction, and
 * records it in schema_migrations. An advisory lock keeps two processes starting
 * at once (several api or worker roles) from applying the same file twice.
 */
export async function migrateMetadata(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort()
  const applied: string[] = []
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7247101)')
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Set((await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version))
    for (const file of files) {
      const version = file.slice(0, -4)
      if (done.has(version)) continue
      await tx.exec(readFileSync(`${dir}${file}`, 'utf8'))
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version])
      applied.push(version)
    }
  })
  return applied
}
