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
  return walk(value, prefix, 0, seen)
}

function walk(value: unknown, path: string, depth: number, seen: { dottedKey?: boolean }): FieldError | undefined {
  switch (typeof value) {
    case 'string':
      return badString(value, path)
    case 'number':
      return storableNumber(value) ? undefined : { name: path || 'body', message: VALUE_MESSAGES.number }
    case 'object': {
      if (value === null) return undefined
      if (depth >= VALUE_LIMITS.maxDepth) return { name: path || 'body', message: VALUE_MESSAGES.depth }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const error = walk(value[i], join(path, String(i)), depth + 1, seen)
          if (error) return error
        }
        return undefined
      }
      for (const key in value) {
        const at = join(path, key)
        const keyError = badString(key, at)
        if (keyError) return keyError
        if (key.includes('.')) seen.dottedKey = true
        const error = walk((value as Record<string, unknown>)[key], at, depth + 1, seen)
        if (error) return error
      }
      return undefined
    }
    default:
      return undefined
  }
}

/** NUL or any surrogate: one scan of the common string; a pair of surrogates (an emoji) is then looked at closer. */
const SUSPECT = /[\u0000\ud800-\udfff]/

function badString(s: string, path: string): FieldError | undefined {
  if (!SUSPECT.test(s)) return undefined
  if (s.includes('\u0000')) return { name: path || 'body', message: VALUE_MESSAGES.nul }
  if (!s.isWellFormed()) return { name: path || 'body', message: VALUE_MESSAGES.unicode }
  return undefined
}

function storableNumber(n: number): boolean {
  if (!Number.isFinite(n)) return false
  // Exponent form (|n| ≥ 1e21) and fractions are read as floats, which hold anything finite.
  if (!Number.isInteger(n) || Math.abs(n) >= 1e21) return true
  return n > VALUE_LIMITS.minInteger && n < VALUE_LIMITS.maxInteger
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key
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
