import type { Sql } from './sql.ts'
import type { User } from './users.ts'

/** Sessions are stored by the hash of their cookie secret (the api hashes; this file never sees the secret). */
export async function createSession(sql: Sql, input: { id: string; userId: string; expiresAt: Date }): Promise<void> {
  await sql.query('INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)', [input.id, input.userId, input.expiresAt])
}

/** The session's user, if the session exists and has not expired at `now`. */
export async function findSessionUser(sql: Sql, id: string, now: Date): Promise<User | undefined> {
  const rows = await sql.query<User>(
    `SELECT u.id, u.email, u.name, u.is_staff
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.expires_at > $2`,
    [id, now],
  )
  return rows[0]
}

export async function deleteSession(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM sessions WHERE id = $1', [id])
}

export async function deleteExpiredSessions(sql: Sql, now: Date): Promise<number> {
  return (await sql.query('DELETE FROM sessions WHERE expires_at <= $1 RETURNING id', [now])).length
}

/** Signs a user out everywhere (a password reset: whoever knew the old password loses their session). */
export async function deleteSessionsOfUser(sql: Sql, userId: string): Promise<number> {
  return (await sql.query('DELETE FROM sessions WHERE user_id = $1 RETURNING id', [userId])).length
}
