import type { LeakKind } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { Params } from '@fl0/query'
import type { Prepared } from './learnable.ts'

/**
 * Events that would tell a model the answer instead of predicting it, left
 * out of its features (and shown as such on the Correlation tab):
 *
 *   metric     the metric's own events, by name, whatever its property
 *              filter: who did "Integration Connected" before is who does it
 *              again, which ranks first the users who already have one.
 *   companion  events that in the data happen only to users who had reached
 *              the metric by then: of the users who did the event (at least
 *              COMPANION_MIN_USERS), COMPANION_SHARE or more had done a
 *              metric event before their first one, or within
 *              COMPANION_SLACK_MS after it ("Receipt Emailed", "Integration
 *              Synced", a confirmation fired with the metric's event).
 *
 * Read over the whole period a model reads (from its backtest's first
 * feature day to now). A metric of any event has no own events and no
 * companions: every event is its own.
 */
export const COMPANION_SHARE = 0.95
export const COMPANION_MIN_USERS = 10
export const COMPANION_SLACK_MS = 3_600_000

export interface Leak {
  event: string
  leak: LeakKind
}

export async function findLeaks(events: EventStore, prepared: Prepared): Promise<Leak[]> {
  const own = prepared.metricEvents
  if (own.length === 0) return []
  const p = new Params()
  const w = prepared.windows
  const range = `org_id = ${p.bind('String', prepared.orgId)} AND type = 'track' AND user_id != '' AND event != ''
      AND timestamp >= ${p.bind("DateTime64(3, 'UTC')", w.backtestTrain.since)} AND timestamp <= ${p.bind("DateTime64(3, 'UTC')", w.label.until)}`
  const ownParam = p.bind('Array(String)', own)
  const result = await events.client.query({
    query: `
      SELECT e.event AS event
      FROM (
        SELECT user_id, event, min(timestamp) AS first_at FROM events
        WHERE ${range} AND event NOT IN ${ownParam}
        GROUP BY user_id, event
      ) AS e
      LEFT JOIN (
        SELECT user_id, min(timestamp) AS reached_at FROM events
        WHERE ${range} AND event IN ${ownParam}
        GROUP BY user_id
      ) AS m ON m.user_id = e.user_id
      GROUP BY e.event
      HAVING count() >= ${p.bind('UInt32', COMPANION_MIN_USERS)}
        AND countIf(toUnixTimestamp64Milli(m.reached_at) > 0 AND toUnixTimestamp64Milli(m.reached_at) <= toUnixTimestamp64Milli(e.first_at) + ${p.bind('UInt64', COMPANION_SLACK_MS)})
          >= ${p.bind('Float64', COMPANION_SHARE)} * count()
      ORDER BY e.event`,
    query_params: p.values,
    format: 'JSONEachRow',
  })
  const companions = (await result.json<{ event: string }>()).map((r) => r.event)
  return [...own.map((event): Leak => ({ event, leak: 'metric' })), ...companions.map((event): Leak => ({ event, leak: 'companion' }))]
}
