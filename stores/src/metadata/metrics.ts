import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/**
 * A saved metric of one organisation (migration 0005). The definition is kept
 * as the JSON the editor saved: the store does not interpret it (contracts'
 * metricDefinitionSchema does, in the api), so a definition saved by an older
 * version comes back as it was and the api decides whether it is still valid.
 */
export interface MetricRow {
  id: string
  org_id: string
  name: string
  description: string
  category: string
  definition: unknown
}

export type MetricInput = Pick<MetricRow, 'name' | 'description' | 'category' | 'definition'>

const COLUMNS = 'id, org_id, name, description, category, definition'

/** Every metric of the organisation, by category and then by name, ignoring case (the metrics_org_category index). */
export async function listMetrics(sql: Sql, orgId: string): Promise<MetricRow[]> {
  return sql.query<MetricRow>(`SELECT ${COLUMNS} FROM metrics WHERE org_id = $1 ORDER BY category, lower(name), id`, [orgId])
}

export async function findMetric(sql: Sql, orgId: string, id: string): Promise<MetricRow | undefined> {
  const [row] = await sql.query<MetricRow>(`SELECT ${COLUMNS} FROM metrics WHERE org_id = $1 AND id = $2`, [orgId, id])
  return row
}

export async function createMetric(sql: Sql, input: MetricInput & { orgId: string; id?: string }): Promise<MetricRow> {
  const [row] = await sql.query<MetricRow>(
    `INSERT INTO metrics (id, org_id, name, description, category, definition) VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING ${COLUMNS}`,
    [input.id ?? newId(), input.orgId, input.name, input.description, input.category, JSON.stringify(input.definition)],
  )
  return row!
}

/** Replaces the metric's fields; undefined when the organisation has no such metric. */
export async function updateMetric(sql: Sql, orgId: string, id: string, input: MetricInput): Promise<MetricRow | undefined> {
  const [row] = await sql.query<MetricRow>(
    `UPDATE metrics SET name = $3, description = $4, category = $5, definition = $6::jsonb, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [orgId, id, input.name, input.description, input.category, JSON.stringify(input.definition)],
  )
  return row
}

/** The deleted metric's id and name; undefined when the organisation has no such metric. */
export async function deleteMetric(sql: Sql, orgId: string, id: string): Promise<Pick<MetricRow, 'id' | 'name'> | undefined> {
  const [row] = await sql.query<Pick<MetricRow, 'id' | 'name'>>('DELETE FROM metrics WHERE org_id = $1 AND id = $2 RETURNING id, name', [orgId, id])
  return row
}
