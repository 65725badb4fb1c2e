import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateMetadata } from './migrate.ts'
import { openPglite } from './pglite.ts'
import { findWebhookSource } from './sources.ts'
import type { Sql } from './sql.ts'

/**
 * Migration 0013 on a database that already has sources: the Segment sources
 * made before it get a secret each (distinct, 64 hex characters), snippet
 * sources none. The migrations before it are applied from a copy of the folder
 * without it, the sources inserted as the code of that time did, then the rest.
 */
const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url))

describe('migration 0013: webhook secrets for existing Segment sources', () => {
  let sql: Sql
  let earlier: string
  beforeAll(async () => {
    sql = await openPglite()
    earlier = mkdtempSync(join(tmpdir(), 'fl0-migrations-'))
    for (const file of readdirSync(MIGRATIONS).filter((f) => f < '0013')) cpSync(join(MIGRATIONS, file), join(earlier, file))
  })
  afterAll(async () => {
    await sql?.close()
    rmSync(earlier, { recursive: true, force: true })
  })

  it('backfills a secret for each Segment source, none for a snippet', async () => {
    await migrateMetadata(sql, `${earlier}/`)
    await sql.query("INSERT INTO organisations (id, name, url_code) VALUES ('o1', 'Old', 'old')")
    await sql.query(
      `INSERT INTO sources (id, org_id, type, name, write_key, url) VALUES
         ('seg-1', 'o1', 'segment', 'segment', 'key-1', NULL),
         ('seg-2', 'o1', 'segment', 'warehouse', 'key-2', NULL),
         ('site', 'o1', 'snippet', 'js-snippet', 'key-3', 'old.example.com')`,
    )
    expect(await migrateMetadata(sql)).toContain('0013_source_webhook_secrets')
    const rows = await sql.query<{ id: string; webhook_secret: string | null }>('SELECT id, webhook_secret FROM sources ORDER BY id')
    const secrets = Object.fromEntries(rows.map((r) => [r.id, r.webhook_secret]))
    expect(secrets['seg-1']).toMatch(/^[0-9a-f]{64}$/)
    expect(secrets['seg-2']).toMatch(/^[0-9a-f]{64}$/)
    expect(secrets['seg-1']).not.toBe(secrets['seg-2'])
    expect(secrets.site).toBeNull()
    expect(await findWebhookSource(sql, 'seg-1')).toEqual({ id: 'seg-1', org_id: 'o1', webhook_secret: secrets['seg-1'] })
    // Applied once: a second run changes nothing.
    expect(await migrateMetadata(sql)).toEqual([])
    expect((await findWebhookSource(sql, 'seg-1'))?.webhook_secret).toBe(secrets['seg-1'])
  })
})
