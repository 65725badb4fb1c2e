import { MAPPING_PAGE_SIZE } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

/**
 * One page of the organisation's event names for the mapping list, by name
 * ignoring case, with how many there are in all. `search` keeps the names
 * containing it, ignoring case; empty keeps all. Pages start at 1.
 */
export async function mappingEventNames(store: EventStore, p: { orgId: string; search: string; page: number }): Promise<{ names: string[]; total: number }> {
  const where = `org_id = {org:String} AND ({search:String} = '' OR positionCaseInsensitiveUTF8(event, {search:String}) > 0)`
  const params = { org: p.orgId, search: p.search }
  const [page, total] = await Promise.all([
    store.client.query({
      query: `SELECT DISTINCT event FROM lexicon_events WHERE ${where}
              ORDER BY lowerUTF8(event), event LIMIT {size:UInt32} OFFSET {offset:UInt64}`,
      query_params: { ...params, size: MAPPING_PAGE_SIZE, offset: (p.page - 1) * MAPPING_PAGE_SIZE },
      format: 'JSONEachRow',
    }),
    store.client.query({ query: `SELECT uniqExact(event) AS n FROM lexicon_events WHERE ${where}`, query_params: params, format: 'JSONEachRow' }),
  ])
  const names = (await page.json<{ event: string }>()).map((r) => r.event)
  const [count] = await total.json<{ n: string | number }>()
  return { names, total: Number(count?.n ?? 0) }
}
