import type { Sql } from './sql.ts'

export interface PendingSignup {
  email: string
  name: string
  password_hash: string
}

/** A sign-up waiting for its address to be confirmed, stored by the hash of its link's secret. */
export async function createPendingSignup(sql: Sql, input: PendingSignup & { id: string; expiresAt: Date }, now: Date): Promise<void> {
  await sql.query('DELETE FROM pending_signups WHERE expires_at <= $1', [now])
  await sql.query('INSERT INTO pending_signups (id, email, name, password_hash, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    input.id,
    input.email.toLowerCase(),
    input.name,
    input.password_hash,
    input.expiresAt,
  ])
}

/** The sign-up a link stands for, if it exists and has not expired at `now`. */
export async function findPendingSignup(sql: Sql, id: string, now: Date): Promise<PendingSignup | undefined> {
  return (await sql.query<PendingSignup>('SELECT email, name, password_hash FROM pending_signups WHERE id = $1 AND expires_at > $2', [id, now]))[0]
}

/**
 * Uses a sign-up's link: deletes it, and every other sign-up pending for the
 * same address (the address is about to have its account). False when it was
 * already gone (used at the same moment by another request).
 */
export async function usePendingSignup(sql: Sql, id: string, email: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const used = await tx.query('DELETE FROM pending_signups WHERE id = $1 RETURNING id', [id])
    if (used.length === 0) return false
    await tx.query('DELETE FROM pending_signups WHERE email = $1', [email.toLowerCase()])
    return true
  })
}

/** A password-reset link, stored by the hash of its secret (the api hashes; this file never sees the secret). */
export async function createPasswordResetLink(sql: Sql, input: { id: string; userId: string; expiresAt: Date }, now: Date): Promise<void> {
  await sql.query('DELETE FROM password_reset_links WHERE expires_at <= $1', [now])
  await sql.query('INSERT INTO password_reset_links (id, user_id, expires_at) VALUES ($1, $2, $3)', [input.id, input.userId, input.expiresAt])
}

/**
 * Uses a reset link: its user when it exists and has not expired at `now`,
 * else undefined. Using it deletes it and every other reset link of that
 * user, so each works once and an older one left in the mailbox stops too.
 */
export async function usePasswordResetLink(sql: Sql, id: string, now: Date): Promise<string | undefined> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query<{ user_id: string }>('DELETE FROM password_reset_links WHERE id = $1 AND expires_at > $2 RETURNING user_id', [id, now])
    const userId = rows[0]?.user_id
    if (userId) await tx.query('DELETE FROM password_reset_links WHERE user_id = $1', [userId])
    return userId
  })
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
