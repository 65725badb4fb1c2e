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
 * which the code reads, and email_links goes.
 */
const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url))
const before = mkdtempSync(join(tmpdir(), 'fl0-metadata-migrations-'))
afterAll(() => rmSync(before, { recursive: true, force: true }))

describe('0017_password_reset_links', () => {
  it('moves the reset links of a database migrated before it', async () => {
    for (const f of readdirSync(MIGRATIONS).filter((f) => /^\d{4}_/.test(f) && f < '0017')) copyFileSync(join(MIGRATIONS, f), join(before, f))
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
})
