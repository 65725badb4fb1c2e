import type { IngestedEvent } from '@fl0/contracts'

/**
 * What the writer needs from a bus record without parsing all of it: the
 * organisation and the message id, read off the front of the JSON that ingest
 * wrote with those keys and the timestamp first (see IngestedEvent).
 */
export interface RecordHead {
  orgId: string
  messageId: string
}

const HEAD = /^\{"org_id":"((?:[^"\\]|\\.)*)","message_id":"((?:[^"\\]|\\.)*)","timestamp":"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"/
const CH_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/

export function readHead(value: string): RecordHead | undefined {
  const m = HEAD.exec(value)
  if (!m) return undefined
  return { orgId: unescapeJson(m[1]), messageId: unescapeJson(m[2]) }
}

const unescapeJson = (s: string): string => (s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s)

const QUOTE = 0x22
const BACKSLASH = 0x5c
const ORG_KEY = Buffer.from('{"org_id":"')
const ID_KEY = Buffer.from('","message_id":"')
const TIME_KEY = Buffer.from('","timestamp":"')
const TIME_VALUE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"$/

/**
 * readHead on a record's UTF-8 bytes (as the bus holds them), decoding only the
 * two ids: a record read back from disk then costs no decode of its whole text,
 * and its head keeps no part of one alive. Undefined where it cannot tell (an id
 * with an escape in it, another layout): readHead on the text decides then.
 */
export function readHeadBytes(bytes: Uint8Array): RecordHead | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (!at(b, ORG_KEY, 0)) return undefined
  const orgStart = ORG_KEY.length
  const orgEnd = b.indexOf(QUOTE, orgStart)
  if (orgEnd < 0 || !at(b, ID_KEY, orgEnd)) return undefined
  const idStart = orgEnd + ID_KEY.length
  const idEnd = b.indexOf(QUOTE, idStart)
  if (idEnd < 0 || !at(b, TIME_KEY, idEnd)) return undefined
  const timeStart = idEnd + TIME_KEY.length
  if (timeStart + 24 > b.length || !TIME_VALUE.test(b.toString('latin1', timeStart, timeStart + 24))) return undefined
  for (let i = orgStart; i < idEnd; i++) if (b[i] === BACKSLASH) return undefined
  return { orgId: b.toString('utf8', orgStart, orgEnd), messageId: b.toString('utf8', idStart, idEnd) }
}

function at(b: Buffer, text: Buffer, offset: number): boolean {
  return offset + text.length <= b.length && b.compare(text, 0, text.length, offset, offset + text.length) === 0
}

/**
 * The full check, for records whose head could not be read, or when ClickHouse
 * refused a batch: says why a record is poison, or gives it back re-serialised in
 * the canonical key order.
 */
export function checkRecord(value: string): { ok: true; value: string; head: RecordHead } | { ok: false; reason: string } {
  let e: IngestedEvent
  try {
    e = JSON.parse(value)
  } catch {
    return { ok: false, reason: 'not valid JSON' }
  }
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return { ok: false, reason: 'not a JSON object' }
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
