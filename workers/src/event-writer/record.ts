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
