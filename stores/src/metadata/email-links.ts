import type { Sql } from './sql.ts'

export type EmailLinkPurpose = 'verify-email' | 'reset-password'

/** A link fl0 e-mails, stored by the hash of its secret (the api hashes; this file never sees the secret). */
export async function createEmailLink(sql: Sql, input: { id: string; userId: string; purpose: EmailLinkPurpose; expiresAt: Date }, now: Date): Promise<void> {
  await sql.query('DELETE FROM email_links WHERE expires_at <= $1', [now])
  await sql.query('INSERT INTO email_links (id, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)', [input.id, input.userId, input.purpose, input.expiresAt])
}

/**
 * Uses a link: its user when it exists, is of this purpose and has not
 * expired at `now`, else undefined. Using it deletes it and every other link
 * of the same purpose for that user, so each works once and an older one
 * left in the mailbox stops working too.
 */
export async function useEmailLink(sql: Sql, id: string, purpose: EmailLinkPurpose, now: Date): Promise<string | undefined> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query<{ user_id: string }>('DELETE FROM email_links WHERE id = $1 AND purpose = $2 AND expires_at > $3 RETURNING user_id', [id, purpose, now])
    const userId = rows[0]?.user_id
    if (userId) await tx.query('DELETE FROM email_links WHERE user_id = $1 AND purpose = $2', [userId, purpose])
    return userId
  })
}

/** Marks a local account's address as proven (its owner followed a link sent to it). */
export async function markEmailVerified(sql: Sql, userId: string, now: Date): Promise<void> {
  await sql.query('UPDATE local_accounts SET email_verified_at = COALESCE(email_verified_at, $2) WHERE user_id = $1', [userId, now])
}

/**
 * Records that an ID token (by its jti) has opened a session; false when it
 * already had. Expired entries are swept here, where new ones are made.
 */
export async function useIdTokenOnce(sql: Sql, jti: string, expiresAt: Date, now: Date): Promise<boolean> {
  await sql.query('DELETE FROM used_id_tokens WHERE expires_at <= $1', [now])
  const rows = await sql.query('INSERT INTO used_id_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING RETURNING jti', [jti, expiresAt])
  return rows.length === 1
}
