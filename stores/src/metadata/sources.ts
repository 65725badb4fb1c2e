import { newId, newSharedSecret, newWriteKey } from './ids.ts'
import type { Sql } from './sql.ts'

export type SourceType = 'snippet' | 'segment'

export interface Source {
  id: string
  org_id: string
  type: SourceType
  name: string
  write_key: string
  url: string | null
  /**
   * Segment-type sources only (null for a snippet): what a Segment or RudderStack
   * workspace proves itself with when it forwards events to the source's webhook
   * (ingest/src/webhook.ts). 64 hex characters.
   */
  webhook_secret: string | null
}

const COLUMNS = 'id, org_id, type, name, write_key, url, webhook_secret'

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
    webhook_secret: input.type === 'segment' ? newSharedSecret() : null,
  }
  await sql.query(`INSERT INTO sources (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    source.id,
    source.org_id,
    source.type,
    source.name,
    source.write_key,
    source.url,
    source.webhook_secret,
  ])
  return source
}

/** What the ingest needs to take a forwarded event for a source: its organisation and webhook secret. */
export interface WebhookSource {
  id: string
  org_id: string
  webhook_secret: string
}

/**
 * A live source's webhook, by the source id in its URL; undefined for an
 * unknown or deleted source, and for a snippet source (which has none).
 */
export async function findWebhookSource(sql: Sql, id: string): Promise<WebhookSource | undefined> {
  const rows = await sql.query<WebhookSource>('SELECT id, org_id, webhook_secret FROM sources WHERE id = $1 AND webhook_secret IS NOT NULL', [id])
  return rows[0]
}

export async function findSourceByWriteKey(sql: Sql, writeKey: string): Promise<Source | undefined> {
  const rows = await sql.query<Source>(`SELECT ${COLUMNS} FROM sources WHERE write_key = $1`, [writeKey])
  return rows[0]
}

export async function listSources(sql: Sql, orgId: string): Promise<Source[]> {
  return sql.query<Source>(`SELECT ${COLUMNS} FROM sources WHERE org_id = $1 ORDER BY created_at, id`, [orgId])
}

/** One source of an organisation; undefined for another organisation's. */
export async function getSource(sql: Sql, orgId: string, id: string): Promise<Source | undefined> {
  const rows = await sql.query<Source>(`SELECT ${COLUMNS} FROM sources WHERE org_id = $1 AND id = $2`, [orgId, id])
  return rows[0]
}

/**
 * Deletes a source and retires its id and write key (retired_sources), in one
 * transaction: the key must never name a source again, since it may live on in
 * snippets on websites. The caller revokes the key in the ingest's cache.
 */
export async function deleteSource(sql: Sql, orgId: string, id: string): Promise<Source | undefined> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query<Source>(`DELETE FROM sources WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [orgId, id])
    const source = rows[0]
    if (source) {
      await tx.query('INSERT INTO retired_sources (id, org_id, write_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
        source.id,
        source.org_id,
        source.write_key,
      ])
    }
    return source
  })
}

/**
 * Whether an id or a write key has ever named a source, live or deleted, in any
 * organisation: what a new source's client-posted identifiers are checked against.
 */
export async function sourceIdentifiersInUse(sql: Sql, ids: { id?: string; writeKey?: string }): Promise<{ id: boolean; writeKey: boolean }> {
  const rows = await sql.query<{ id_used: boolean; key_used: boolean }>(
    `SELECT
       (EXISTS (SELECT 1 FROM sources WHERE id = $1) OR EXISTS (SELECT 1 FROM retired_sources WHERE id = $1)) AS id_used,
       (EXISTS (SELECT 1 FROM sources WHERE write_key = $2) OR EXISTS (SELECT 1 FROM retired_sources WHERE write_key = $2)) AS key_used`,
    [ids.id ?? null, ids.writeKey ?? null],
  )
  return { id: rows[0]?.id_used === true, writeKey: rows[0]?.key_used === true }
}

export async function updateSource(sql: Sql, orgId: string, id: string, changes: { name?: string; url?: string | null }): Promise<Source | undefined> {
  const rows = await sql.query<Source>(
    `UPDATE sources SET name = COALESCE($3, name), url = CASE WHEN $4::boolean THEN $5 ELSE url END
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, changes.name ?? null, changes.url !== undefined, changes.url ?? null],
  )
  return rows[0]
}
