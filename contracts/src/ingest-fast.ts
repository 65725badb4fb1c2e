import { EVENT_TYPES, inTimeRange, schemaByType, type EventType } from './ingest.ts'

/**
 * A call validated as `schemaByType[type].safeParse(raw)` validates it, with
 * the same result, but without zod when every field is in the form nearly
 * every client sends: strings within their limits, dates Date.parse reads,
 * objects where objects go. Any other value (a wrong type, a limit broken, an
 * odd form zod might still take) falls through to zod, which then answers
 * with its exact output or its exact field errors. So the schemas stay the one
 * definition of what a call may be, and this only skips their work on the hot
 * path: zod took 5–9 µs of an ingested event's CPU (bench/README.md, issue
 * 19), about a third of its validation, most of it allocations.
 *
 * Each type's fields are its schema's own keys, in the schema's order; a key
 * with no rule below turns the fast path off for that type, so a field added
 * to a schema is validated by zod until it gets one here. A differential test
 * (ingest-fast.test.ts) holds the two to the same answers on generated calls.
 */
type Rule = (value: unknown) => unknown
/** The value is not one the fast path settles: zod decides. */
const ZOD = Symbol('zod')

const MAX_ID = 1024
const MAX_MESSAGE_ID = 200
const MAX_EVENT_NAME = 200
const MAX_NAME = 500

function id(v: unknown): unknown {
  if (typeof v === 'string') return v.length <= MAX_ID ? v : ZOD
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : ZOD
  return v === null ? null : ZOD
}

function object(v: unknown): unknown {
  if (v === null) return null
  return typeof v === 'object' && !Array.isArray(v) ? v : ZOD
}

function date(v: unknown): unknown {
  if (v === null) return null
  if (typeof v !== 'string') return ZOD
  const ms = Date.parse(v)
  return ms === ms && inTimeRange(ms) ? v : ZOD
}

function messageId(v: unknown): unknown {
  if (v === null) return null
  return typeof v === 'string' && v.length >= 1 && v.length <= MAX_MESSAGE_ID ? v : ZOD
}

function text(v: unknown): unknown {
  if (v === null) return null
  return typeof v === 'string' ? v : ZOD
}

function name(v: unknown): unknown {
  if (v === null) return null
  return typeof v === 'string' && v.length <= MAX_NAME ? v : ZOD
}

/** Required: absent or null is zod's to word. */
function eventName(v: unknown): unknown {
  if (typeof v !== 'string') return ZOD
  const trimmed = v.trim()
  return trimmed.length >= 1 && trimmed.length <= MAX_EVENT_NAME ? trimmed : ZOD
}

/** groupId and previousId: required, a non-empty string or a number, stored as text. */
function requiredId(v: unknown): unknown {
  if (typeof v === 'string') return v.length >= 1 ? v : ZOD
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : ZOD
}

const RULES: Record<string, Rule> = {
  userId: id,
  anonymousId: id,
  context: object,
  integrations: object,
  messageId,
  timestamp: date,
  originalTimestamp: date,
  sentAt: date,
  writeKey: text,
  options: object,
  event: eventName,
  properties: object,
  traits: object,
  name,
  category: name,
  groupId: requiredId,
  previousId: requiredId,
}

/** Optional fields may be absent; required ones (no undefined in their rule) fall to zod when absent. */
const REQUIRED = new Set<Rule>([eventName, requiredId])

interface Field {
  key: string
  rule: Rule
}

/** Each type's fields with their rules, or undefined when some key of its schema has none. */
const FIELDS: Partial<Record<EventType, Field[]>> = {}
for (const type of EVENT_TYPES) {
  const keys = Object.keys(schemaByType[type].shape)
  if (keys.every((key) => RULES[key])) FIELDS[type] = keys.map((key) => ({ key, rule: RULES[key]! }))
}

export type ParsedCall<T extends EventType> = ReturnType<(typeof schemaByType)[T]['safeParse']>

/** `schemaByType[type].safeParse(raw)`, with zod skipped when the fast path settles every field. */
export function parseCall<T extends EventType>(type: T, raw: unknown): ParsedCall<T> {
  const data = fastParse(type, raw)
  if (data !== undefined) return { success: true, data } as ParsedCall<T>
  return schemaByType[type].safeParse(raw) as ParsedCall<T>
}

/** The call as zod would give it back, or undefined when zod must decide. Exported for the differential test. */
export function fastParse(type: EventType, raw: unknown): Record<string, unknown> | undefined {
  const fields = FIELDS[type]
  if (!fields || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined
  const input = raw as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (let i = 0; i < fields.length; i++) {
    const { key, rule } = fields[i]!
    const value = input[key]
    if (value === undefined) {
      if (REQUIRED.has(rule)) return undefined
      continue
    }
    const parsed = rule(value)
    if (parsed === ZOD) return undefined
    out[key] = parsed
  }
  return out
}
