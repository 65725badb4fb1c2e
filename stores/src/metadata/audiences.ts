import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/**
 * A saved audience of one organisation (migration 0009). The filters are kept
 * as the JSON the api normalised (contracts' audienceFiltersSchema): the store
 * does not interpret them, so filters saved by an older version come back as
 * they were and the api decides what they mean.
 */
export interface AudienceRow {
  id: string
  org_id: string
  name: string
  description: string
  filters: unknown
}

const COLUMNS = 'id, org_id, name, description, filters'

/** Every audience of the organisation, by name ignoring case (the audiences_org_name index). */
export async function listAudiences(sql: Sql, orgId: string): Promise<AudienceRow[]> {
  return sql.query<AudienceRow>(`SELECT ${COLUMNS} FROM audiences WHERE org_id = $1 ORDER BY lower(name), name, id`, [orgId])
}

export async function findAudience(sql: Sql, orgId: string, id: string): Promise<AudienceRow | undefined> {
  const [row] = await sql.query<AudienceRow>(`SELECT ${COLUMNS} FROM audiences WHERE org_id = $1 AND id = $2`, [orgId, id])
  return row
}

/** Several audiences of the organisation at once (nested audiences, resolved level by level); unknown ids are left out. */
export async function findAudiences(sql: Sql, orgId: string, ids: readonly string[]): Promise<AudienceRow[]> {
  if (ids.length === 0) return []
  return sql.query<AudienceRow>(`SELECT ${COLUMNS} FROM audiences WHERE org_id = $1 AND id = ANY($2::text[])`, [orgId, [...new Set(ids)]])
}

export async function createAudience(sql: Sql, input: { orgId: string; name: string; description: string; filters?: unknown; id?: string }): Promise<AudienceRow> {
  const [row] = await sql.query<AudienceRow>(
    `INSERT INTO audiences (id, org_id, name, description, filters)
     VALUES ($1, $2, $3, $4, COALESCE($5::jsonb, '{"match_aggregation":"and","matches":[],"action_aggregation":"and","actions":[]}'::jsonb))
     RETURNING ${COLUMNS}`,
    [input.id ?? newId(), input.orgId, input.name, input.description, input.filters === undefined ? null : JSON.stringify(input.filters)],
  )
  return row!
}

/** Changes what is given; undefined when the organisation has no such audience. */
export async function updateAudience(
  sql: Sql,
  orgId: string,
  id: string,
  changes: { name?: string; description?: string; filters?: unknown },
): Promise<AudienceRow | undefined> {
  const [row] = await sql.query<AudienceRow>(
    `UPDATE audiences SET name = COALESCE($3, name), description = COALESCE($4, description), filters = COALESCE($5::jsonb, filters), updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, changes.name ?? null, changes.description ?? null, changes.filters === undefined ? null : JSON.stringify(changes.filters)],
  )
  return row
}

/** The deleted audience's id and name; undefined when the organisation has no such audience. */
export async function deleteAudience(sql: Sql, orgId: string, id: string): Promise<Pick<AudienceRow, 'id' | 'name'> | undefined> {
  const [row] = await sql.query<Pick<AudienceRow, 'id' | 'name'>>('DELETE FROM audiences WHERE org_id = $1 AND id = $2 RETURNING id, name', [orgId, id])
  return row
}
