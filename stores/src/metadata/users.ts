import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

export interface User {
  id: string
  email: string
  name: string
  is_staff: boolean
}

const COLUMNS = 'id, email, name, is_staff'
/** Serialises account creation so that exactly one account can be the first. */
const FIRST_ACCOUNT_LOCK = 7247102

/**
 * Creates a user. The first account on a fresh install is staff, later ones are
 * not (a staff member can promote them): the check and the insert run under one
 * lock so two sign-ups at once cannot both be first. The address is stored
 * lowercased; a taken address fails with the unique violation (code 23505).
 * `then` runs inside the same transaction (a local password, an identity link).
 */
export async function createUser(
  sql: Sql,
  input: { email: string; name: string; id?: string },
  then?: (tx: Sql, user: User) => Promise<void>,
): Promise<User> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_ACCOUNT_LOCK])
    const rows = await tx.query<User>(
      `INSERT INTO users (id, email, name, is_staff)
       VALUES ($1, $2, $3, NOT EXISTS (SELECT 1 FROM users))
       RETURNING ${COLUMNS}`,
      [input.id ?? newId(), input.email.toLowerCase(), input.name],
    )
    const user = rows[0]!
    if (user.is_staff) {
      // The first account adopts, as admin, organisations made before anyone could
      // sign in (`npm run demo` on a fresh install): otherwise nobody could reach them.
      await tx.query(
        `INSERT INTO memberships (org_id, user_id, role)
         SELECT o.id, $1, 'admin' FROM organisations o
         WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = o.id)`,
        [user.id],
      )
    }
    if (then) await then(tx, user)
    return user
  })
}

export async function findUserById(sql: Sql, id: string): Promise<User | undefined> {
  return (await sql.query<User>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]))[0]
}

export async function findUserByEmail(sql: Sql, email: string): Promise<User | undefined> {
  return (await sql.query<User>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email.toLowerCase()]))[0]
}

export async function listUsers(sql: Sql): Promise<User[]> {
  return sql.query<User>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, id`)
}

/**
 * Sets a user's staff flag. Refuses (returns 'last-staff') to take it from the
 * last staff member, which would leave nobody able to reach the admin area.
 */
export async function setStaff(sql: Sql, id: string, isStaff: boolean): Promise<User | undefined | 'last-staff'> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_ACCOUNT_LOCK])
    if (!isStaff) {
      const staff = await tx.query<{ id: string }>('SELECT id FROM users WHERE is_staff')
      if (staff.length === 1 && staff[0]!.id === id) return 'last-staff'
    }
    return (await tx.query<User>(`UPDATE users SET is_staff = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, isStaff]))[0]
  })
}
