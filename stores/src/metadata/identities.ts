import type { Sql } from './sql.ts'
import type { User } from './users.ts'

/** External OIDC sign-ins: (issuer, subject) names a user for good, whatever the address says later. */
export async function findUserByIdentity(sql: Sql, issuer: string, subject: string): Promise<User | undefined> {
  const rows = await sql.query<User>(
    `SELECT u.id, u.email, u.name, u.is_staff
     FROM user_identities i JOIN users u ON u.id = i.user_id
     WHERE i.issuer = $1 AND i.subject = $2`,
    [issuer, subject],
  )
  return rows[0]
}

export async function linkIdentity(sql: Sql, input: { issuer: string; subject: string; userId: string }): Promise<void> {
  await sql.query(
    `INSERT INTO user_identities (issuer, subject, user_id) VALUES ($1, $2, $3) ON CONFLICT (issuer, subject) DO NOTHING`,
    [input.issuer, input.subject, input.userId],
  )
}
