import type { EventStore } from '@fl0/stores'

const CHUNK = 2000

/**
 * Which of these message ids has `events` already stored for this organisation?
 *
 * Read from event_ids (clickhouse/0005), which a materialised view keeps beside
 * `events` and which is sorted by (org_id, message_id): the primary key answers
 * whatever the events' times, so a re-delivered event is found however far its
 * timestamp is from the first copy's (a client that re-sends with a new
 * timestamp, a bus replayed months later). No time window, none of its limits.
 */
export async function existingMessageIds(store: EventStore, orgId: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const result = await store.client.query({
      query: `SELECT DISTINCT message_id FROM event_ids
              WHERE org_id = {org:String} AND message_id IN {ids:Array(String)}`,
      query_params: { org: orgId, ids: ids.slice(i, i + CHUNK) },
      format: 'JSONEachRow',
    })
    for (const row of await result.json<{ message_id: string }>()) found.add(row.message_id)
  }
  return found
}
