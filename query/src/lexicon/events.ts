import { createHash } from 'node:crypto'
import { chTime, type LexiconEvent } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

const DAY_MS = 24 * 60 * 60 * 1000
/** The volume's window: the 30 days up to now. */
export const VOLUME_DAYS = 30
/** Far more names than any tracking plan has; keeps a runaway stream of names from flooding one answer. */
export const LEXICON_EVENTS_MAX = 10_000

/** A stable id for an event name: the same name has the same tagId in every answer and after every restart. */
export const tagIdOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 16)

/**
 * The organisation's event names from the dictionary, each with its count of
 * the last 30 days counted from `events` itself (not kept by the worker, so a
 * replayed bus cannot inflate it). A name with no event in the window is
 * listed with 0. Most frequent first, ties by name.
 *
 * `events` is ordered by (org_id, event, timestamp): the count reads one range
 * of the organisation's rows, on the type, event and timestamp columns only.
 */
export async function lexiconEvents(store: EventStore, p: { orgId: string; now: Date }): Promise<LexiconEvent[]> {
  const result = await store.client.query({
    query: `
      SELECT d.event AS name, v.volume AS volume
      FROM (SELECT DISTINCT event FROM lexicon_events WHERE org_id = {org:String}) AS d
      LEFT JOIN (
        SELECT event, count() AS volume FROM events
        WHERE org_id = {org:String} AND type = 'track'
          AND timestamp > {since:DateTime64(3, 'UTC')} AND timestamp <= {until:DateTime64(3, 'UTC')}
        GROUP BY event
      ) AS v ON v.event = d.event
      ORDER BY volume DESC, name ASC
      LIMIT {limit:UInt32}`,
    query_params: { org: p.orgId, since: chTime(new Date(p.now.getTime() - VOLUME_DAYS * DAY_MS)), until: chTime(p.now), limit: LEXICON_EVENTS_MAX },
    format: 'JSONEachRow',
  })
  const rows = await result.json<{ name: string; volume: string | number }>()
  // count() is UInt64, which ClickHouse sends as a string in JSON.
  return rows.map((r) => ({ tagId: tagIdOf(r.name), name: r.name, volume: Number(r.volume) }))
}
