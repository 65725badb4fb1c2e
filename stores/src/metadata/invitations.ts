import { newId } from './ids.ts'
import type { Sql } from './sql.ts'
import type { Organisation } from './organisations.ts'
import type { OrgRole } from './memberships.ts'

export interface Invitation {
  id: string
  org_id: string
  email: string
  role: OrgRole
  created_at: Date
  expires_at: Date
  accepted_at: Date | null
}

const COLUMNS = 'id, org_id, email, role, created_at, expires_at, accepted_at'

/**
 * Invites an address, or renews its open invitation (a new link and a new expiry,
 * the same id): one open invitation per address and organisation. `tokenHash`
 * is the hash of the link's secret; the secret itself is never stored.
 */
export async function upsertInvitation(
  sql: Sql,
  input: { orgId: string; email: string; tokenHash: string; invitedBy: string; now: Date; expiresAt: Date; role?: OrgRole },
): Promise<Invitation> {
  const rows = await sql.query<Invitation>(
    `INSERT INTO invitations (id, org_id, email, role, token_hash, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (org_id, email) WHERE accepted_at IS NULL
     DO UPDATE SET token_hash = EXCLUDED.token_hash, invited_by = EXCLUDED.invited_by,
                   created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     RETURNING ${COLUMNS}`,
    [newId(), input.orgId, input.email.toLowerCase(), input.role ?? 'member', input.tokenHash, input.invitedBy, input.now, input.expiresAt],
  )
  return rows[0]!
}

/** Invitations not yet accepted (pending or expired), oldest first. */
export async function listOpenInvitations(sql: Sql, orgId: string): Promise<Invitation[]> {
  return sql.query<Invitation>(`SELECT ${COLUMNS} FROM invitations WHERE org_id = $1 AND accepted_at IS NULL ORDER BY created_at, id`, [orgId])
}

export async function findInvitationByTokenHash(sql: Sql, tokenHash: string): Promise<(Invitation & { organization: Organisation }) | undefined> {
  const rows = await sql.query<Invitation & { org_name: string; org_url_code: string }>(
    `SELECT i.id, i.org_id, i.email, i.role, i.created_at, i.expires_at, i.accepted_at, o.name AS org_name, o.url_code AS org_url_code
     FROM invitations i JOIN organisations o ON o.id = i.org_id
     WHERE i.token_hash = $1`,
    [tokenHash],
  )
  const row = rows[0]
  if (!row) return undefined
  const { org_name, org_url_code, ...invitation } = row
  return { ...invitation, organization: { id: row.org_id, name: org_name, url_code: org_url_code } }
}

/** Revokes an open invitation; accepted ones are history and stay. */
export async function deleteOpenInvitation(sql: Sql, orgId: string, id: string): Promise<Invitation | undefined> {
  const rows = await sql.query<Invitation>(
    `DELETE FROM invitations WHERE org_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING ${COLUMNS}`,
    [orgId, id],
  )
  return rows[0]
}

/** Marks the invitation accepted, unless it already is; true when this call accepted it. */
export async function markInvitationAccepted(sql: Sql, input: { id: string; userId: string; now: Date }): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE invitations SET accepted_at = $3, accepted_by = $2 WHERE id = $1 AND accepted_at IS NULL RETURNING id`,
    [input.id, input.userId, input.now],
  )
  return rows.length > 0
}
