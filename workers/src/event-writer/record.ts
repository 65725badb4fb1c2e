import { EVENT_ROW_COLUMNS, eventOfRecord, FIRST_EVENT_ROW_LENGTH, eventRecordForm as formOf, type IngestedEvent } from '@fl0/contracts'

/**
 * What the writer needs from a bus record without parsing all of it: the
 * organisation and the message id, read off the front of the JSON that ingest
 * wrote with those values and the timestamp first (event-row.ts): a JSON array
 * of the row's values, or, as fl0 wrote records before, a JSON object with
 * those keys first.
 */
export interface RecordHead {
  orgId: string
  messageId: string
}


const TIME = String.raw`"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"`
const ID = String.raw`"((?:[^"\\]|\\.)*)"`
const ROW_HEAD = new RegExp(`^\\[${ID},${ID},${TIME}`)
const OBJECT_HEAD = new RegExp(`^\\{"org_id":${ID},"message_id":${ID},"timestamp":${TIME}`)
const CH_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/

export function readHead(value: string): RecordHead | undefined {
  const m = (formOf(value) === 'row' ? ROW_HEAD : OBJECT_HEAD).exec(value)
  if (!m) return undefined
  return { orgId: unescapeJson(m[1]!), messageId: unescapeJson(m[2]!) }
}

const unescapeJson = (s: string): string => (s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s)

const QUOTE = 0x22
const BACKSLASH = 0x5c
/** The text before the organisation, between it and the message id, and between that and the timestamp, in each form. */
const LAYOUTS = {
  row: [Buffer.from('["'), Buffer.from('","'), Buffer.from('","')],
  object: [Buffer.from('{"org_id":"'), Buffer.from('","message_id":"'), Buffer.from('","timestamp":"')],
} as const
const TIME_VALUE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"$/

/**
 * readHead on a record's UTF-8 bytes (as the bus holds them), decoding only the
 * two ids: a record read back from disk then costs no decode of its whole text,
 * and its head keeps no part of one alive. Undefined where it cannot tell (an id
 * with an escape in it, another layout): readHead on the text decides then.
 */
export function readHeadBytes(bytes: Uint8Array): RecordHead | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const [open, toId, toTime] = LAYOUTS[formOf(b)]
  if (!at(b, open, 0)) return undefined
  const orgStart = open.length
  const orgEnd = b.indexOf(QUOTE, orgStart)
  if (orgEnd < 0 || !at(b, toId, orgEnd)) return undefined
  const idStart = orgEnd + toId.length
  const idEnd = b.indexOf(QUOTE, idStart)
  if (idEnd < 0 || !at(b, toTime, idEnd)) return undefined
  const timeStart = idEnd + toTime.length
  if (timeStart + 24 > b.length || !TIME_VALUE.test(b.toString('latin1', timeStart, timeStart + 24))) return undefined
  for (let i = orgStart; i < idEnd; i++) if (b[i] === BACKSLASH) return undefined
  return { orgId: b.toString('utf8', orgStart, orgEnd), messageId: b.toString('utf8', idStart, idEnd) }
}

function at(b: Buffer, text: Buffer, offset: number): boolean {
  return offset + text.length <= b.length && b.compare(text, 0, text.length, offset, offset + text.length) === 0
}

/**
 * The full check, for records whose head could not be read, or when ClickHouse
 * refused a batch: says why a record is poison, or gives it back re-serialised as
 * a JSON object in the canonical key order (a row's values too: JSONEachRow then
 * reads it by name, so that a row written before columns were added is stored
 * with their defaults, and one of a length no fl0 wrote is told apart).
 */
export function checkRecord(value: string): { ok: true; value: string; head: RecordHead } | { ok: false; reason: string } {
  let e: IngestedEvent
  try {
    e = eventOfRecord(JSON.parse(value)) as IngestedEvent
  } catch {
    return { ok: false, reason: 'not valid JSON' }
  }
  if (Array.isArray(e)) return { ok: false, reason: `not a stored row: ${e.length} values, not ${FIRST_EVENT_ROW_LENGTH} to ${EVENT_ROW_COLUMNS.length}` }
  if (typeof e !== 'object' || e === null) return { ok: false, reason: 'not a JSON object' }
  for (const key of ['org_id', 'message_id', 'source_id', 'type'] as const) {
    if (typeof e[key] !== 'string' || !e[key]) return { ok: false, reason: `${key} missing` }
  }
  for (const key of ['timestamp', 'received_at'] as const) {
    if (typeof e[key] !== 'string' || !CH_TIME.test(e[key])) return { ok: false, reason: `${key} is not a timestamp` }
  }
  for (const key of ['properties', 'traits', 'context'] as const) {
    if (typeof e[key] !== 'object' || e[key] === null || Array.isArray(e[key])) return { ok: false, reason: `${key} is not an object` }
  }
  const { org_id, message_id, timestamp, ...rest } = e
  const canonical = JSON.stringify({ org_id, message_id, timestamp, ...rest })
  return { ok: true, value: canonical, head: readHead(canonical)! }
}
