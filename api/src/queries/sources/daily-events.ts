import { chTime } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

export interface DayCount {
  date: string
  value: number
}

/** YYYY-MM-DD of an instant in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** The `days` calendar days ending with the day of `now` in `timeZone`, oldest first. */
export function lastDays(now: Date, timeZone: string, days: number): string[] {
  const today = Date.parse(`${dayIn(now, timeZone)}T00:00:00Z`)
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10))
}

/**
 * Events of one source per calendar day of the organisation's time zone, for
 * the `days` days ending today: one point per day, days without events as 0.
 */
export async function sourceDailyEvents(
  store: EventStore,
  p: { orgId: string; sourceId: string; timeZone: string; now: Date; days: number },
): Promise<DayCount[]> {
  const days = lastDays(p.now, p.timeZone, p.days)
  const from = days[0]!
  const to = days[days.length - 1]!
  // A UTC bound a day wider than the local range on each side (no zone is 24 h
  // off UTC) lets ClickHouse skip the partitions (months) outside it; the exact
  // range is the local date's.
  const since = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000)
  const until = new Date(Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000)
  const result = await store.client.query({
    query: `
      SELECT toString(toDate(timestamp, {tz:String})) AS date, count() AS value
      FROM events
      WHERE org_id = {org:String} AND source_id = {source:String}
        AND timestamp >= {since:DateTime64(3, 'UTC')} AND timestamp < {until:DateTime64(3, 'UTC')}
        AND toDate(timestamp, {tz:String}) BETWEEN {from:Date} AND {to:Date}
      GROUP BY date`,
    query_params: {
      org: p.orgId,
      source: p.sourceId,
      tz: p.timeZone,
      from,
      to,
      since: chTime(since),
      until: chTime(until),
    },
    format: 'JSONEachRow',
  })
  const counts = new Map((await result.json<{ date: string; value: string | number }>()).map((r) => [r.date, Number(r.value)]))
  return days.map((date) => ({ date, value: counts.get(date) ?? 0 }))
}
