import { VALUES_MAX } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

/**
 * The values an event's property took, most frequent first (ties by value),
 * at most VALUES_MAX. The path is a bound parameter read with getSubcolumn, so
 * any name (quotes, dots, spaces, backticks) addresses its path and nothing
 * else; values print as ClickHouse's text of them (an array as ['a','b']).
 * Empty text is left out: it is no value to pick. One event's rows are one
 * range of `events` (ORDER BY org_id, event, timestamp).
 */
export async function propertyValues(store: EventStore, p: { orgId: string; event: string; path: string }): Promise<string[]> {
  const result = await store.client.query({
    query: `
      SELECT toString(getSubcolumn(properties, {path:String})) AS value, count() AS n
      FROM events
      WHERE org_id = {org:String} AND type = 'track' AND event = {event:String}
        AND dynamicType(getSubcolumn(properties, {path:String})) != 'None'
      GROUP BY value
      HAVING value != ''
      ORDER BY n DESC, value ASC
      LIMIT {limit:UInt32}`,
    query_params: { org: p.orgId, event: p.event, path: p.path, limit: VALUES_MAX },
    format: 'JSONEachRow',
  })
  return (await result.json<{ value: string }>()).map((r) => r.value)
}

/**
 * The values a user trait (identify calls) or company trait (group calls)
 * took, by how many users or companies were given each, most first (ties by
 * value), at most VALUES_MAX. A user is its user id, else its anonymous id; a
 * company its group id. Read from trait_calls (clickhouse/0004: each distinct
 * identify or group call of a caller once), which holds every value each
 * caller gave, so the counts are those of every call in `events`: at 10
 * million events 2–3 s there (the identify and group rows share their range
 * with every page view), against a few tens of ms here.
 */
export async function traitValues(store: EventStore, p: { orgId: string; entity: 'user' | 'company'; name: string }): Promise<string[]> {
  const result = await store.client.query({
    query: `
      SELECT toString(getSubcolumn(traits, {name:String})) AS value,
             uniqExact(if({type:String} = 'group', group_id, if(user_id != '', user_id, anonymous_id))) AS n
      FROM trait_calls
      WHERE org_id = {org:String} AND type = {type:String}
        AND dynamicType(getSubcolumn(traits, {name:String})) != 'None'
      GROUP BY value
      HAVING value != ''
      ORDER BY n DESC, value ASC
      LIMIT {limit:UInt32}`,
    query_params: { org: p.orgId, type: p.entity === 'company' ? 'group' : 'identify', name: p.name, limit: VALUES_MAX },
    format: 'JSONEachRow',
  })
  return (await result.json<{ value: string }>()).map((r) => r.value)
}
