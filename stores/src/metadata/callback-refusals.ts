import type { Sql } from './sql.ts'

/**
 * What the identity callback refused, by UTC day and reason (migration 0015).
 * Each ingest process adds the counts it gathered since its last write, so the
 * sums hold across a cluster's ingest processes.
 */

/** Adds counts to a day's rows: one statement, whatever the number of reasons. */
export async function addCallbackRefusals(sql: Sql, day: string, counts: Readonly<Record<string, number>>): Promise<void> {
  const entries = Object.entries(counts).filter(([, n]) => n > 0)
  if (entries.length === 0) return
  const values = entries.map((_, i) => `($1::date, $${i * 2 + 2}, $${i * 2 + 3}::bigint)`).join(', ')
  await sql.query(
    `INSERT INTO callback_refusals (day, reason, count) VALUES ${values}
     ON CONFLICT (day, reason) DO UPDATE SET count = callback_refusals.count + EXCLUDED.count`,
    [day, ...entries.flatMap(([reason, n]) => [reason, n])],
  )
}

/** Every day's counts summed, by reason (reasons never refused are absent). */
export async function callbackRefusalTotals(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql.query<{ reason: string; n: string | number }>('SELECT reason, sum(count) AS n FROM callback_refusals GROUP BY reason')
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)]))
}
