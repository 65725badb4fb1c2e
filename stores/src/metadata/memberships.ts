import type { Sql } from './sql.ts'
import type { Organisation } from './organisations.ts'

export type OrgRole = 'admin' | 'member'

export interface Member {
  user_id: string
  email: string
  name: string
  role: OrgRole
}

export async function addMembership(sql: Sql, input: { orgId: string; userId: string; role: OrgRole }): Promise<void> {
  await sql.query(
    `INSERT INTO memberships (org_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (org_id, user_id) DO NOTHING`,
    [input.orgId, input.userId, input.role],
  )
}

/**
 * The guard's one look-up: the organisation with this url_code, and the user's
 * role in it; undefined when either the organisation or the membership is missing,
 * so callers cannot tell "no such organisation" from "not yours".
 */
export async function findMembership(sql: Sql, urlCode: string, userId: string): Promise<{ org: Organisation; role: OrgRole } | undefined> {
  const rows = await sql.query<Organisation & { role: OrgRole }>(
    `SELECT o.id, o.name, o.url_code, m.role
     FROM organisations o JOIN memberships m ON m.org_id = o.id
     WHERE o.url_code = $1 AND m.user_id = $2`,
    [urlCode, userId],
  )
  const row = rows[0]
  if (!row) return undefined
  const { role, ...org } = row
  return { org, role }
}

export async function listUserOrgs(sql: Sql, userId: string): Promise<Array<Organisation & { role: OrgRole }>> {
  return sql.query(
    `SELECT o.id, o.name, o.url_code, m.role
     FROM memberships m JOIN organisations o ON o.id = m.org_id
     WHERE m.user_id = $1
     ORDER BY m.created_at, o.url_code`,
    [userId],
  )
}

export async function listMembers(sql: Sql, orgId: string): Promise<Member[]> {
  return sql.query<Member>(
    `SELECT u.id AS user_id, u.email, u.name, m.role
     FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1
     ORDER BY m.created_at, u.email`,
    [orgId],
  )
}

export async function isMember(sql: Sql, orgId: string, userId: string): Promise<boolean> {
  return (await sql.query('SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId])).length > 0
}

/**
 * Removes a member. Refuses (returns 'last-admin') to remove the organisation's
 * last admin, who alone could invite anyone again. The organisation's rows are
 * locked first so two removals at once cannot each leave the other as "last".
 */
export async function removeMembership(sql: Sql, orgId: string, userId: string): Promise<Member | undefined | 'last-admin'> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM organisations WHERE id = $1 FOR UPDATE', [orgId])
    const members = await listMembers(tx, orgId)
    const member = members.find((m) => m.user_id === userId)
    if (!member) return undefined
    if (member.role === 'admin' && members.filter((m) => m.role === 'admin').length === 1) return 'last-admin'
    await tx.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId])
    return member
  })
}
