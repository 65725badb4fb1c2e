import { newSharedSecret } from './ids.ts'
import type { Sql } from './sql.ts'

/**
 * Identity callback secrets (migration 0015): at most one per organisation,
 * set, rotated and removed by its admins (api/src/routes/callback-secret.ts),
 * read by the ingest to check a signed callback (ingest/src/callback/secrets.ts).
 */

export interface CallbackOrg {
  orgId: string
  /** The organisation's secret, or null when it has none (unsigned callbacks are linked to it). */
  secret: string | null
}

/** What a callback's `org` names: an organisation by id, else by url code (an id wins over another's url code). */
export async function findCallbackOrg(sql: Sql, orgRef: string): Promise<CallbackOrg | undefined> {
  const rows = await sql.query<{ org_id: string; secret: string | null }>(
    `SELECT o.id AS org_id, s.secret
     FROM organisations o LEFT JOIN callback_secrets s ON s.org_id = o.id
     WHERE o.id = $1 OR o.url_code = $1
     ORDER BY (o.id = $1) DESC
     LIMIT 1`,
    [orgRef],
  )
  const row = rows[0]
  return row ? { orgId: row.org_id, secret: row.secret } : undefined
}

export interface CallbackSecretRow {
  secret: string
  created_at: Date
}

export async function getCallbackSecret(sql: Sql, orgId: string): Promise<CallbackSecretRow | undefined> {
  const rows = await sql.query<CallbackSecretRow>('SELECT secret, created_at FROM callback_secrets WHERE org_id = $1', [orgId])
  return rows[0]
}

/** A new secret for the organisation, replacing any it had (rotation): the old one stops working at once. */
export async function setCallbackSecret(sql: Sql, orgId: string, options: { createdBy?: string; now?: Date } = {}): Promise<CallbackSecretRow> {
  const rows = await sql.query<CallbackSecretRow>(
    `INSERT INTO callback_secrets (org_id, secret, created_at, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by
     RETURNING secret, created_at`,
    [orgId, newSharedSecret(), options.now ?? new Date(), options.createdBy ?? null],
  )
  return rows[0]!
}

/** Removes the organisation's secret; true when it had one. */
export async function removeCallbackSecret(sql: Sql, orgId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM callback_secrets WHERE org_id = $1 RETURNING org_id', [orgId])
  return rows.length > 0
}
