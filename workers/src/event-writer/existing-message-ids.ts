import type { EventStore } from '@fl0/stores'
import { chTime } from '@fl0/contracts'

/**
 * Which of these message ids does `events` already hold for this organisation?
 *
 * A re-delivered event (bus replay after a crash, a client retry) has the same
 * message id and a timestamp within seconds of the first copy's (the clock-skew
 * correction differs only by network latency), so the search is bounded to the
 * batch's time span widened by two days: partition pruning plus the message_id
 * bloom filter keep it cheap.
 */
const WINDOW_MS = 2 * 24 * 3600 * 1000
const CHUNK = 2000

export async function existingMessageIds(
  store: EventStore,
  orgId: string,
  ids: string[],
  fromMs: number,
  toMs: number,
): Promise<Set<string>> {
  const found = new Set<string>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const result = await store.client.query({
      query: `SELECT DISTINCT message_id FROM events
              WHERE org_id = {org:String}
                AND timestamp BETWEEN {from:DateTime64(3, 'UTC')} AND {to:DateTime64(3, 'UTC')}
                AND message_id IN {ids:Array(String)}`,
      query_params: {
        org: orgId,
        from: chTime(new Date(fromMs - WINDOW_MS)),
        to: chTime(new Date(toMs + WINDOW_MS)),
        ids: ids.slice(i, i + CHUNK),
      },
      format: 'JSONEachRow',
    })
    for (const row of await result.json<{ message_id: string }>()) found.add(row.message_id)
  }
  return found
}
