import { newId, newWriteKey } from './ids.ts'
import type { Sql } from './sql.ts'

export type SourceType = 'snippet' | 'segment'

export interface Source {
  id: string
  org_id: string
  type: SourceType
  name: string
  write_key: string
  url: string | null
}

const COLUMNS = 'id, org_id, type, name, write_key, url'

export async function createSource(
  sql: Sql,
  input: { orgId: string; type: SourceType; name: string; url?: string | null; id?: string; writeKey?: string },
): Promise<Source> {
  const source: Source = {
    id: input.id ?? newId(),
    org_id: input.orgId,
    type: input.type,
    name: input.name,
    write_key: input.writeKey ?? newWriteKey(),
    url: input.url ?? null,
  }
  await sql.query(`INSERT INTO sources (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
    source.id,
    source.org_id,
    source.type,
    source.name,
    source.write_key,
    source.url,
  ])
  return source
}

export async function findSourceByWriteKey(sql: Sql, writeKey: string): Promise<Source | undefined> {
  const rows = await sql.query<Source>(`SELECT ${COLUMNS} FROM sources WHERE write_key = $1`, [writeKey])
  return rows[0]
}

export async function listSources(sql: Sql, orgId: string): Promise<Source[]> {
  return sql.query<Source>(`SELECT ${COLUMNS} FROM sources WHERE org_id = $1 ORDER BY created_at, id`, [orgId])
}

export async function deleteSource(sql: Sql, orgId: string, id: string): Promise<Source | undefined> {
  const rows = await sql.query<Source>(`DELETE FROM sources WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [orgId, id])
  return rows[0]
}

export async function updateSource(sql: Sql, orgId: string, id: string, changes: { name?: string; url?: string | null }): Promise<Source | undefined> {
  const rows = await sql.query<Source>(
    `UPDATE sources SET name = COALESCE($3, name), url = CASE WHEN $4::boolean THEN $5 ELSE url END
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, changes.name ?? null, changes.url !== undefined, changes.url ?? null],
  )
  return rows[0]
}
