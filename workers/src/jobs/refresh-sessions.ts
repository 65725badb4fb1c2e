import { randomUUID } from 'node:crypto'
import { chTime } from '@fl0/contracts'
import { contextText, VISITOR_ID_SQL } from '@fl0/query'
import type { Networks } from '../identity/networks/index.ts'
import { visitsRewritten } from '../identity/known-visits.ts'
import { refreshNetworkRules } from '../identity/network-rules.ts'
import { hitOf, VISIT_GAP_MS, visitRow, visitsOf, type Hit, type VisitRow } from '../identity/visits.ts'
import { fmt, type Progress } from './progress.ts'
import type { EventStore } from '@fl0/stores'
import { insert, select } from './store.ts'

/**
 * "Refresh sessions and people": rebuilds identified_visits from the stored
 * events, with the ranges in force now (after an IP import, or when the
 * worker's visits drifted: two workers folding one visitor, events that
 * arrived days late). People are resolved from the visits when read, so
 * they follow at once.
 *
 * Per organisation: its events written before the job started are streamed
 * in visitor and time order through the same fold the identity worker uses
 * (workers/src/identity/visits.ts), into a staging table; then only the
 * difference is written: visits that are new or differ, and tombstones for
 * stored visits the events no longer make. A second run writes nothing.
 * Then its network rules are worked out again (identity/network-rules.ts).
 * Rows are written with the job's start as their version, so a visit the
 * worker writes meanwhile (from a newer event) wins over the refresh's.
 */
const VISIT_COLUMNS = [
  'org_id', 'visitor_id', 'started_at', 'ended_at', 'anonymous_id', 'user_id', 'puid', 'ip', 'ip_company', 'ip_domain', 'ip_kind',
  'ip_range_first', 'ip_range_last', 'ip_asn', 'ip_network', 'ip_source', 'ip_country', 'ip_region', 'ip_city', 'email', 'name',
] as const

/**
 * Events sorted at a time in chDB: it held about 3 GB sorting the demo's 10
 * million events whole (bench/README.md); a slice of visitors is sorted at a
 * time, each slice a scan of the organisation's events.
 */
const EVENTS_PER_SLICE = 2_000_000

export async function refreshSessions(
  store: EventStore,
  networks: Networks,
  orgIds: string[] | undefined,
  progress: Progress,
  now: Date,
  { eventsPerSlice = EVENTS_PER_SLICE }: { eventsPerSlice?: number } = {},
): Promise<string> {
  const client = store.client
  for (const name of ['events', 'visits', 'written', 'removed', 'unchanged']) progress.add(name, 0)
  const orgs = orgIds ?? (await select<{ org_id: string }>(client, 'SELECT DISTINCT org_id FROM events ORDER BY org_id')).map((r) => r.org_id)
  const version = now.getTime() * 1000
  for (const org of orgs) await refreshOrg(store, networks, org, progress, now, version, eventsPerSlice)
  const c = progress.counts
  return `Refreshed ${fmt(c.visits!)} visits of ${fmt(orgs.length)} organisation${orgs.length === 1 ? '' : 's'} from ${fmt(c.events!)} events (${fmt(c.written!)} written, ${fmt(c.removed!)} removed, ${fmt(c.unchanged!)} unchanged)`
}

async function refreshOrg(store: EventStore, networks: Networks, org: string, progress: Progress, now: Date, version: number, eventsPerSlice: number): Promise<void> {
  const client = store.client
  const id = randomUUID().replaceAll('-', '')
  const staging = `identified_visits_refresh_${id}`
  const diff = `identified_visits_diff_${id}`
  await client.command({ query: `CREATE TABLE ${staging} AS identified_visits ENGINE = MergeTree ORDER BY (org_id, visitor_id, started_at)` })
  try {
    const buffer: VisitRow[] = []
    const flush = async () => {
      await insert(client, staging, buffer.splice(0))
    }
    let visitor = ''
    let current: Hit[] = []
    const endVisit = async () => {
      for (const v of visitsOf(current)) {
        buffer.push(visitRow(v, networks, version))
        progress.add('visits')
      }
      current = []
      if (buffer.length >= 10_000) await flush()
    }
    // Every event of the organisation, in visitor and time order, read as it comes (streamRows), never held whole;
    // in slices of visitors (a hash of the visitor's key), so that the sort holds a slice's events, not all of them.
    const params = { org, snapshot: chTime(now) }
    const where = `org_id = {org:String} AND received_at <= {snapshot:DateTime64(3, 'UTC')} AND type != 'alias'`
    // A ClickHouse server sorts a large result on its own disk as it streams it: slices would only read the events again.
    const slices = store.kind === 'chdb' ? await slicesOf(store, where, params, eventsPerSlice) : 1
    const inSlice = slices > 1 ? ` AND cityHash64(${VISITOR_ID_SQL}) % {slices:UInt32} = {slice:UInt32}` : ''
    for (let slice = 0; slice < slices; slice++) {
      const events = store.streamRows<string[]>(
        `SELECT org_id, type, timestamp, user_id, anonymous_id, ip,
                  ${contextText('puid')} AS puid, toString(traits.email) AS email, toString(traits.name) AS name,
                  toString(traits.firstName) AS first_name, toString(traits.lastName) AS last_name
                FROM events
                WHERE ${where}${inSlice}
                ORDER BY ${VISITOR_ID_SQL}, timestamp, message_id`,
        slices > 1 ? { ...params, slices, slice } : params,
        'JSONCompactEachRow',
      )
      for await (const rows of events) {
        for (const row of rows) {
          const [org_id, type, timestamp, user_id, anonymous_id, ip, puid, email, name, firstName, lastName] = row
          const hit = hitOf({
            org_id: org_id!,
            type: type as never,
            timestamp: timestamp!,
            user_id: user_id!,
            anonymous_id: anonymous_id!,
            ip: ip!,
            context: { puid },
            traits: { email, name, firstName, lastName },
          })
          progress.add('events')
          if (!hit) continue
          const last = current[current.length - 1]
          if (hit.visitorId !== visitor || (last && hit.at - last.at > VISIT_GAP_MS)) await endVisit()
          visitor = hit.visitorId
          current.push(hit)
        }
      }
      // A slice's last visit ends with it: the next slice's visitors are others (ids that differ only by spaces
      // around them, one visitor to hitOf, may fall in two slices: they stay two visits, never one out of order).
      await endVisit()
      visitor = ''
    }
    await flush()

    // The difference goes to a table of its own first, so that what this job writes is counted exactly even while
    // the identity worker writes beside it; then into identified_visits in one insert.
    const cols = VISIT_COLUMNS.join(', ')
    await client.command({ query: `CREATE TABLE ${diff} AS identified_visits ENGINE = MergeTree ORDER BY (org_id, visitor_id, started_at)` })
    await client.command({
      query: `INSERT INTO ${diff} (${cols}, version, is_deleted)
              SELECT ${cols}, {version:UInt64}, 0 FROM ${staging} AS s
              LEFT ANTI JOIN (SELECT ${cols} FROM identified_visits FINAL WHERE org_id = {org:String}) AS c USING (${cols})`,
      query_params: { org, version },
    })
    await client.command({
      query: `INSERT INTO ${diff} (${cols}, version, is_deleted)
              SELECT ${VISIT_COLUMNS.map((c) => `c.${c}`).join(', ')}, {version:UInt64}, 1
              FROM (SELECT ${cols} FROM identified_visits FINAL WHERE org_id = {org:String} AND started_at <= {snapshot:DateTime64(3, 'UTC')}) AS c
              LEFT ANTI JOIN ${staging} AS s USING (org_id, visitor_id, started_at)`,
      query_params: { org, version, snapshot: chTime(now) },
    })
    try {
      await client.command({ query: `INSERT INTO identified_visits SELECT * FROM ${diff}` })
    } finally {
      // The identity worker's known visits (known-visits.ts) are now stale, even if the insert failed midway: it reads them again.
      visitsRewritten()
    }
    const [n] = await select<{ staged: string; written: string; removed: string }>(
      client,
      `SELECT (SELECT count() FROM ${staging}) AS staged, countIf(is_deleted = 0) AS written, countIf(is_deleted = 1) AS removed FROM ${diff}`,
    )
    progress.add('written', Number(n?.written ?? 0))
    progress.add('removed', Number(n?.removed ?? 0))
    progress.add('unchanged', Number(n?.staged ?? 0) - Number(n?.written ?? 0))
    // The organisation-wide rules follow the visits at once, rather than at the network rules worker's next pass
    // (which would work them out anyway: the job's visits are written, and it fails for nothing if this does).
    try {
      await refreshNetworkRules(store, [org], now)
    } catch (err) {
      progress.log(`network rules of ${org} not worked out (${err instanceof Error ? err.message : String(err)}): the workers' next pass will`)
    }
  } finally {
    await client.command({ query: `DROP TABLE IF EXISTS ${staging}` })
    await client.command({ query: `DROP TABLE IF EXISTS ${diff}` })
  }
}

/** How many slices of at most `eventsPerSlice` events the organisation's events to refresh make (at least one). */
async function slicesOf(store: EventStore, where: string, params: Record<string, unknown>, eventsPerSlice: number): Promise<number> {
  const [count] = await select<{ n: string }>(store.client, `SELECT count() AS n FROM events WHERE ${where}`, params)
  return Math.max(1, Math.ceil(Number(count?.n ?? 0) / eventsPerSlice))
}
