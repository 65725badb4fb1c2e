import type { EventStore } from '@fl0/stores'
import type { KnownEvent } from '@fl0/contracts'

/**
 * The organisation's track events by name, most frequent first (ties by name),
 * for the event picker: of features now, of metrics later. All time, since an
 * event that was last sent months ago is still one a feature may be made of.
 *
 * `search` keeps the names containing it, ignoring case; empty keeps all. The
 * table's ORDER BY (org_id, event, timestamp) makes this one range of the
 * organisation's rows, read on the org_id, type and event columns only.
 */
export async function knownEvents(store: EventStore, p: { orgId: string; search: string; limit: number }): Promise<KnownEvent[]> {
  const result = await store.client.query({
    query: `
      SELECT event AS name, count() AS volume FROM events
      WHERE org_id = {org:String} AND type = 'track' AND event != ''
        AND ({search:String} = '' OR positionCaseInsensitiveUTF8(event, {search:String}) > 0)
      GROUP BY event
      ORDER BY volume DESC, name ASC
      LIMIT {limit:UInt32}`,
    query_params: { org: p.orgId, search: p.search, limit: p.limit },
    format: 'JSONEachRow',
  })
  const rows = await result.json<{ name: string; volume: string | number }>()
  // count() is UInt64, which ClickHouse sends as a string in JSON.
  return rows.map((r) => ({ name: r.name, volume: Number(r.volume) }))
}
