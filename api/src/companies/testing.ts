import { chTime } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

/**
 * Identified visits written straight into the store, for tests of what the
 * pages read from them: the identity worker's rows (clickhouse/0003 and 0009)
 * with every column filled, as the worker would for `partial`. visitor_id is
 * the anonymous id, else 'user:' and the user id, as the worker keys visits.
 */
export interface VisitPartial {
  org_id: string
  anonymous_id?: string
  user_id?: string
  started_at: Date
  ended_at?: Date
  ip?: string
  ip_kind?: string
  ip_asn?: number
  ip_network?: string
  ip_source?: string
  ip_country?: string
  ip_region?: string
  ip_city?: string
  ip_company?: string
  ip_domain?: string
  email?: string
}

export async function insertVisits(store: EventStore, visits: VisitPartial[]): Promise<void> {
  const values = visits.map((v) => ({
    visitor_id: v.anonymous_id || `user:${v.user_id}`,
    anonymous_id: '',
    user_id: '',
    puid: '',
    ip: '',
    ip_company: '',
    ip_domain: '',
    ip_kind: '',
    ip_asn: 0,
    ip_network: '',
    ip_source: '',
    ip_country: '',
    ip_region: '',
    ip_city: '',
    email: '',
    name: '',
    version: 1,
    is_deleted: 0,
    ...v,
    started_at: chTime(v.started_at),
    ended_at: chTime(v.ended_at ?? v.started_at),
  }))
  await store.client.insert({ table: 'identified_visits', values, format: 'JSONEachRow' })
}
