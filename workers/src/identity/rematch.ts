import { chTime } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { addressKey } from './ip.ts'
import type { Networks } from './networks/index.ts'
import { visitOfRow, visitRow, type VisitRow } from './visits.ts'

/**
 * Stored visits matched again against the network data in force, in place:
 * what makes new free data (or fl0's new rules for it, or FL0_IP_DATA turned
 * on or off) apply to past visits without a refresh from the events. The
 * identity worker runs it when it starts and the data's signature differs
 * from the one recorded in ip_data_applied (clickhouse/0011).
 *
 * Only the match columns change. A visit is rewritten with its own version
 * plus one: it replaces the row it was read from, but a visit the worker
 * writes meanwhile (versioned by the clock, far higher) wins, and was matched
 * against the same data anyway. So the worker can fold new events while this
 * runs, and a second run writes nothing. Stopped half-way, it has written
 * right rows only, and reports itself incomplete (the signature is then not
 * recorded, so the next start goes on). Several workers processes of a
 * cluster starting at once each run it: the same rows, written twice.
 */
const MATCH_COLUMNS = ['ip_company', 'ip_domain', 'ip_kind', 'ip_range_first', 'ip_range_last', 'ip_asn', 'ip_network', 'ip_source', 'ip_country', 'ip_region', 'ip_city'] as const

type StoredRow = VisitRow

/** Range ends compare as addresses (ClickHouse writes ::ffff:45.12.3.0 where fl0 wrote ::ffff:2d0c:300). */
function same(column: (typeof MATCH_COLUMNS)[number], a: unknown, b: unknown): boolean {
  if (column === 'ip_range_first' || column === 'ip_range_last') return addressKey(String(a)) === addressKey(String(b))
  return String(a) === String(b)
}

export async function rematchVisits(store: EventStore, networks: Networks, stopped: () => boolean = () => false): Promise<{ read: number; written: number; complete: boolean }> {
  const result = await store.client.query({
    query: `SELECT org_id, visitor_id, started_at, ended_at, anonymous_id, user_id, puid, ip, ${MATCH_COLUMNS.join(', ')}, email, name, version
            FROM identified_visits FINAL WHERE ip != ''`,
    format: 'JSONEachRow',
  })
  let read = 0
  let written = 0
  let pending: VisitRow[] = []
  const flush = async () => {
    if (pending.length > 0) await store.client.insert({ table: 'identified_visits', values: pending, format: 'JSONEachRow' })
    written += pending.length
    pending = []
  }
  let complete = true
  for await (const batch of result.stream<StoredRow>()) {
    // A worker asked to stop stops here: what is written stays right, and the next start matches the rest.
    if (stopped()) {
      complete = false
      result.close()
      break
    }
    for (const line of batch) {
      const row = line.json()
      read++
      const fresh = visitRow(visitOfRow(row), networks, Number(row.version) + 1)
      if (MATCH_COLUMNS.every((c) => same(c, fresh[c], row[c]))) continue
      pending.push(fresh)
    }
    if (pending.length >= 10_000) await flush()
  }
  if (pending.length) await flush()
  return { read, written, complete }
}

/** The signature last recorded in ip_data_applied, or undefined. */
export async function appliedSignature(store: EventStore): Promise<string | undefined> {
  const r = await store.client.query({ query: 'SELECT signature FROM ip_data_applied ORDER BY applied_at DESC LIMIT 1', format: 'JSONEachRow' })
  return (await r.json<{ signature: string }>())[0]?.signature
}

export async function recordSignature(store: EventStore, signature: string, visits: number, now = new Date()): Promise<void> {
  await store.client.insert({ table: 'ip_data_applied', values: [{ signature, visits, applied_at: chTime(now) }], format: 'JSONEachRow' })
}
