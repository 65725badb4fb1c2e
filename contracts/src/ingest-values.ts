import type { FieldError } from './errors.ts'

/**
 * What every value of an accepted call must be for the event store to take it.
 *
 * Segment's API lets properties, traits and context hold any JSON. fl0 stores
 * them in ClickHouse's JSON type and some ids in PostgreSQL, and measured there
 * (chDB, ClickHouse 26) these are refused, or break the code that handles them:
 * - objects and arrays nested deeper than ClickHouse's parser allows (1,000),
 *   and far less deep, the recursion of JSON.stringify in ingest and of the
 *   workers that walk a record's keys;
 * - strings or keys with an unpaired UTF-16 surrogate ("\ud800"): the JSON
 *   column refuses the whole row;
 * - the NUL character: PostgreSQL refuses it in any text, and event names,
 *   ids and property values travel there (features, audiences, scoring);
 * - integers outside 64 bits written out in full (JavaScript prints numbers
 *   below 1e21 without an exponent: 2e19 becomes "20000000000000000000"),
 *   which the JSON column reads as an integer and refuses; and numbers JSON
 *   cannot hold (1e400 parses to Infinity);
 * - two keys that name one path, such as {"a.b": 1, "a": {"b": 2}}: the JSON
 *   column splits keys on dots, finds the path twice and refuses the row.
 * Ingest refuses such a call with a 400 naming the field (or, in a batch, the
 * item) instead of acknowledging an event that could never be stored.
 */
export const VALUE_LIMITS = {
  /** Objects and arrays inside one call, counted from the call itself ({"properties": {...}} is 2). */
  maxDepth: 32,
  /** The JSON column's integers: Int64 and UInt64. */
  minInteger: -(2 ** 63),
  maxInteger: 2 ** 64,
} as const

export const VALUE_MESSAGES = {
  depth: `must be nested at most ${VALUE_LIMITS.maxDepth} levels deep`,
  nul: 'must not contain the NUL character (\\u0000)',
  unicode: 'must be valid Unicode text (it holds an unpaired surrogate)',
  number: 'must be a finite number, and an integer between -2^63 and 2^64 (send larger ones as strings)',
  duplicatePath: 'names a property twice: a key with dots and nested keys give the same path',
} as const

/**
 * The first rule a call's values break, with the dotted path of the field, or
 * undefined when the whole value can be stored. `prefix` names the call (a
 * batch item is `batch.3`). `seen.dottedKey` is set when any key holds a dot:
 * only then can two keys name one path (findDuplicatePath), so the common call
 * is walked once.
 */
export function findUnstorableValue(value: unknown, prefix = '', seen: { dottedKey?: boolean } = {}): FieldError | undefined {
  const fault = walk(value, 0, seen)
  if (!fault) return undefined
  let name = prefix
  for (let i = fault.trail.length - 1; i >= 0; i--) name = name ? `${name}.${fault.trail[i]}` : fault.trail[i]!
  return { name: name || 'body', message: fault.message }
}

/**
 * What is wrong, and where: the keys from the bad value out to the call, innermost
 * first. The walk names no path until it finds a fault, since nearly every call
 * has none (a path built for every key was 1.4 KB of garbage an event: issue 19).
 */
interface Fault {
  message: string
  trail: string[]
}

function walk(value: unknown, depth: number, seen: { dottedKey?: boolean }): Fault | undefined {
  switch (typeof value) {
    case 'string':
      return badString(value)
    case 'number':
      return storableNumber(value) ? undefined : { message: VALUE_MESSAGES.number, trail: [] }
    case 'object': {
      if (value === null) return undefined
      if (depth >= VALUE_LIMITS.maxDepth) return { message: VALUE_MESSAGES.depth, trail: [] }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const fault = walk(value[i], depth + 1, seen)
          if (fault) return within(fault, String(i))
        }
        return undefined
      }
      for (const key in value) {
        const keyFault = badString(key)
        if (keyFault) return within(keyFault, key)
        if (key.includes('.')) seen.dottedKey = true
        const fault = walk((value as Record<string, unknown>)[key], depth + 1, seen)
        if (fault) return within(fault, key)
      }
      return undefined
    }
    default:
      return undefined
  }
}

function within(fault: Fault, key: string): Fault {
  fault.trail.push(key)
  return fault
}

/**
 * NUL, or an unpaired surrogate. Two native scans, cheaper than a regular
 * expression's call on the short strings a call is made of (21 against 33 ns a
 * string here); for text of one-byte characters, the common kind, isWellFormed
 * need not look at all.
 */
function badString(s: string): Fault | undefined {
  if (s.includes('\u0000')) return { message: VALUE_MESSAGES.nul, trail: [] }
  if (!s.isWellFormed()) return { message: VALUE_MESSAGES.unicode, trail: [] }
  return undefined
}

function storableNumber(n: number): boolean {
  if (!Number.isFinite(n)) return false
  // Exponent form (|n| ≥ 1e21) and fractions are read as floats, which hold anything finite.
  if (!Number.isInteger(n) || Math.abs(n) >= 1e21) return true
  return n > VALUE_LIMITS.minInteger && n < VALUE_LIMITS.maxInteger
}

/**
 * The first path that an object of a JSON column names twice, once its keys
 * are split on dots as ClickHouse splits them, or undefined. Only objects that
 * hold a key with a dot can collide, so the common case costs one look at each
 * key. Arrays of objects are columns of their own inside the JSON type, so
 * each element is checked on its own.
 */
export function findDuplicatePath(value: Record<string, unknown>, prefix: string): FieldError | undefined {
  if (!hasDottedKey(value)) return undefined
  const seen = new Set<string>()
  const stack: Array<{ object: Record<string, unknown>; path: string; shown: string }> = [{ object: value, path: '', shown: prefix }]
  while (stack.length > 0) {
    const { object, path, shown } = stack.pop()!
    for (const key in object) {
      const child = object[key]
      const full = path ? `${path}.${key}` : key
      const named = `${shown}.${key}`
      if (isPlainObject(child)) {
        if (Object.keys(child).length > 0) {
          stack.push({ object: child, path: full, shown: named })
          continue
        }
      } else if (Array.isArray(child)) {
        const error = duplicateInArray(child, named)
        if (error) return error
      }
      // ClickHouse stores an empty object or a null as a path of its own only when
      // nothing else names it; a leaf of any other kind claims it.
      if (child === null || (isPlainObject(child) && Object.keys(child).length === 0)) continue
      if (seen.has(full)) return { name: named, message: VALUE_MESSAGES.duplicatePath }
      seen.add(full)
    }
  }
  return undefined
}

function duplicateInArray(items: unknown[], shown: string): FieldError | undefined {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    const error = isPlainObject(item) ? findDuplicatePath(item, `${shown}.${i}`) : Array.isArray(item) ? duplicateInArray(item, `${shown}.${i}`) : undefined
    if (error) return error
  }
  return undefined
}

function hasDottedKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasDottedKey)
  if (!isPlainObject(value)) return false
  for (const key in value) {
    if (key.includes('.')) return true
    if (hasDottedKey(value[key])) return true
  }
  return false
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
