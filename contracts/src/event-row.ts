import type { IngestedEvent } from './ingest.ts'

/**
 * How an event travels on the bus: its stored row as a JSON array of the
 * values of EVENT_ROW_COLUMNS, in their order. The event writer hands the
 * bytes to ClickHouse as they are (JSONCompactEachRow, the columns named in
 * the insert), which reads no key names: 4–12 µs less CPU an event than the
 * same row as a JSON object (bench/README.md, issue 19), and 30 % fewer bytes
 * on the bus for the bench's events.
 *
 * Records written as JSON objects (IngestedEvent's keys, org_id, message_id
 * and timestamp first), by fl0 before this form or by a test, are read too,
 * everywhere a record is read: eventOfRecord takes either.
 *
 * Columns are only ever appended to EVENT_ROW_COLUMNS, never removed or
 * reordered: a row written before a column was added (still on the bus after
 * an upgrade) then has fewer values, and is read as the first columns' values,
 * the others missing (the event writer's full check stores it as an object,
 * ClickHouse filling in their defaults). A row with more values than this
 * version knows (written by a later fl0) is not read.
 */

/** Every key of a stored row, once (the compiler holds it to IngestedEvent: none missing, none extra). */
const COLUMN_SET: { [K in keyof Required<IngestedEvent>]: true } = {
  org_id: true,
  message_id: true,
  timestamp: true,
  source_id: true,
  type: true,
  event: true,
  name: true,
  user_id: true,
  anonymous_id: true,
  group_id: true,
  previous_id: true,
  original_timestamp: true,
  sent_at: true,
  received_at: true,
  ip: true,
  user_agent: true,
  page_url: true,
  page_path: true,
  page_referrer: true,
  page_title: true,
  page_search: true,
  properties: true,
  traits: true,
  context: true,
  integrations: true,
  context_city: true,
  context_region: true,
  context_country: true,
  context_timezone: true,
}

/** The columns of `events` a bus record fills, in the order of its values: org_id, message_id and timestamp first (the event writer reads them off the front). Only ever appended to. */
export const EVENT_ROW_COLUMNS = Object.keys(COLUMN_SET) as ReadonlyArray<keyof IngestedEvent>

/** How many values the first rows had (the columns when rows began): no row is shorter. */
export const FIRST_EVENT_ROW_LENGTH = 29

/**
 * The bus value of an event: its values in EVENT_ROW_COLUMNS' order. Spelt
 * out rather than mapped over the columns (a closure per event on the
 * ingest's hot path); event-row.test.ts holds the two to the same order.
 * An event without its place columns, which only the ingest computes, goes
 * as a JSON object, so that ClickHouse derives them from its context.
 */
export function eventRecordText(e: IngestedEvent): string {
  if (e.context_city === undefined || e.context_region === undefined || e.context_country === undefined || e.context_timezone === undefined) return JSON.stringify(e)
  return JSON.stringify([
    e.org_id,
    e.message_id,
    e.timestamp,
    e.source_id,
    e.type,
    e.event,
    e.name,
    e.user_id,
    e.anonymous_id,
    e.group_id,
    e.previous_id,
    e.original_timestamp,
    e.sent_at,
    e.received_at,
    e.ip,
    e.user_agent,
    e.page_url,
    e.page_path,
    e.page_referrer,
    e.page_title,
    e.page_search,
    e.properties,
    e.traits,
    e.context,
    e.integrations,
    e.context_city,
    e.context_region,
    e.context_country,
    e.context_timezone,
  ])
}

/**
 * A parsed bus record as the event's object: a row's values mapped to the
 * first of EVENT_ROW_COLUMNS (all of them, unless it was written before some
 * were added), an object as it is. Anything else (a row of fewer values than
 * any fl0 wrote, or of more than this one knows; a string) is given back as it
 * came, for the caller's checks to refuse.
 */
export function eventOfRecord(parsed: unknown): unknown {
  if (!Array.isArray(parsed) || parsed.length < FIRST_EVENT_ROW_LENGTH || parsed.length > EVENT_ROW_COLUMNS.length) return parsed
  const event: Record<string, unknown> = {}
  for (let i = 0; i < parsed.length; i++) event[EVENT_ROW_COLUMNS[i]!] = parsed[i]
  return event
}

/** A record's layout: 'row', a JSON array of EVENT_ROW_COLUMNS' values (ClickHouse's JSONCompactEachRow); 'object', IngestedEvent's keys (JSONEachRow). */
export type EventRecordForm = 'row' | 'object'

/** The layout of a record, text or bytes, by its first character. */
export function eventRecordForm(record: Uint8Array | string): EventRecordForm {
  return (typeof record === 'string' ? record.charCodeAt(0) : record[0]) === 0x5b /* [ */ ? 'row' : 'object'
}

/** A bus record's text (either form) parsed into the event's object; throws as JSON.parse does. */
export function parseEventRecord(text: string): unknown {
  return eventOfRecord(JSON.parse(text))
}
