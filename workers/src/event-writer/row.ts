import type { IngestedEvent } from '@fl0/contracts'

/** One row of `events` (clickhouse/0001_events.sql), in JSONEachRow form. */
export interface EventRow {
  org_id: string
  source_id: string
  message_id: string
  type: string
  event: string
  name: string
  user_id: string
  anonymous_id: string
  group_id: string
  previous_id: string
  timestamp: string
  original_timestamp: string | null
  sent_at: string | null
  received_at: string
  ip: string
  user_agent: string
  page_url: string
  page_path: string
  page_referrer: string
  page_title: string
  page_search: string
  properties: Record<string, unknown>
  traits: Record<string, unknown>
  context: Record<string, unknown>
  integrations: string
}

/** ISO-8601 → ClickHouse's DateTime64(3) text form, in UTC. */
export function chTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 23).replace('T', ' ')
}

/**
 * Page fields come from context.page (every analytics.js call carries it) and,
 * for page calls, from the properties analytics.js sets there.
 */
export function toRow(e: IngestedEvent): EventRow {
  const page = (typeof e.context.page === 'object' && e.context.page) || {}
  const pick = (key: string): string => {
    const fromContext = (page as Record<string, unknown>)[key]
    const value = fromContext ?? (e.type === 'page' ? e.properties[key] : undefined)
    return typeof value === 'string' ? value : ''
  }
  return {
    org_id: e.orgId,
    source_id: e.sourceId,
    message_id: e.messageId,
    type: e.type,
    event: e.event,
    name: e.name,
    user_id: e.userId,
    anonymous_id: e.anonymousId,
    group_id: e.groupId,
    previous_id: e.previousId,
    timestamp: chTime(e.timestamp),
    original_timestamp: e.originalTimestamp ? chTime(e.originalTimestamp) : null,
    sent_at: e.sentAt ? chTime(e.sentAt) : null,
    received_at: chTime(e.receivedAt),
    ip: e.ip,
    user_agent: e.userAgent,
    page_url: pick('url'),
    page_path: pick('path'),
    page_referrer: pick('referrer'),
    page_title: pick('title'),
    page_search: pick('search'),
    properties: e.properties,
    traits: e.traits,
    context: e.context,
    integrations: JSON.stringify(e.integrations ?? {}),
  }
}

/** A bus message that is not a valid event is poison: it goes to the dead-letter topic. */
export function parseEvent(value: string): { ok: true; event: IngestedEvent } | { ok: false; reason: string } {
  let e: IngestedEvent
  try {
    e = JSON.parse(value)
  } catch {
    return { ok: false, reason: 'not valid JSON' }
  }
  if (typeof e !== 'object' || e === null) return { ok: false, reason: 'not a JSON object' }
  for (const key of ['orgId', 'messageId', 'type', 'timestamp', 'receivedAt'] as const) {
    if (typeof e[key] !== 'string' || !e[key]) return { ok: false, reason: `${key} missing` }
  }
  if (Number.isNaN(Date.parse(e.timestamp)) || Number.isNaN(Date.parse(e.receivedAt))) return { ok: false, reason: 'timestamp not a date' }
  for (const key of ['properties', 'traits', 'context'] as const) {
    if (typeof e[key] !== 'object' || e[key] === null || Array.isArray(e[key])) return { ok: false, reason: `${key} not an object` }
  }
  return { ok: true, event: e }
}
