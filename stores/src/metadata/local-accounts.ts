import type { Sql } from './sql.ts'
import type { User } from './users.ts'

/** The built-in provider's passwords. The hash format belongs to the api (scrypt, with its parameters). */
export async function setLocalPassword(sql: Sql, userId: string, passwordHash: string): Promise<void> {
  await sql.query(
    `INSERT INTO local_accounts (user_id, password_hash) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash`,
    [userId, passwordHash],
  )
}

export interface LocalAccount {
  user: User
  password_hash: string
}

export async function findLocalAccount(sql: Sql, email: string): Promise<LocalAccount | undefined> {
  const rows = await sql.query<User & { password_hash: string }>(
    `SELECT u.id, u.email, u.name, u.is_staff, a.password_hash
     FROM users u JOIN local_accounts a ON a.user_id = u.id
     WHERE u.email = $1`,
    [email.toLowerCase()],
  )
  const row = rows[0]
  if (!row) return undefined
  const { password_hash, ...user } = row
  return { user, password_hash }
}
