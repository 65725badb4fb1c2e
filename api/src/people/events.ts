import { metricDefinitionSchema, PEOPLE_TEXT, PROFILE_EVENTS_PAGE_SIZE, type ProfileEvent, type ProfileEvents, type StoredEventPayload } from '@fl0/contracts'
import { listMetrics, type Sql } from '@fl0/stores'
import { isoOf, num, personFilter, rows, type Client, type ResolvedPerson } from '@fl0/query'
import { notFound } from '../http/errors.ts'

/**
 * The user profile's Events tab: every stored call of the person (their user
 * id's and their linked anonymous ids', identity.ts), newest first, 20 a
 * page, each with the saved metrics that count it; and one call's whole
 * stored row, for the payload shown on hover or click.
 *
 * A metric counts an event when its definition names the event among its
 * events (stores/src/metadata/metrics.ts, read only). "Any event" metrics are
 * not listed: they would sit on every row and say nothing about any. Metric
 * events are track event names, so only track calls match.
 */
interface Row {
  timestamp: string
  type: string
  event: string
  name: string
  page_title: string
  page_path: string
  message_id: string
}

export async function profileEvents(client: Client, sql: Sql, orgId: string, person: ResolvedPerson, page: number): Promise<ProfileEvents> {
  const m = personFilter(person)
  const params = { org: orgId, ...m.params }
  const [found, [count], metrics] = await Promise.all([
    rows<Row>(
      client,
      `SELECT timestamp, type, event, name, page_title, page_path, message_id FROM events
       WHERE org_id = {org:String} AND ${m.where}
       ORDER BY timestamp DESC, message_id DESC
       LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      { ...params, limit: PROFILE_EVENTS_PAGE_SIZE, offset: (page - 1) * PROFILE_EVENTS_PAGE_SIZE },
    ),
    rows<{ n: string }>(client, `SELECT count() AS n FROM events WHERE org_id = {org:String} AND ${m.where}`, params),
    metricsByEvent(sql, orgId),
  ])
  const named = new Map<string, string>()
  const events = found.map((r): ProfileEvent => {
    const ids = r.type === 'track' ? (metrics.byEvent.get(r.event) ?? []) : []
    for (const id of ids) named.set(id, metrics.names.get(id)!)
    return { timestamp: isoOf(r.timestamp), event: eventLabel(r), type: r.type, messageId: r.message_id, metricIds: ids }
  })
  return {
    events,
    metrics: [...named].map(([metricId, name]) => ({ metricId, name })).sort((a, b) => a.name.localeCompare(b.name)),
    totalEvents: num(count?.n),
    page,
  }
}

/** A track's event name; a page's or screen's name, else its title, else its path; other calls their type; 'Unknown' when nameless. */
export function eventLabel(r: Pick<Row, 'type' | 'event' | 'name' | 'page_title' | 'page_path'>): string {
  const label = r.type === 'track' ? r.event : r.type === 'page' || r.type === 'screen' ? r.name || r.page_title || r.page_path : r.type
  return label.trim() || PEOPLE_TEXT.unknown
}

async function metricsByEvent(sql: Sql, orgId: string) {
  const byEvent = new Map<string, string[]>()
  const names = new Map<string, string>()
  for (const metric of await listMetrics(sql, orgId)) {
    // A definition saved by another version may not parse: it counts no event.
    const parsed = metricDefinitionSchema.safeParse(metric.definition)
    if (!parsed.success) continue
    names.set(metric.id, metric.name)
    for (const event of new Set(parsed.data.events.map((e) => e.name))) byEvent.set(event, [...(byEvent.get(event) ?? []), metric.id])
  }
  return { byEvent, names }
}

/**
 * One stored call of the person, whole: every column as stored (the
 * organisation's id left out, and the context's places, which the context shows), times as ISO-8601 UTC, JSON columns and the context as objects,
 * integrations parsed when it is JSON. Another person's call, or another
 * organisation's, is not found.
 */
export async function storedEvent(client: Client, orgId: string, person: ResolvedPerson, messageId: string): Promise<StoredEventPayload> {
  const m = personFilter(person)
  const [row] = await rows<Record<string, unknown>>(
    client,
    `SELECT * EXCEPT (org_id, context_city, context_region, context_country, context_timezone) FROM events WHERE org_id = {org:String} AND message_id = {id:String} AND ${m.where} LIMIT 1`,
    { org: orgId, id: messageId, ...m.params },
  )
  if (!row) throw notFound(PEOPLE_TEXT.eventNotFound)
  for (const key of ['timestamp', 'original_timestamp', 'sent_at', 'received_at']) {
    if (typeof row[key] === 'string') row[key] = isoOf(row[key] as string)
  }
  // integrations and (since clickhouse/0012) context are stored as JSON text.
  for (const key of ['integrations', 'context']) {
    if (typeof row[key] !== 'string') continue
    try {
      row[key] = JSON.parse(row[key] as string)
    } catch {
      // Kept as text: it is what was stored.
    }
  }
  return row
}
