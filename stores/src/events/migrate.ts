import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { EventStore } from './client.ts'

/** clickhouse/: the migrations' directory, as the package finds it. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../clickhouse/', import.meta.url))

/**
 * Applies clickhouse/NNNN_name.sql in order. Every statement in them is idempotent
 * (IF NOT EXISTS), so two roles starting at once, or a crash between a statement
 * and its record, only repeat harmless work.
 */
export async function migrateEvents(store: EventStore, dir = MIGRATIONS_DIR): Promise<string[]> {
  // The store's client for migrations: a backfill may take far longer than a dashboard's query may (client.ts).
  const client = store.migrations
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations (version String, applied_at DateTime DEFAULT now())
            ENGINE = MergeTree ORDER BY version`,
  })
  const result = await client.query({ query: 'SELECT DISTINCT version FROM schema_migrations', format: 'JSONEachRow' })
  const done = new Set((await result.json<{ version: string }>()).map((r) => r.version))
  const applied: string[] = []
  for (const file of readdirSync(dir).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort()) {
    const version = file.slice(0, -4)
    if (done.has(version)) continue
    for (const statement of splitStatements(readFileSync(`${dir}${file}`, 'utf8'))) {
      await client.command({ query: statement })
    }
    await client.insert({ table: 'schema_migrations', values: [{ version }], format: 'JSONEachRow' })
    applied.push(version)
  }
  return applied
}

/** Splits on semicolons that end a line, after removing `--` comment lines. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean)
}
