import { afterAll, describe, expect, it } from 'vitest'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrateMetadata } from './migrate.ts'
import { openPglite } from './pglite.ts'
import { createUser } from './users.ts'

/**
 * Migration 0017 on a database that applied 0014 as it first shipped (reset
 * links in email_links): the links not yet used move to password_reset_links,
 * which the code reads, and email_links goes. On one whose 0014 made
 * password_reset_links itself, it changes nothing and does not fail.
 */
const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url))
const before = mkdtempSync(join(tmpdir(), 'fl0-metadata-migrations-'))
// The migrations before 0017, as a database that ran them has them.
for (const f of readdirSync(MIGRATIONS).filter((f) => /^\d{4}_/.test(f) && f < '0017')) copyFileSync(join(MIGRATIONS, f), join(before, f))
afterAll(() => rmSync(before, { recursive: true, force: true }))

describe('0017_password_reset_links', () => {
  it('moves the reset links of a database migrated before it', async () => {
    const sql = await openPglite()
    try {
      await migrateMetadata(sql, `${before}/`)
      const user = await createUser(sql, { email: 'ada@example.com', name: 'Ada' })
      await sql.query("INSERT INTO email_links (id, user_id, purpose, expires_at) VALUES ('link-1', $1, 'reset-password', now() + interval '1 hour')", [user.id])
      expect((await migrateMetadata(sql))[0]).toBe('0017_password_reset_links')
      expect(await sql.query('SELECT id, user_id FROM password_reset_links')).toEqual([{ id: 'link-1', user_id: user.id }])
      expect(await sql.query("SELECT to_regclass('email_links') AS t")).toEqual([{ t: null }])
    } finally {
      await sql.close()
    }
  })

  it('starts on a database whose 0014 made password_reset_links itself (no email_links), keeping its links', async () => {
    // 0014 as it was between 664d6b1 and 1091d90: the reset links' table made there, email_links never.
    const sql = await openPglite()
    try {
      await migrateMetadata(sql, `${before}/`)
      await sql.exec(`DROP TABLE email_links;
        CREATE TABLE password_reset_links (id text PRIMARY KEY, user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          expires_at timestamptz NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`)
      const user = await createUser(sql, { email: 'grace@example.com', name: 'Grace' })
      await sql.query("INSERT INTO password_reset_links (id, user_id, expires_at) VALUES ('link-2', $1, now() + interval '1 hour')", [user.id])
      expect(await migrateMetadata(sql)).toContain('0017_password_reset_links')
      expect(await sql.query('SELECT id, user_id FROM password_reset_links')).toEqual([{ id: 'link-2', user_id: user.id }])
    } finally {
      await sql.close()
    }
  })
})
