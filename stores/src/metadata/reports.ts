import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/** A custom report of one organisation: a named list of its metrics, in order (migration 0007). */
export interface ReportRow {
  id: string
  org_id: string
  name: string
  description: string
  /** Metric ids in the report's order. */
  metrics: string[]
  /** ISO 8601, UTC. */
  updated_date: string
}

export type ReportSummaryRow = Omit<ReportRow, 'org_id' | 'metrics'> & { metric_count: number }

/** A metric id that is not one of the organisation's metrics (another's, deleted, made up): nothing was written. */
export const UNKNOWN_METRIC = 'unknown-metric' as const

class UnknownMetric extends Error {}

const iso = (at: unknown) => new Date(at as string | Date).toISOString()

/** Most recently changed first (the reports_org_updated index), ties by name. */
export async function listReports(sql: Sql, orgId: string): Promise<ReportSummaryRow[]> {
  const rows = await sql.query<Omit<ReportSummaryRow, 'updated_date'> & { updated_at: unknown }>(
    `SELECT r.id, r.name, r.description, r.updated_at, count(rm.metric_id)::int AS metric_count
     FROM reports r LEFT JOIN report_metrics rm ON rm.report_id = r.id
     WHERE r.org_id = $1
     GROUP BY r.id
     ORDER BY r.updated_at DESC, lower(r.name), r.id`,
    [orgId],
  )
  return rows.map(({ updated_at, ...r }) => ({ ...r, metric_count: Number(r.metric_count), updated_date: iso(updated_at) }))
}

export async function findReport(sql: Sql, orgId: string, id: string): Promise<ReportRow | undefined> {
  const [row] = await sql.query<Omit<ReportRow, 'metrics' | 'updated_date'> & { updated_at: unknown }>(
    'SELECT id, org_id, name, description, updated_at FROM reports WHERE org_id = $1 AND id = $2',
    [orgId, id],
  )
  if (!row) return undefined
  const metrics = await sql.query<{ metric_id: string }>('SELECT metric_id FROM report_metrics WHERE report_id = $1 ORDER BY position', [id])
  const { updated_at, ...rest } = row
  return { ...rest, metrics: metrics.map((m) => m.metric_id), updated_date: iso(updated_at) }
}

/**
 * Replaces the report's metrics. Only the organisation's own metrics are
 * written (the join); one that is not makes the whole save roll back.
 */
async function writeMetrics(tx: Sql, orgId: string, reportId: string, metricIds: readonly string[]) {
  await tx.query('DELETE FROM report_metrics WHERE report_id = $1', [reportId])
  const ids = [...new Set(metricIds)]
  if (ids.length === 0) return
  const written = await tx.query(
    `INSERT INTO report_metrics (report_id, metric_id, position)
     SELECT $1, m.id, e.position - 1
     FROM unnest($2::text[]) WITH ORDINALITY AS e(id, position)
     JOIN metrics m ON m.id = e.id AND m.org_id = $3
     RETURNING metric_id`,
    [reportId, ids, orgId],
  )
  if (written.length !== ids.length) throw new UnknownMetric()
}

async function unlessUnknown<T>(write: () => Promise<T>): Promise<T | typeof UNKNOWN_METRIC> {
  try {
    return await write()
  } catch (err) {
    if (err instanceof UnknownMetric) return UNKNOWN_METRIC
    throw err
  }
}

export async function createReport(
  sql: Sql,
  input: { orgId: string; name: string; description: string; metricIds: readonly string[]; id?: string },
): Promise<ReportRow | typeof UNKNOWN_METRIC> {
  const id = input.id ?? newId()
  const created = await unlessUnknown(() =>
    sql.transaction(async (tx) => {
      await tx.query('INSERT INTO reports (id, org_id, name, description) VALUES ($1, $2, $3, $4)', [id, input.orgId, input.name, input.description])
      await writeMetrics(tx, input.orgId, id, input.metricIds)
    }),
  )
  if (created === UNKNOWN_METRIC) return created
  return (await findReport(sql, input.orgId, id))!
}

/**
 * Sets name and description, and the metrics when given (left out: they
 * stay). undefined when the organisation has no such report.
 */
export async function updateReport(
  sql: Sql,
  orgId: string,
  id: string,
  changes: { name: string; description: string; metricIds?: readonly string[] },
): Promise<ReportRow | undefined | typeof UNKNOWN_METRIC> {
  const found = await unlessUnknown(() =>
    sql.transaction(async (tx) => {
      // The row lock taken here makes saves of one report follow one another.
      const rows = await tx.query('UPDATE reports SET name = $3, description = $4, updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING id', [
        orgId,
        id,
        changes.name,
        changes.description,
      ])
      if (rows.length === 0) return false
      if (changes.metricIds) await writeMetrics(tx, orgId, id, changes.metricIds)
      return true
    }),
  )
  if (found === UNKNOWN_METRIC) return found
  return found ? findReport(sql, orgId, id) : undefined
}

/** The deleted report's id and name; undefined when the organisation has no such report. Its metric rows go with it; the metrics stay. */
export async function deleteReport(sql: Sql, orgId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await sql.query<{ id: string; name: string }>('DELETE FROM reports WHERE org_id = $1 AND id = $2 RETURNING id, name', [orgId, id])
  return row
}
