import { PROPERTIES_MAX, type EventProperty } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { typeOfObservations } from './types.ts'

/**
 * The properties of some of the organisation's events, from the dictionary:
 * each path (nested objects flattened to dotted paths, as ClickHouse's JSON
 * type names them) with its type, resolved from every type it was seen with
 * (lexicon/types.ts). By path; at most PROPERTIES_MAX an event.
 */
export async function eventProperties(store: EventStore, p: { orgId: string; events: string[] }): Promise<Map<string, EventProperty[]>> {
  const out = new Map<string, EventProperty[]>(p.events.map((e) => [e, []]))
  if (p.events.length === 0) return out
  const result = await store.client.query({
    query: `
      SELECT event, path, groupUniqArray(value_type) AS types
      FROM lexicon_properties
      WHERE org_id = {org:String} AND event IN {events:Array(String)}
      GROUP BY event, path
      ORDER BY event, path
      LIMIT {limit:UInt32} BY event`,
    query_params: { org: p.orgId, events: p.events, limit: PROPERTIES_MAX },
    format: 'JSONEachRow',
  })
  for (const row of await result.json<{ event: string; path: string; types: string[] }>()) {
    out.get(row.event)?.push({ name: row.path, propertyType: typeOfObservations(row.types) })
  }
  return out
}
