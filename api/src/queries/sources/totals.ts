import type { EventStore } from '@fl0/stores'

export interface SourceTotals {
  total: number
  unique_users: number
}

/**
 * All-time totals of one source: its events, and the people behind them.
 *
 * Unique users counts people, not ids: every user_id once; an anonymous_id once
 * only if it never appears beside a user_id on this source. So a visitor who
 * browses anonymously and then signs in (identify links the two ids) is one
 * user, not two; a visitor who never signs in is one user per anonymous id
 * (a browser, as the snippet keeps it). Rows with neither id count as events
 * but not as users.
 */
export async function sourceTotals(store: EventStore, p: { orgId: string; sourceId: string }): Promise<SourceTotals> {
  const result = await store.client.query({
    query: `
      WITH
        (SELECT count() FROM events WHERE org_id = {org:String} AND source_id = {source:String}) AS total,
        identified AS (
          SELECT DISTINCT anonymous_id FROM events
          WHERE org_id = {org:String} AND source_id = {source:String} AND user_id != '' AND anonymous_id != ''
        )
      SELECT total, uniqExact(person) AS unique_users FROM (
        SELECT concat('u:', user_id) AS person FROM events
        WHERE org_id = {org:String} AND source_id = {source:String} AND user_id != ''
        UNION ALL
        SELECT concat('a:', anonymous_id) AS person FROM events
        WHERE org_id = {org:String} AND source_id = {source:String} AND user_id = '' AND anonymous_id != ''
          AND anonymous_id NOT IN identified
      )`,
    query_params: { org: p.orgId, source: p.sourceId },
    format: 'JSONEachRow',
  })
  const [row] = await result.json<{ total: string | number; unique_users: string | number }>()
  return { total: Number(row?.total ?? 0), unique_users: Number(row?.unique_users ?? 0) }
}
